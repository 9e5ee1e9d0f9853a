import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { io } from 'socket.io-client';
import WebSocket from 'ws';
import { freePort, startCli, stopCli, until } from '../support/processes.js';
import type { Cli } from '../support/processes.js';
import { readSse } from '../support/sse-client.js';

/**
 * What an operator reads in the log of a busy server: the real CLI as a child process serves
 * streamed replies (read to the end, and left mid-stream), realtime clients on both transports,
 * and refused credentials. Its log must hold no warning (`MaxListenersExceededWarning`, any
 * `(node:…) …Warning`) and no unhandled rejection, and it must stop cleanly.
 */
describe('Server log of a child process', () => {
  let cli: Cli | undefined;
  let dataDir: string;
  after(async () => {
    if (cli && cli.child.exitCode === null) cli.child.kill('SIGKILL');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('stays free of warnings and unhandled rejections through streams, aborts and realtime clients', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'avatar-log-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    cli = await startCli({ DATA_DIR: dataDir, PORT: String(port), DEV_BOOTSTRAP: 'true', ACCESS_LOG: 'false' });
    const key = /API key: (svc_test_\S+)/.exec(cli.output())?.[1];
    assert.ok(key, cli.output());
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const post = (path: string, body: unknown) => fetch(base + path, { method: 'POST', headers, body: JSON.stringify(body) });
    const conversation = (await (await post('/v1/conversations', { avatar_id: 'luna-001' })).json()) as { id: string };

    // Twelve streamed replies on one kept-alive connection: more than Node's default of ten
    // listeners, had any of them stayed on a shared emitter.
    for (let i = 0; i < 12; i++) {
      const res = await post(`/v1/conversations/${conversation.id}/messages`, { content: `Hello, tell me something about the sea. Turn ${i}.`, stream: true });
      assert.equal(res.status, 200);
      const events = await readSse(res);
      assert.equal(events.at(-1)?.event, 'done');
    }
    // Three clients that leave mid-reply.
    for (let i = 0; i < 3; i++) {
      const res = await post(`/v1/conversations/${conversation.id}/messages`, { content: 'Tell me a long story, please.', stream: true });
      await readSse(res, () => 'stop');
      await until(async () => (await post(`/v1/conversations/${conversation.id}/messages`, { content: 'Still there?' })).status === 200, 'the conversation to take messages again');
    }
    // A misspelt field and an API key in a URL: refused, not logged as errors.
    assert.equal((await post(`/v1/conversations/${conversation.id}/messages`, { contnet: 'hi' })).status, 400);
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/v1/conversations/${conversation.id}/ws?token=${key}`);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
      ws.on('error', () => undefined);
    });
    assert.equal(refused, 401);

    // socket.io: join, a message with its acknowledgement, the reply to its end.
    const socket = io(base, { path: '/v1/realtime', auth: { token: key }, transports: ['websocket'] });
    try {
      const joined = (await socket.emitWithAck('join', { conversation_id: conversation.id })) as { ok: boolean };
      assert.equal(joined.ok, true);
      const done = new Promise((resolve) => socket.once('done', resolve));
      const ack = (await socket.emitWithAck('message', { content: 'Hi over socket.io' })) as { ok: boolean };
      assert.equal(ack.ok, true);
      await done;
    } finally {
      socket.disconnect();
    }

    // stopCli fails on warnings and unhandled rejections (as every test's server child does).
    assert.equal(await stopCli(cli), 0, cli.output());
    assert.doesNotMatch(cli.output(), /unhandled server error/, cli.output());
  });
});
