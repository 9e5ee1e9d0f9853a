import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { io as connect } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import WebSocket from 'ws';
import type { ClientToServerEvents, ServerToClientEvents } from '../../core/index.js';
import { scriptedProvider } from '../support/scripted-provider.js';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
// Many sentences: replies are shown sentence by sentence, so a test can act after a few of them.
const REPLY = 'First sentence of a long answer. ' + Array.from({ length: 40 }, (_, i) => `Point ${i} is here.`).join(' ') + ' The end.';

describe('Realtime: socket.io and WebSocket', () => {
  let t: TestServer;
  const sockets: { close(): void }[] = [];
  before(async () => (t = await startTestServer({ aiProviders: [scriptedProvider({ reply: REPLY, delayMs: 15 })] })));
  after(async () => {
    for (const s of sockets) s.close();
    await t.close();
  });

  async function conversation(auth = t.key): Promise<string> {
    const res = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser' }, auth });
    return ((await res.json()) as { id: string }).id;
  }

  function socket(token: string): Client {
    const client: Client = connect(t.url, { path: '/v1/realtime', auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push({ close: () => client.close() });
    return client;
  }

  async function joined(token: string, conversationId: string): Promise<Client> {
    const client = socket(token);
    const ack = await client.timeout(5000).emitWithAck('join', { conversation_id: conversationId });
    assert.equal(ack.ok, true, JSON.stringify(ack));
    return client;
  }

  function collect(client: Client) {
    const events: { type: string; data: unknown }[] = [];
    for (const type of ['message', 'audio', 'state', 'done', 'error', 'conversation.ended'] as const) {
      client.on(type, (data: unknown) => events.push({ type, data }));
    }
    return events;
  }

  const until = async (check: () => boolean, what: string) => {
    for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(check(), `timed out waiting for ${what}`);
  };

  it('streams a reply to a joined socket: thinking → talking → deltas → done → idle', async () => {
    const id = await conversation();
    const client = await joined(t.key, id);
    const events = collect(client);
    const ack = await client.timeout(5000).emitWithAck('message', { content: 'hello' });
    assert.equal(ack.ok, true);
    await until(() => events.some((e) => e.type === 'state' && (e.data as { state: string }).state === 'idle'), 'idle');
    const states = events.filter((e) => e.type === 'state').map((e) => (e.data as { state: string }).state);
    assert.deepEqual(states, ['thinking', 'talking', 'idle']);
    const text = events.filter((e) => e.type === 'message').map((e) => (e.data as { delta: string }).delta).join('');
    assert.equal(text, REPLY);
    assert.ok(events.some((e) => e.type === 'done'));
  });

  it('relays a reply started over REST to sockets joined to the conversation', async () => {
    const id = await conversation();
    const client = await joined(t.key, id);
    const events = collect(client);
    const res = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'via REST' } });
    const message = (await res.json()) as { id: string; content: string };
    await until(() => events.some((e) => e.type === 'done'), 'done');
    assert.equal((events.find((e) => e.type === 'done')?.data as { id: string }).id, message.id);
    assert.equal(events.filter((e) => e.type === 'message').map((e) => (e.data as { delta: string }).delta).join(''), message.content);
  });

  it('interrupt stops the reply mid-sentence and stores what was said, marked interrupted', async () => {
    const id = await conversation();
    const client = await joined(t.key, id);
    const events = collect(client);
    client.emit('message', { content: 'talk a lot' });
    await until(() => events.filter((e) => e.type === 'message').length >= 8, 'some deltas');
    const ack = await client.timeout(5000).emitWithAck('interrupt');
    assert.deepEqual(ack, { ok: true, data: { interrupted: true } });
    const history = (await (await t.request(`/v1/conversations/${id}`)).json()) as { messages: { role: string; content: string; status?: string }[] };
    const reply = history.messages.find((m) => m.role === 'assistant')!;
    assert.equal(reply.status, 'interrupted');
    assert.ok(reply.content.length > 0 && reply.content.length < REPLY.length, `partial: ${reply.content.length} of ${REPLY.length}`);
    assert.ok(REPLY.startsWith(reply.content));
    assert.equal(t.service.conversations.isReplying(id), false);
  });

  it('a new message while talking interrupts the old reply and answers the new one (barge-in)', async () => {
    const id = await conversation();
    const client = await joined(t.key, id);
    const events = collect(client);
    client.emit('message', { content: 'first' });
    await until(() => events.filter((e) => e.type === 'message').length >= 5, 'first reply under way');
    client.emit('message', { content: 'second' });
    await until(() => events.filter((e) => e.type === 'done').length >= 2, 'both replies stored');
    const history = (await (await t.request(`/v1/conversations/${id}`)).json()) as { messages: { role: string; content: string; status?: string }[] };
    assert.deepEqual(history.messages.map((m) => [m.role, m.status ?? '-']), [
      ['user', '-'],
      ['assistant', 'interrupted'],
      ['user', '-'],
      ['assistant', 'complete'],
    ]);
    assert.equal(history.messages[3]?.content, REPLY);
  });

  it('answers a second concurrent REST send with 409 conversation_busy', async () => {
    const id = await conversation();
    const first = t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'one' } });
    await until(() => t.service.conversations.isReplying(id), 'first reply running');
    const second = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'two' } });
    assert.equal(second.status, 409);
    assert.equal(((await second.json()) as { error: { code: string } }).error.code, 'conversation_busy');
    assert.equal((await first).status, 200);
  });

  it('tells joined sockets when the conversation ends', async () => {
    const id = await conversation();
    const client = await joined(t.key, id);
    const ended = new Promise((resolve) => client.once('conversation.ended', resolve));
    await t.request(`/v1/conversations/${id}/end`, { method: 'POST' });
    assert.deepEqual(await ended, { conversation_id: id, reason: 'ended' });
  });

  it('refuses handshakes without a valid token, and joins outside the account', async () => {
    for (const token of ['', 'svc_test_' + 'x'.repeat(40), 'sess_forged.abc']) {
      const client = socket(token);
      const error = await new Promise<Error & { data?: { error: { code: string } } }>((resolve) => client.once('connect_error', resolve));
      assert.equal(error.data?.error.code, 'unauthorized', token);
    }
    const id = await conversation();
    const stranger = socket(t.otherKey);
    const ack = await stranger.timeout(5000).emitWithAck('join', { conversation_id: id });
    assert.deepEqual(ack, { ok: false, error: { code: 'not_found', message: `No conversation with id '${id}'` } });
    const unjoined = await stranger.timeout(5000).emitWithAck('message', { content: 'hi' });
    assert.equal(unjoined.ok, false);
  });

  it('carries the same events over a plain WebSocket, with JSON frames both ways', async () => {
    const id = await conversation();
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/v1/conversations/${id}/ws`, { headers: { authorization: `Bearer ${t.key}` } });
    sockets.push({ close: () => ws.terminate() });
    const frames: { type: string; data: { delta?: string } }[] = [];
    ws.on('message', (raw) => frames.push(JSON.parse(raw.toString()) as (typeof frames)[number]));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(JSON.stringify({ type: 'message', data: { content: 'over ws' } }));
    await until(() => frames.some((f) => f.type === 'done'), 'done frame');
    assert.equal(frames.filter((f) => f.type === 'message').map((f) => f.data.delta).join(''), REPLY);
    assert.deepEqual(frames.filter((f) => f.type === 'state').map((f) => (f.data as { state?: string }).state), ['thinking', 'talking', 'idle']);
    ws.send('not json');
    await until(() => frames.some((f) => f.type === 'error'), 'error frame');
  });

  it('refuses WebSocket upgrades without credentials, for unknown conversations and paths', async () => {
    const id = await conversation();
    const statusOf = (url: string, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(url, { headers });
        ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.once('open', () => {
          ws.terminate();
          resolve(101);
        });
        ws.once('error', () => undefined);
      });
    const base = t.url.replace('http', 'ws');
    assert.equal(await statusOf(`${base}/v1/conversations/${id}/ws`), 401);
    assert.equal(await statusOf(`${base}/v1/conversations/${id}/ws`, { authorization: `Bearer ${t.otherKey}` }), 404);
    assert.equal(await statusOf(`${base}/v1/nowhere`, { authorization: `Bearer ${t.key}` }), 404);
  });
  it('answers every malformed WebSocket frame with an invalid_request error frame and stays usable', async () => {
    const id = await conversation();
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/v1/conversations/${id}/ws`, { headers: { authorization: `Bearer ${t.key}` } });
    sockets.push({ close: () => ws.terminate() });
    const frames: { type: string; data: { error?: { code: string; message: string } } }[] = [];
    ws.on('message', (raw) => frames.push(JSON.parse(raw.toString()) as (typeof frames)[number]));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const hostile = ['null', '"text"', '42', '[]', '{', '{"type":null}', '{"type":"nope"}', '{"type":{"$ne":1}}', '{"__proto__":{"type":"message"}}'];
    for (const text of hostile) ws.send(text);
    ws.send(Buffer.from([0xff, 0xfe, 0x00]));
    await until(() => frames.length === hostile.length + 1, 'an error frame per malformed frame');
    for (const frame of frames) {
      assert.equal(frame.type, 'error');
      assert.equal(frame.data.error?.code, 'invalid_request', JSON.stringify(frame));
    }
    // Well-formed frames with bad content get the same error the REST API gives.
    frames.length = 0;
    ws.send(JSON.stringify({ type: 'message', data: null }));
    ws.send(JSON.stringify({ type: 'message', data: { content: 'x'.repeat(5001) } }));
    await until(() => frames.length === 2, 'two validation errors');
    assert.deepEqual(frames.map((f) => f.data.error?.code), ['invalid_request', 'invalid_request']);
    frames.length = 0;
    ws.send(JSON.stringify({ type: 'message', data: { content: 'still here?' } }));
    await until(() => frames.some((f) => f.type === 'done'), 'a reply after the bad frames');
  });

  it('acks malformed socket.io events with errors, never crashing the connection', async () => {
    const id = await conversation();
    const client = socket(t.key);
    const emit = (event: string, ...args: unknown[]) =>
      (client.timeout(5000).emitWithAck as (event: string, ...args: unknown[]) => Promise<{ ok: boolean; error?: { code: string } }>)(event, ...args);
    for (const data of [null, 'text', 42, [], { conversation_id: null }, { conversation_id: { $ne: 1 } }, { conversation_id: 'x'.repeat(10_000) }]) {
      const ack = await emit('join', data);
      assert.equal(ack.ok, false, JSON.stringify(data));
      assert.match(ack.error?.code ?? '', /^(invalid_request|not_found)$/, JSON.stringify(ack));
    }
    const early = await emit('message', { content: 'before joining' });
    assert.deepEqual([early.ok, early.error?.code], [false, 'invalid_request']);
    assert.equal((await emit('join', { conversation_id: id })).ok, true);
    for (const data of [null, 'text', { content: 42 }, { content: '' }, { content: 'x'.repeat(5001) }]) {
      const ack = await emit('message', data);
      assert.deepEqual([ack.ok, ack.error?.code], [false, 'invalid_request'], JSON.stringify(data));
    }
    // Without an acknowledgement callback the error arrives as an `error` event.
    const events = collect(client);
    (client.emit as (event: string, ...args: unknown[]) => void)('message', { content: '' }, 'not a callback');
    await until(() => events.some((e) => e.type === 'error'), 'an error event');
    (client.emit as (event: string, ...args: unknown[]) => void)('no-such-event', { x: 1 });
    const sent = await emit('message', { content: 'still connected?' });
    assert.equal(sent.ok, true, JSON.stringify(sent));
    await until(() => events.some((e) => e.type === 'done'), 'a reply after the bad events');
  });
});
