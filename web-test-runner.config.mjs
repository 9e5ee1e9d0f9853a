// Browser tests (test/widget/**) in Debian's Chromium with SwiftShader WebGL.
// Run: npx web-test-runner --config web-test-runner.config.mjs
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { defaultReporter } from '@web/test-runner';
import { summaryReporter } from './test/support/wtr-summary-reporter.mjs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { browserMappedPath } from './rollup.config.mjs';

const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--autoplay-policy=no-user-gesture-required',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

/** A free TCP port on 127.0.0.1 (the server needs it up front to build its PUBLIC_URL). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Browser tests that need the real service import the virtual module `/__avatar-server.js`
 * (`export const SERVER_URL`, and `API_KEY`: the demo account's test key). The first import starts the built server (dist/, so run
 * `npm run build` first) on a free port with a temporary data folder and DEV_BOOTSTRAP on
 * (`POST /demo/session` mints session tokens); it stops when the test run ends. Test files that
 * do not import it never start it.
 */
function avatarServerPlugin() {
  let running;
  let spare;
  async function start() {
    const { loadConfig, startServer } = await import('./dist/server/index.js');
    const dataDir = await mkdtemp(join(tmpdir(), 'avatar-wtr-'));
    const port = await freePort();
    const config = loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), DEV_BOOTSTRAP: 'true', ACCESS_LOG: 'false' });
    const server = await startServer(config);
    // The suites open many demo sessions a minute from one account: more than the demo's creator
    // tier allows (60 requests/min). Rate limiting has tests of its own (test/server).
    await server.service.accounts.setPlan(server.bootstrap.accountId, { tier: 'pro' });
    return {
      url: server.url,
      apiKey: server.bootstrap.key,
      async close() {
        await server.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  return {
    name: 'avatar-test-server',
    async serve(context) {
      if (context.path !== '/__avatar-server.js') return undefined;
      running ??= start();
      const { url, apiKey } = await running;
      return { body: `export const SERVER_URL = ${JSON.stringify(url)};\nexport const API_KEY = ${JSON.stringify(apiKey)};\n`, type: 'js' };
    },
    /**
     * `executeServerCommand('spare-server-start' | 'spare-server-stop')`: a second server a test
     * may stop and start again (same port, same data folder, so sessions and conversations
     * survive), to see the element lose its connection and recover. Files run one at a time.
     */
    async executeCommand({ command }) {
      if (command === 'spare-server-start') {
        spare ??= { port: await freePort(), dataDir: await mkdtemp(join(tmpdir(), 'avatar-wtr-spare-')), server: undefined };
        if (!spare.server) {
          const { loadConfig, startServer } = await import('./dist/server/index.js');
          const config = loadConfig({ DATA_DIR: spare.dataDir, HOST: '127.0.0.1', PORT: String(spare.port), DEV_BOOTSTRAP: 'true', ACCESS_LOG: 'false' });
          spare.server = await startServer(config);
        }
        return { url: spare.server.url };
      }
      if (command === 'spare-server-stop') {
        await spare?.server?.close();
        if (spare) spare.server = undefined;
        return true;
      }
      return undefined;
    },
    async serverStop() {
      if (running) await (await running).close();
      if (spare) {
        await spare.server?.close();
        await rm(spare.dataDir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Applies packages' `browser` file maps to their relative imports, as the widget bundle does
 * (rollup.config.mjs): socket.io-client's engine.io-client would otherwise load its Node
 * transports (`ws`, a CommonJS XMLHttpRequest shim) in the browser.
 */
function browserFileMapPlugin() {
  const cache = new Map();
  return {
    name: 'browser-file-map',
    resolveImport({ source, context }) {
      if (!source.startsWith('.') || !context.path.includes('/node_modules/')) return undefined;
      const from = join(process.cwd(), dirname(context.path));
      const target = browserMappedPath(join(from, source), cache);
      if (typeof target !== 'string') return undefined;
      const path = relative(from, target);
      return path.startsWith('.') ? path : `./${path}`;
    },
  };
}

/**
 * `executeServerCommand('write-artifact', { name, dataUrl } | { name, text })`: writes a file a
 * browser test produced (a contact sheet, measured figures) into `test-artifacts/` (git-ignored).
 * Names are plain file names; anything with a path or odd characters is refused.
 */
function artifactWriterPlugin() {
  return {
    name: 'test-artifact-writer',
    async executeCommand({ command, payload }) {
      if (command !== 'write-artifact') return undefined;
      const { name, dataUrl, text } = payload ?? {};
      if (typeof name !== 'string' || !/^[a-z0-9][a-z0-9._-]*$/i.test(name) || basename(name) !== name) throw new Error(`write-artifact: bad name ${JSON.stringify(name)}`);
      let bytes;
      if (typeof text === 'string') bytes = Buffer.from(text, 'utf8');
      else if (typeof dataUrl === 'string' && /^data:[^;,]+;base64,/.test(dataUrl)) bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
      else throw new Error('write-artifact: give text or a base64 data URL');
      const dir = join(process.cwd(), 'test-artifacts');
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, name), bytes);
      return { path: relative(process.cwd(), join(dir, name)), bytes: bytes.length };
    },
  };
}

export default {
  files: 'test/widget/**/*.test.ts',
  // Browser production builds (socket.io-client's esm, not its Node / development esm-debug build).
  nodeResolve: { browser: true, exportConditions: ['browser', 'production'] },
  plugins: [esbuildPlugin({ ts: true, target: 'es2022' }), avatarServerPlugin(), browserFileMapPlugin(), artifactWriterPlugin()],
  browsers: [
    chromeLauncher({
      launchOptions: { executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS },
    }),
  ],
  testFramework: { config: { timeout: 60000 } },
  reporters: [defaultReporter(), summaryReporter()],
};
