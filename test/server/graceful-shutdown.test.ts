import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { io } from 'socket.io-client';
import WebSocket from 'ws';
import { freePort, startCli } from '../support/processes.js';
import type { Cli } from '../support/processes.js';
import { readSse } from '../support/sse-client.js';
import { startReplayServer } from '../support/replay-server.js';
import type { ReplayServer } from '../support/replay-server.js';
import type { SseEvent } from '../support/sse-client.js';
import { wireReconnectSchema } from '../../server/http/wire-schemas.js';

/** An OpenAI-compatible stream chunk carrying `content`. */
const chunk = (content: string) => `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

/**
 * SIGTERM to the real CLI while a reply streams over SSE and clients sit on socket.io and the
 * plain WebSocket: every one of them is told to reconnect (the `reconnect` event / frame, then a
 * close; 1012 on the WebSocket), the interrupted reply is stored, and
 * the process exits 0 — the code of a shutdown that finished within SHUTDOWN_TIMEOUT_MS (past
 * it, the process exits 1).
 */
describe('Graceful shutdown of a child process', () => {
  let cli: Cli | undefined;
  let dataDir: string;
  let vendor: ReplayServer | undefined;
  after(async () => {
    if (cli && cli.child.exitCode === null) cli.child.kill('SIGKILL');
    await vendor?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('sends reconnect on SSE, socket.io and WebSocket, keeps the cut-off reply, and exits 0 within SHUTDOWN_TIMEOUT_MS', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'avatar-shutdown-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // The AI: one sentence, then silence — the reply is mid-stream until the server stops it.
    vendor = await startReplayServer([
      { headers: { 'content-type': 'text/event-stream' }, chunks: [chunk('Once upon a time there was a quiet harbour by the sea. '), chunk('And one day')], fault: 'body' },
    ]);
    const env = { DATA_DIR: dataDir, PORT: String(port), DEV_BOOTSTRAP: 'true', CUSTOM_AI_PROVIDERS: `slow=${vendor.url}/v1`, SLOW_MODEL: 'story', DEFAULT_AI_PROVIDER: 'slow' };
    cli = await startCli({ ...env, SHUTDOWN_TIMEOUT_MS: '20000' });
    const key = /API key: (svc_test_[0-9A-Za-z]+)/.exec(cli.output())?.[1];
    assert.ok(key, cli.output());
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const post = (path: string, body: unknown) => fetch(base + path, { method: 'POST', headers, body: JSON.stringify(body) });
    const conversation = (await (await post('/v1/conversations', { avatar_id: 'luna-001' })).json()) as { id: string };
    assert.equal((await fetch(`${base}/health/ready`)).status, 200);

    // A WebSocket and a socket.io client on the conversation, both open.
    const ws = new WebSocket(`ws://127.0.0.1:${port}/v1/conversations/${conversation.id}/ws`, { headers: { authorization: `Bearer ${key}` } });
    const wsFrames: { type: string; data: unknown }[] = [];
    ws.on('message', (raw) => wsFrames.push(JSON.parse(raw.toString()) as { type: string; data: unknown }));
    const wsClosed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const socket = io(base, { path: '/v1/realtime', auth: { token: key }, transports: ['websocket'], reconnection: false });
    const socketHint = new Promise<unknown>((resolve) => socket.on('reconnect' as never, resolve as never));
    const socketGone = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    assert.equal(((await socket.emitWithAck('join', { conversation_id: conversation.id })) as { ok: boolean }).ok, true);

    // A streamed reply: SIGTERM once its first text has arrived.
    const res = await post(`/v1/conversations/${conversation.id}/messages`, {
      content: 'Tell me a long story about the sea, the ships, the storms and the harbours, please.',
      stream: true,
    });
    assert.equal(res.status, 200);
    const exited = new Promise<number | null>((resolve) => cli!.child.once('exit', (code) => resolve(code)));
    let signalled = false;
    const events: SseEvent[] = await readSse(res, (event) => {
      if (event.event === 'message' && !signalled) {
        signalled = true;
        cli!.child.kill('SIGTERM');
      }
    });

    assert.ok(signalled, `the reply streamed no text: ${JSON.stringify(events)}`);
    const last = events.at(-1)!;
    assert.equal(last.event, 'reconnect', JSON.stringify(events));
    assert.deepEqual(wireReconnectSchema.parse(last.data, 'data'), { reason: 'shutdown', retry_after_ms: 1000 });

    assert.deepEqual(await socketHint, { reason: 'shutdown', retry_after_ms: 1000 });
    assert.equal(await socketGone, 'transport close');
    assert.equal(await wsClosed, 1012);
    assert.deepEqual(wsFrames.find((frame) => frame.type === 'reconnect')?.data, { reason: 'shutdown', retry_after_ms: 1000 });

    assert.equal(await exited, 0, cli.output());
    const log = cli.output().trim().split('\n').map((line) => JSON.parse(line) as { msg: string; level: string });
    assert.deepEqual(log.filter((line) => line.level !== 'info'), [], 'nothing but info lines');
    assert.ok(log.some((line) => line.msg === 'shutting down'));
    assert.equal(log.at(-1)?.msg, 'stopped');

    // Started again on the same data: the reply cut off by the shutdown is kept, as interrupted.
    cli = await startCli(env);
    const history = (await (await fetch(`${base}/v1/conversations/${conversation.id}`, { headers })).json()) as { messages: { role: string; status: string; content: string }[] };
    const replies = history.messages.filter((m) => m.role === 'assistant');
    assert.deepEqual(replies.map((m) => [m.status, m.content]), [['interrupted', 'Once upon a time there was a quiet harbour by the sea.']]);
    cli.child.kill('SIGTERM');
  });
});
