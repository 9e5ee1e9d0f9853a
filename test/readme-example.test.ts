import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { transform } from 'esbuild';
import { repoRoot } from './support/repo-root.js';
import { startReplayServer } from './support/replay-server.js';
import type { ReplayResponse, ReplayServer } from './support/replay-server.js';

const run = promisify(execFile);

/**
 * The README's "Use the core in your Node app" example, run as a user would run it: the code
 * block is taken from README.md as it stands, type-stripped, and run with Node inside the
 * package, so `import … from 'avatar-service'` resolves through the package's own `exports`. As
 * written it runs offline (local engines). The vendor variant uncomments the example's OpenAI
 * lines, as its comment invites, and points OpenAI at a local server that replays its documented
 * stream (there is no internet here). The example's relative `./data` paths land in a fresh
 * directory.
 */
async function readmeExample(): Promise<string> {
  const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Use the core in your Node app'));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, 'README has a ts block under "Use the core in your Node app"');
  return block;
}

describe('README example: the core in a Node app', () => {
  let offline: string;
  let vendor: string;
  const servers: ReplayServer[] = [];
  const dirs: string[] = [];

  before(async () => {
    const source = await readmeExample();
    offline = (await transform(source, { loader: 'ts', format: 'esm' })).code;
    const importLine = '  // createOpenAIProvider,\n';
    const providerLine = /\n    \/\/ createOpenAIProvider\(\{ apiKey: process\.env\.OPENAI_API_KEY \}\),[^\n]*/;
    const create = "service.conversations.create(owner, { avatarId: 'luna-001' })";
    assert.ok(source.includes(importLine) && providerLine.test(source) && source.includes(create), 'the example shows the OpenAI lines as comments');
    const withVendor = source
      .replace(importLine, '  createOpenAIProvider,\n')
      .replace(providerLine, '\n    createOpenAIProvider({ apiKey: process.env.OPENAI_API_KEY, baseUrl: process.env.OPENAI_BASE_URL }),')
      .replace(create, "service.conversations.create(owner, { avatarId: 'luna-001', aiProvider: 'openai' })");
    vendor = (await transform(withVendor, { loader: 'ts', format: 'esm' })).code;
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  async function runExample(code: string, openai?: ReplayResponse): Promise<{ stdout: string; requests: number; cwd: string }> {
    const replay = openai ? await startReplayServer([openai]) : undefined;
    if (replay) servers.push(replay);
    const cwd = await mkdtemp(join(tmpdir(), 'avatar-readme-'));
    dirs.push(cwd);
    // Inside the package (dist/ is in it), so the bare specifier resolves to this package.
    const file = join(repoRoot, 'dist', `readme-example-${Date.now()}-${dirs.length}.mjs`);
    await writeFile(file, code);
    try {
      const { stdout } = await run(process.execPath, [file], {
        cwd,
        timeout: 60_000,
        env: {
          PATH: process.env.PATH,
          JWT_SECRET: 'a-test-secret-of-at-least-32-characters!',
          ...(replay && { OPENAI_API_KEY: 'sk-test-readme', OPENAI_BASE_URL: `${replay.url}/v1` }),
        },
      });
      return { stdout, requests: replay?.requests.length ?? 0, cwd };
    } catch (error) {
      throw new Error(`the example failed: ${(error as { stderr?: string }).stderr ?? String(error)}\nstdout: ${(error as { stdout?: string }).stdout ?? ''}`);
    } finally {
      await rm(file, { force: true });
    }
  }

  async function assertStoredAudio(stdout: string, cwd: string): Promise<void> {
    const audio = [...stdout.matchAll(/sentence audio: (\S+)/g)].map((m) => m[1]!);
    assert.ok(audio.length >= 1, stdout);
    for (const key of audio) {
      assert.match(key, /^aud_[0-9a-z]+-\d+\.mp3$/);
      assert.ok((await stat(join(cwd, 'data/audio', key))).size > 0, `${key} is stored in ./data/audio`);
    }
  }

  it('runs offline as written: the local engine answers and each sentence is a stored MP3', async () => {
    const { stdout, cwd } = await runExample(offline);
    assert.match(stdout, /Sam/, 'the local engine remembers the name from the message');
    await assertStoredAudio(stdout, cwd);
  });

  it('fails at start, naming jwtSecret, when JWT_SECRET is unset', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'avatar-readme-'));
    dirs.push(cwd);
    const file = join(repoRoot, 'dist', `readme-example-nosecret-${Date.now()}.mjs`);
    await writeFile(file, offline);
    try {
      const failed = await run(process.execPath, [file], { cwd, timeout: 60_000, env: { PATH: process.env.PATH } }).then(
        () => undefined,
        (error: { stderr?: string }) => error.stderr ?? '',
      );
      assert.ok(failed !== undefined, 'the example refused to start');
      assert.match(failed, /ConfigurationError: jwtSecret: is required/);
    } finally {
      await rm(file, { force: true });
    }
  });

  it('with the vendor lines uncommented, streams the OpenAI reply and prints a stored MP3 per sentence', async () => {
    const chunks = await readFile(join(repoRoot, 'test/core/providers/openai/__fixtures__/streamed.chunks.txt'), 'utf8');
    const { stdout, requests, cwd } = await runExample(vendor, { headers: { 'content-type': 'text/event-stream' }, chunks: [chunks] });
    assert.equal(requests, 1);
    assert.match(stdout, /^Hi Sam! Café time\?/);
    await assertStoredAudio(stdout, cwd);
  });

  it('with the vendor lines uncommented, answers offline through the fallback when OpenAI is down', async () => {
    const { stdout, requests } = await runExample(vendor, { status: 500, headers: { 'content-type': 'application/json' }, chunks: ['{"error":{"message":"The server had an error","type":"server_error"}}'] });
    assert.ok(requests >= 1, 'OpenAI was tried first');
    assert.match(stdout, /Sam/, 'the local engine remembers the name from the message');
    assert.match(stdout, /sentence audio: aud_/);
  });
});
