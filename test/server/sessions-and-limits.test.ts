import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { io as connect } from 'socket.io-client';
import WebSocket from 'ws';
import { signSessionToken } from '../../core/sessions/session-token.js';
import { scriptedProvider } from '../support/scripted-provider.js';
import { readSse } from '../support/sse-client.js';
import { DEMO_EMAIL } from '../../server/dev-bootstrap.js';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

const REPLY = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} is here.`).join(' ');

describe('Browser session tokens', () => {
  let t: TestServer;
  before(async () => (t = await startTestServer({ aiProviders: [scriptedProvider({ reply: 'Hello from the avatar. Nice to meet you.' })] })));
  after(() => t.close());

  async function session(body: Record<string, unknown> = {}) {
    const res = await t.request('/v1/sessions', { method: 'POST', json: { avatar_id: 'maya-005', ...body } });
    assert.equal(res.status, 201);
    return (await res.json()) as { token: string; expires_at: string; conversation_id: string };
  }

  it('mints a session for a new conversation that works on that conversation only', async () => {
    const { token, expires_at, conversation_id } = await session({ ttl_s: 600 });
    assert.match(token, /^sess_/);
    const ttl = Date.parse(expires_at) - Date.now();
    assert.ok(ttl > 590_000 && ttl <= 600_000);
    const conversation = (await (await t.request(`/v1/conversations/${conversation_id}`, { auth: token })).json()) as { avatar_id: string };
    assert.equal(conversation.avatar_id, 'maya-005');
    const sent = await t.request(`/v1/conversations/${conversation_id}/messages`, { method: 'POST', json: { content: 'hi', stream: true }, auth: token });
    const events = await readSse(sent);
    assert.equal(events.at(-1)?.event, 'done');

    const other = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } });
    const otherId = ((await other.json()) as { id: string }).id;
    const wrongScope = await t.request(`/v1/conversations/${otherId}`, { auth: token });
    assert.equal(wrongScope.status, 401);
    assert.match(((await wrongScope.json()) as { error: { message: string } }).error.message, /another conversation/);
    for (const [path, method] of [['/v1/conversations', 'POST'], ['/v1/sessions', 'POST'], [`/v1/conversations/${conversation_id}`, 'DELETE'], ['/v1/api-keys', 'GET']] as const) {
      const res = await t.request(path, { method, auth: token, ...(method === 'POST' && { json: { avatar_id: 'luna-001' } }) });
      assert.equal(res.status, 401, `${method} ${path}`);
    }
  });

  it('refuses expired and forged tokens on REST, socket.io and WebSocket', async () => {
    const { conversation_id, token } = await session();
    const expired = signSessionToken({ a: t.accountId, m: 'test', c: conversation_id, e: Math.floor(Date.now() / 1000) - 5, n: 'x' }, t.config.jwtSecret);
    const forged = signSessionToken({ a: t.accountId, m: 'test', c: conversation_id, e: Math.floor(Date.now() / 1000) + 600, n: 'x' }, 'not-the-secret');
    for (const bad of [expired, forged, token.slice(0, -2) + 'xx']) {
      assert.equal((await t.request(`/v1/conversations/${conversation_id}`, { auth: bad })).status, 401);
      const client = connect(t.url, { path: '/v1/realtime', auth: { token: bad }, transports: ['websocket'], reconnection: false, forceNew: true });
      const error = await new Promise<{ data?: { error: { code: string } } }>((resolve) => client.once('connect_error', resolve));
      client.close();
      assert.equal(error.data?.error.code, 'unauthorized');
      const status = await new Promise<number>((resolve) => {
        const ws = new WebSocket(`${t.url.replace('http', 'ws')}/v1/conversations/${conversation_id}/ws?token=${encodeURIComponent(bad)}`);
        ws.once('unexpected-response', (_q, res) => resolve(res.statusCode ?? 0));
        ws.once('open', () => (ws.terminate(), resolve(101)));
        ws.once('error', () => undefined);
      });
      assert.equal(status, 401);
    }
  });

  it('lets a browser open the WebSocket with ?token= and socket.io join only its conversation', async () => {
    const { conversation_id, token } = await session();
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/v1/conversations/${conversation_id}/ws?token=${encodeURIComponent(token)}`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.terminate();
    const client = connect(t.url, { path: '/v1/realtime', auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    try {
      assert.equal((await client.timeout(5000).emitWithAck('join', { conversation_id })).ok, true);
      const other = await session();
      const refused = await client.timeout(5000).emitWithAck('join', { conversation_id: other.conversation_id });
      assert.equal(refused.ok, false);
    } finally {
      client.close();
    }
  });

  it('validates ttl_s and unknown conversations', async () => {
    assert.equal((await t.request('/v1/sessions', { method: 'POST', json: { ttl_s: 5 } })).status, 400);
    assert.equal((await t.request('/v1/sessions', { method: 'POST', json: { conversation_id: 'conv_00000000000000000000000000' } })).status, 404);
    assert.equal((await t.request('/v1/sessions', { method: 'POST', json: { ttl_s: '600' } })).status, 400, 'a number in a string is not an integer');
    const existing = await session();
    const both = await t.request('/v1/sessions', { method: 'POST', json: { conversation_id: existing.conversation_id, avatar_id: 'luna-001' } });
    assert.equal(both.status, 400);
    assert.match(((await both.json()) as { error: { message: string } }).error.message, /not both/);
  });
});

describe('Connection limits and disconnects', () => {
  let t: TestServer;
  let freeAccount: string;
  before(async () => {
    t = await startTestServer({ aiProviders: [scriptedProvider({ reply: REPLY, delayMs: 10 })] });
    freeAccount = (await t.service.accounts.findAccountByEmail('b@example.com')).id;
  });
  after(() => t.close());

  const until = async (check: () => Promise<boolean>, what: string) => {
    for (let i = 0; i < 300; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.fail(`timed out waiting for ${what}`);
  };

  it('counts sockets and SSE streams per account and frees slots when connections drop abruptly', async () => {
    // The free tier allows 2 concurrent connections.
    const open = () => connect(t.url, { path: '/v1/realtime', auth: { token: t.otherKey }, transports: ['websocket'], reconnection: false, forceNew: true });
    const first = open();
    await new Promise<void>((resolve) => first.once('connect', () => resolve()));
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/v1/conversations/${(await (await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser' }, auth: t.otherKey })).json() as { id: string }).id}/ws`, { headers: { authorization: `Bearer ${t.otherKey}` } });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    assert.equal(await t.service.limits.openConnections(freeAccount), 2);

    const third = open();
    const refused = await new Promise<{ data?: { error: { code: string } } }>((resolve) => third.once('connect_error', resolve));
    assert.equal(refused.data?.error.code, 'too_many_connections');
    third.close();

    // Abrupt drops: the TCP socket is destroyed without a close handshake.
    (first.io.engine as unknown as { transport: { ws: { _socket: { destroy(): void } } } }).transport.ws._socket.destroy();
    (ws as unknown as { _socket: { destroy(): void } })._socket.destroy();
    await until(async () => (await t.service.limits.openConnections(freeAccount)) === 0, 'slots freed');
    first.close();
  });

  it('a client leaving mid-stream cancels the reply, keeps what was said as interrupted, frees its slot', async () => {
    const created = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser' } });
    const { id } = (await created.json()) as { id: string };
    const controller = new AbortController();
    const res = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'talk', stream: true }, signal: controller.signal });
    let deltas = 0;
    await readSse(res, (event) => {
      if (event.event === 'message' && ++deltas === 10) {
        controller.abort();
        return 'stop';
      }
    }).catch(() => undefined);
    await until(async () => !t.service.conversations.isReplying(id), 'reply stopped');
    const history = (await (await t.request(`/v1/conversations/${id}`)).json()) as { messages: { role: string; content: string; status?: string }[] };
    const reply = history.messages.find((m) => m.role === 'assistant')!;
    assert.equal(reply.status, 'interrupted');
    assert.ok(reply.content.length < REPLY.length / 2, `stopped early: ${reply.content.length} of ${REPLY.length} characters`);
    await until(async () => (await t.service.limits.openConnections(t.accountId)) === 0, 'stream slot freed');
  });
});

describe('CORS and allowed origins', () => {
  let t: TestServer;
  let restricted: string;
  before(async () => {
    t = await startTestServer({ aiProviders: [scriptedProvider({ reply: 'Hi there, friend.' })] });
    restricted = (await t.service.accounts.createApiKey(t.accountId, { name: 'shop widget', mode: 'test', allowedOrigins: ['https://Shop.example.com/'] })).key;
  });
  after(() => t.close());

  it('answers preflights and exposes the request id and rate-limit headers', async () => {
    const preflight = await t.request('/v1/conversations', {
      method: 'OPTIONS',
      auth: null,
      headers: { origin: 'https://any.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://any.example');
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /Authorization/);
    const res = await t.request('/v1/avatars', { headers: { origin: 'https://any.example' } });
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://any.example');
    assert.match(res.headers.get('access-control-expose-headers') ?? '', /X-Request-Id.*X-RateLimit-Remaining/);
    assert.ok(Number(res.headers.get('x-ratelimit-remaining')) >= 0);
  });

  it('enforces a key\'s allowed origins on REST, sessions minted with it, and realtime handshakes', async () => {
    const create = (origin?: string) =>
      t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser' }, auth: restricted, ...(origin && { headers: { origin } }) });
    assert.equal((await create('https://shop.example.com')).status, 201);
    assert.equal((await create()).status, 201, 'server-to-server calls carry no Origin');
    const refused = await create('https://evil.example');
    assert.equal(refused.status, 401);
    assert.match(((await refused.json()) as { error: { message: string } }).error.message, /Origin https:\/\/evil.example is not allowed/);

    const session = (await (await t.request('/v1/sessions', { method: 'POST', json: {}, auth: restricted })).json()) as { token: string; conversation_id: string };
    const read = (origin: string) => t.request(`/v1/conversations/${session.conversation_id}`, { auth: session.token, headers: { origin } });
    assert.equal((await read('https://shop.example.com')).status, 200);
    assert.equal((await read('https://evil.example')).status, 401);

    const client = connect(t.url, { path: '/v1/realtime', auth: { token: session.token }, transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: { origin: 'https://evil.example' } });
    const error = await new Promise<{ data?: { error: { code: string } } }>((resolve) => client.once('connect_error', resolve));
    client.close();
    assert.equal(error.data?.error.code, 'unauthorized');
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${t.url.replace('http', 'ws')}/v1/conversations/${session.conversation_id}/ws?token=${encodeURIComponent(session.token)}`, { headers: { origin: 'https://evil.example' } });
      ws.once('unexpected-response', (_q, res) => resolve(res.statusCode ?? 0));
      ws.once('open', () => (ws.terminate(), resolve(101)));
      ws.once('error', () => undefined);
    });
    assert.equal(status, 401);
  });

  it('rejects malformed origins when creating a key', async () => {
    await assert.rejects(t.service.accounts.createApiKey(t.accountId, { name: 'x', mode: 'test', allowedOrigins: ['shop.example.com/path'] }), /not an origin/);
  });
});

describe('Demo sessions (DEV_BOOTSTRAP)', () => {
  it('mints a session for a new demo conversation and renews it for the same conversation; absent when bootstrap is off', async () => {
    const demo = await startTestServer({ env: { DEV_BOOTSTRAP: 'true' } });
    try {
      await demo.service.accounts.createAccount({ email: DEMO_EMAIL, password: 'demo-password' });
      const post = (json: unknown) => demo.request('/demo/session', { method: 'POST', json, auth: null });
      const first = await post({ avatar_id: 'maya-005' });
      assert.equal(first.status, 201);
      const session = (await first.json()) as { token: string; conversation_id: string; expires_at: string };
      assert.match(session.token, /^sess_/);
      const renewed = (await (await post({ conversation_id: session.conversation_id })).json()) as { token: string; conversation_id: string };
      assert.equal(renewed.conversation_id, session.conversation_id);
      assert.notEqual(renewed.token, session.token);
      const read = await demo.request(`/v1/conversations/${session.conversation_id}`, { auth: renewed.token });
      assert.equal(read.status, 200);
      assert.equal(((await read.json()) as { avatar_id: string }).avatar_id, 'maya-005');
      assert.equal((await post({ conversation_id: 'conv_00000000000000000000000000' })).status, 404);

      // The body the widget sends with tts-provider (README, The widget), as POST /v1/sessions takes it.
      const choices = await post({ avatar_id: 'luna-001', persona_id: 'edu-math-tutor', tts_provider: 'browser' });
      assert.equal(choices.status, 201);
      const chosen = (await choices.json()) as { token: string; conversation_id: string };
      const conversation = (await (await demo.request(`/v1/conversations/${chosen.conversation_id}`, { auth: chosen.token })).json()) as {
        persona_id: string;
        config: { tts_provider: string };
      };
      assert.equal(conversation.persona_id, 'edu-math-tutor');
      assert.equal(conversation.config.tts_provider, 'browser');
      const refused = await post({ tts_provider: 'robot' });
      assert.equal(refused.status, 400);
      assert.match(((await refused.json()) as { error: { message: string } }).error.message, /tts_provider/);
    } finally {
      await demo.close();
    }
    const off = await startTestServer();
    try {
      assert.equal((await off.request('/demo/session', { method: 'POST', json: {}, auth: null })).status, 404);
    } finally {
      await off.close();
    }
  });
});
