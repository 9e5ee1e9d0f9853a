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

/**
 * The package as a new user gets it: `npm pack` of this checkout, installed into an empty app in
 * a temporary folder (from npm's cache where it can), then used from there — the README's core
 * example and the CLI through npx — with nothing of the repository on the way.
 */
describe('The package, packed and installed into a new app', () => {
  let work: string;
  let app: string;
  let tarball: string;
  let files: string[];

  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'avatar-pack-'));
    // dist/ is built by `npm test` just before; `prepare` (which builds it in a fresh clone) is not run again here.
    const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 });
    const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
    tarball = join(work, packed!.filename);
    files = packed!.files.map((file) => file.path);
    app = join(work, 'app');
    await run('mkdir', ['-p', app]);
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'my-app', version: '1.0.0', private: true, type: 'module' }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball], { cwd: app, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
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
  });

  it('installs the core and server dependencies only: no three.js, three-vrm or Lit', async () => {
    const modules = join(app, 'node_modules');
    for (const browserOnly of ['three', '@pixiv/three-vrm', 'lit', 'socket.io-client']) {
      assert.ok(!existsSync(join(modules, browserOnly)), `${browserOnly} is bundled into the widget, not installed`);
    }
    const total = await sizeOf(modules);
    const speech = existsSync(join(modules, 'espeak-ng')) ? await sizeOf(join(modules, 'espeak-ng')) : 0;
    const sqliteBuild = existsSync(join(modules, 'better-sqlite3/build')) ? await sizeOf(join(modules, 'better-sqlite3/build')) : 0;
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
    console.log(`installed: node_modules ${mb(total)}; without the optional speech engine ${mb(total - speech)}; of which better-sqlite3's native build ${mb(sqliteBuild)}`);
  });

  it('runs `npx avatar-service --version` from the app', async () => {
    const { version } = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const { stdout } = await run('npx', ['--no-install', 'avatar-service', '--version'], { cwd: app, env: { PATH: process.env.PATH, HOME: work } });
    assert.equal(stdout.trim(), version);
  });

  it("runs the README's core example from the app", async () => {
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
