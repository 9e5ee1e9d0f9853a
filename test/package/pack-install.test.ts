import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { transform } from 'esbuild';
import { repoRoot } from '../support/repo-root.js';

const run = promisify(execFile);

/** Bytes of every file under `dir` (links not followed). */
async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** The installed-size budget of a core-only app: avatar-service and its dependencies, without the optional ones. */
const CORE_INSTALL_BUDGET_BYTES = 40_000_000;

/**
 * better-sqlite3 installs a prebuilt binary from its GitHub releases (prebuild-install), and
 * compiles SQLite from source with node-gyp only where it cannot fetch one — leaving ~15 MB of
 * object files in its build/ folder. A new user on a supported platform gets the prebuilt binary;
 * this test runs where GitHub is out of reach (the CI reaches only the npm registry), so it hands
 * prebuild-install the same binary through its documented local-prebuilds folder: the one
 * already built in this checkout's node_modules, packed under the name prebuild-install looks for.
 * Returns the folder, or undefined when this checkout holds no binary to offer.
 */
async function localPrebuilds(work: string): Promise<string | undefined> {
  const sqlite = join(repoRoot, 'node_modules/better-sqlite3');
  if (!existsSync(join(sqlite, 'build/Release/better_sqlite3.node'))) return undefined;
  const { version } = JSON.parse(await readFile(join(sqlite, 'package.json'), 'utf8')) as { version: string };
  const folder = join(work, 'prebuilds');
  await run('mkdir', ['-p', folder]);
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await run('tar', ['-czf', join(folder, name), '-C', sqlite, 'build/Release/better_sqlite3.node']);
  return folder;
}

/**
 * The package as a new user gets it: `npm pack` of this checkout, installed into an empty app in
 * a temporary folder (from npm's cache where it can) without the optional packages
 * (`--omit=optional`: the GPL speech engine and its MP3 encoder), then used from there — the
 * README's core example and the CLI through npx — with nothing of the repository on the way.
 */
describe('The package, packed and installed into a new app', () => {
  let work: string;
  let app: string;
  let tarball: string;
  let files: string[];
  let installEnv: NodeJS.ProcessEnv;

  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'avatar-pack-'));
    // dist/ is built by `npm test` just before; `prepare` (which builds it in a fresh clone) is not run again here.
    const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 });
    const [packed] = JSON.parse(stdout) as { filename: string; size: number; unpackedSize: number; entryCount: number; files: { path: string }[] }[];
    tarball = join(work, packed!.filename);
    files = packed!.files.map((file) => file.path);
    app = join(work, 'app');
    await run('mkdir', ['-p', app]);
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'my-app', version: '1.0.0', private: true, type: 'module' }));
    const prebuilds = await localPrebuilds(work);
    installEnv = { ...process.env, ...(prebuilds && { npm_config_better_sqlite3_local_prebuilds: prebuilds }) };
    const started = performance.now();
    await run('npm', ['install', '--omit=optional', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball], { cwd: app, env: installEnv, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
    const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
    console.log(`package: ${mb(packed!.size)} packed, ${mb(packed!.unpackedSize)} unpacked, ${packed!.entryCount} files; core-only install took ${((performance.now() - started) / 1000).toFixed(0)} s`);
  });
  after(() => rm(work, { recursive: true, force: true }));

  it('ships what users run and nothing else', async () => {
    const manifest = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    assert.match(manifest.scripts.prepare ?? '', /build/, 'a fresh clone builds dist/ on npm install and npm pack');
    for (const needed of ['dist/core/index.js', 'dist/core/index.d.ts', 'dist/server/cli.js', 'dist/server/index.js', 'dist/widget/avatar-chat.js', 'dist/docs/redoc-standalone.js', 'assets/avatars/luna-001.vrm', 'demo/index.html', 'README.md', 'LICENSE']) {
      assert.ok(files.includes(needed), `${needed} is in the package`);
    }
    const stray = files.filter((file) => /^(test|bench|\.ci|core|server|widget|assets\/generator|dist\/test|dist\/bench|dist\/assets)\//.test(file) || /^dist\/.*\.map$/.test(file));
    assert.deepEqual(stray, [], 'no tests, benchmarks, CI scripts, sources or source maps');
    assert.deepEqual(files.filter((file) => file.endsWith('.gz')), [], 'static files are precompressed with brotli only (server/precompress.ts)');
    assert.ok(files.includes('dist/widget/avatar-chat.js.br'), 'the widget bundle ships with its brotli variant');
  });

  it(`installs the core and server in at most ${CORE_INSTALL_BUDGET_BYTES / 1e6} MB: no three.js, three-vrm, Lit, optional engines or peers`, async () => {
    const modules = join(app, 'node_modules');
    for (const absent of ['three', '@pixiv/three-vrm', 'lit', 'socket.io-client', 'espeak-ng', 'wasm-media-encoders', 'pg', 'ioredis', '@socket.io/redis-adapter', 'prom-client']) {
      assert.ok(!existsSync(join(modules, absent)), `${absent} is not installed (bundled into the widget, optional, or an optional peer)`);
    }
    const sizes = new Map<string, number>();
    for (const entry of await readdir(modules, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || !entry.isDirectory()) continue;
      const names = entry.name.startsWith('@') ? (await readdir(join(modules, entry.name))).map((name) => `${entry.name}/${name}`) : [entry.name];
      for (const name of names) sizes.set(name, await sizeOf(join(modules, name)));
    }
    const total = await sizeOf(modules);
    const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
    const largest = [...sizes].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([name, bytes]) => `${name} ${mb(bytes)}`).join(', ');
    console.log(`installed: node_modules ${mb(total)} in ${sizes.size} packages; largest: ${largest}`);
    const compiled = existsSync(join(modules, 'better-sqlite3/build/Release/obj'));
    assert.ok(
      total <= CORE_INSTALL_BUDGET_BYTES,
      `node_modules is ${mb(total)}, over the ${mb(CORE_INSTALL_BUDGET_BYTES)} budget (largest: ${largest})` +
        (compiled ? '; better-sqlite3 was compiled from source (its prebuilt binary was not found), which leaves ~15 MB of object files' : ''),
    );
  });

  it('runs `npx avatar-service --version` from the app', async () => {
    const { version } = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const { stdout } = await run('npx', ['--no-install', 'avatar-service', '--version'], { cwd: app, env: { PATH: process.env.PATH, HOME: work } });
    assert.equal(stdout.trim(), version);
  });

  it("runs the README's core example from the app, once the optional speech engine is added", async () => {
    const { optionalDependencies } = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { optionalDependencies: Record<string, string> };
    // What the local speech engine's "not installed" message tells a user who omitted optional packages to run.
    const specs = Object.entries(optionalDependencies).map(([name, range]) => `${name}@${range}`);
    await run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...specs], { cwd: app, env: installEnv, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
    const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
    const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## Use the core in your Node app')))?.[1];
    assert.ok(block);
    await writeFile(join(app, 'example.mjs'), (await transform(block, { loader: 'ts', format: 'esm' })).code);
    const { stdout } = await run(process.execPath, ['example.mjs'], {
      cwd: app,
      timeout: 120_000,
      env: { PATH: process.env.PATH, JWT_SECRET: 'a-secret-for-the-packed-example-0123456789' },
    });
    assert.match(stdout, /Sam/);
    assert.match(stdout, /sentence audio: aud_\S+\.mp3/);
  });
});
