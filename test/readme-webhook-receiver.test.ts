import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WebhookPoster } from '../core/index.js';
import { repoRoot } from './support/repo-root.js';
import { startTestServer } from './support/test-server.js';
import type { TestServer } from './support/test-server.js';
import { freePort } from './support/processes.js';

const SECRET = 'readme-receiver-secret-0123456789';


/**
 * The README's webhook receiver, run as a user would run it: the `js` block under "Webhooks" is
 * taken from README.md as it stands and started with Node; a real server delivers to it.
 */
describe('README example: the webhook receiver', () => {
  let dir: string;
  let child: ChildProcess;
  let output = '';
  let url: string;
  let t: TestServer;

  before(async () => {
    const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
    const block = /```js\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## Webhooks')))?.[1];
    assert.ok(block, 'README has a js block under "Webhooks"');
    dir = await mkdtemp(join(tmpdir(), 'avatar-receiver-'));
    await writeFile(join(dir, 'receiver.mjs'), block);
    const port = await freePort();
    url = `http://127.0.0.1:${port}/`;
    child = spawn(process.execPath, [join(dir, 'receiver.mjs')], { env: { ...process.env, WEBHOOK_SECRET: SECRET, PORT: String(port) } });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    for (let i = 0; i < 100 && (await fetch(url, { method: 'POST' }).then(() => false, () => true)); i++) await new Promise((r) => setTimeout(r, 50));
    t = await startTestServer();
  });
  after(async () => {
    child.kill();
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  const lines = () => output.split('\n').filter((line) => line.trim() !== '');
  async function waitForOutput(predicate: (lines: string[]) => boolean) {
    for (let i = 0; i < 200 && !predicate(lines()); i++) await new Promise((r) => setTimeout(r, 25));
    assert.ok(predicate(lines()), `receiver output: ${output}`);
  }

  it('verifies and handles the events a real server sends', async () => {
    const registered = await t.request('/v1/webhooks', { method: 'POST', json: { url, events: ['conversation.started'], secret: SECRET } });
    assert.equal(registered.status, 201);
    const conversation = (await (await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } })).json()) as { id: string };
    await waitForOutput((seen) => seen.some((line) => line.startsWith('conversation.started evt_') && line.includes(conversation.id)));
    const [delivery] = (await t.service.webhooks.deliveries({ accountId: t.accountId, mode: 'test' }, ((await registered.json()) as { id: string }).id, { limit: 1 })).items;
    assert.equal(delivery?.status, 'succeeded');
  });

  it('answers 200 to a retry of the same event but handles it once, and 401 to a bad signature', async () => {
    const poster = new WebhookPoster({ policy: { allowInsecure: true }, timeoutMs: 5_000, connectTimeoutMs: 2_000 });
    try {
      const body = JSON.stringify({ id: 'evt_readme_retry', type: 'message.created', timestamp: new Date().toISOString(), data: { conversationId: 'conv_x' } });
      const send = (secret: string, attempt: number) => poster.post({ url, body, secret, eventId: 'evt_readme_retry', eventType: 'message.created', attempt });
      assert.equal((await send(SECRET, 1)).status, 200);
      assert.equal((await send(SECRET, 2)).status, 200, 'a retry is acknowledged');
      assert.equal((await send('a-different-secret-0123456789', 3)).status, 401);
      await waitForOutput((seen) => seen.some((line) => line.includes('evt_readme_retry')));
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(lines().filter((line) => line.includes('evt_readme_retry')).length, 1, 'handled once');
    } finally {
      poster.close();
    }
  });
});
