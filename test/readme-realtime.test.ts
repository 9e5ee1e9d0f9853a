import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { repoRoot } from './support/repo-root.js';
import { startTestServer } from './support/test-server.js';
import type { TestServer } from './support/test-server.js';

const run = promisify(execFile);

/** The `js` blocks of the README's Realtime section, in order (socket.io, then WebSocket). */
async function realtimeExamples(): Promise<string[]> {
  const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
  const start = readme.indexOf('## Realtime');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/**
 * The README's realtime clients, run as written against a real server: each joins (or opens) a
 * conversation with the API key from the environment, sends a message and prints the reply to
 * its `done`. They run from dist/ so `socket.io-client` and `ws` resolve from this checkout.
 */
describe('README example: realtime clients', () => {
  let t: TestServer;
  let examples: string[];
  before(async () => {
    t = await startTestServer();
    examples = await realtimeExamples();
    assert.equal(examples.length, 2, 'a socket.io and a WebSocket example');
  });
  after(() => t.close());

  async function runExample(index: number, key: string): Promise<{ stdout: string; stderr: string; code: number }> {
    const created = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser' } });
    const { id } = (await created.json()) as { id: string };
    const file = join(repoRoot, 'dist', `readme-realtime-${index}-${Date.now()}.mjs`);
    await writeFile(file, examples[index]!);
    try {
      const { stdout, stderr } = await run(process.execPath, [file], {
        timeout: 60_000,
        env: { PATH: process.env.PATH, AVATAR_SERVER: t.url, AVATAR_KEY: key, CONVERSATION_ID: id },
      });
      return { stdout, stderr, code: 0 };
    } catch (error) {
      const failed = error as { stdout: string; stderr: string; code: number };
      return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
    } finally {
      await rm(file, { force: true });
    }
  }

  for (const [index, transport] of [[0, 'socket.io'], [1, 'WebSocket']] as const) {
    it(`${transport}: streams the reply to its done`, async () => {
      const { stdout, stderr, code } = await runExample(index, t.key);
      assert.equal(code, 0, stderr);
      assert.match(stdout, /\ndone: msg_\w+\n$/);
      if (index === 0) assert.match(stdout, /stored as msg_\w+/, 'the message was acknowledged');
    });

    it(`${transport}: reports a refused credential`, async () => {
      const { stderr, code } = await runExample(index, 'svc_test_not-a-key');
      assert.equal(code, 1);
      assert.match(stderr, /^refused: /);
    });
  }
});
