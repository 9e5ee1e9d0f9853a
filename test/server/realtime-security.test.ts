import assert from 'node:assert/strict';
import { connect as tcpConnect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { io as connectIo } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import WebSocket from 'ws';
import type { ClientToServerEvents, ServerToClientEvents } from '../../core/index.js';
import { signSessionToken } from '../../core/sessions/session-token.js';
import { readSse } from '../support/sse-client.js';
import { scriptedProvider } from '../support/scripted-provider.js';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
/**
 * A reply long enough (80 words, ≈ 4 s) for a test to act while it streams, in short sentences:
 * replies are shown sentence by sentence, so a test can act after a few of them.
 */
const LONG_REPLY = Array.from({ length: 20 }, (_, i) => `Part ${i} of it.`).join(' ');

/**
 * The realtime doors hold the same rules as REST: connection slots released on every exit path,
 * handshakes and messages rate-limited, credentials re-checked on open connections.
 */
describe('Realtime security: slots, rate limits, revocation, expiry', () => {
  let t: TestServer;
  let freeAccountId: string;
  const closers: (() => void)[] = [];
  before(async () => {
    t = await startTestServer({ aiProviders: [scriptedProvider({ reply: LONG_REPLY, delayMs: 50 })] });
    freeAccountId = (await t.service.accounts.findAccountByEmail('b@example.com')).id; // free tier: 10 rpm, 2 connections
  });
  after(async () => {
    for (const close of closers) close();
    await t.close();
  });

  async function conversation(auth: string): Promise<string> {
    const res = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser' }, auth });
    assert.equal(res.status, 201, await res.clone().text());
    return ((await res.json()) as { id: string }).id;
  }

  async function session(auth: string, conversationId: string): Promise<string> {
    const res = await t.request('/v1/sessions', { method: 'POST', json: { conversation_id: conversationId }, auth });
    assert.equal(res.status, 201, await res.clone().text());
    return ((await res.json()) as { token: string }).token;
  }

  /** A new free-tier account (10 requests a minute) with a test key, so each test has its own rate window. */
  let accounts = 0;
  async function freeAccount(): Promise<string> {
    const account = await t.service.accounts.createAccount({ email: `free${++accounts}@example.com`, password: 'password-free' });
    return (await t.service.accounts.createApiKey(account.id, { name: 'free', mode: 'test' })).key;
  }

  /** A fresh key of account A (pro tier), so revoking it leaves the shared keys alone. */
  async function freshKey(): Promise<{ id: string; key: string }> {
    const { record, key } = await t.service.accounts.createApiKey(t.accountId, { name: 'revocable', mode: 'test' });
    return { id: record.id, key };
  }

  function wsUrl(conversationId: string, token?: string): string {
    return `${t.url.replace('http', 'ws')}/v1/conversations/${conversationId}/ws${token ? `?token=${encodeURIComponent(token)}` : ''}`;
  }

  interface OpenWs {
    ws: WebSocket;
    frames: { type: string; data: { error?: { code: string; retry_after_s?: number } } }[];
    closed: Promise<number>;
  }

  /** Session tokens travel in the query (as browsers send them), API keys in the header. */
  async function openWs(conversationId: string, token: string): Promise<OpenWs> {
    const ws = token.startsWith('sess_')
      ? new WebSocket(wsUrl(conversationId, token))
      : new WebSocket(wsUrl(conversationId), { headers: { authorization: `Bearer ${token}` } });
    ws.on('error', () => undefined);
    closers.push(() => ws.terminate());
    const frames: OpenWs['frames'] = [];
    ws.on('message', (raw) => frames.push(JSON.parse(raw.toString()) as OpenWs['frames'][number]));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('unexpected-response', (_q, res) => reject(new Error(`HTTP ${res.statusCode}`))));
    return { ws, frames, closed };
  }

  function socketIo(token: string): Client {
    const client: Client = connectIo(t.url, { path: '/v1/realtime', auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    closers.push(() => client.close());
    return client;
  }

  async function connected(client: Client): Promise<void> {
    await new Promise<void>((resolve, reject) => client.once('connect', resolve).once('connect_error', reject));
  }

  const until = async (check: () => boolean | Promise<boolean>, what: string, ms = 8000) => {
    const end = Date.now() + ms;
    while (!(await check()) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    assert.ok(await check(), `timed out waiting for ${what}`);
  };

  /** Sends a raw upgrade request and returns the status line and headers the server answered. */
  function rawUpgrade(path: string, headers: Record<string, string>): Promise<string> {
    const { port } = new URL(t.url);
    return new Promise((resolve, reject) => {
      const socket = tcpConnect(Number(port), '127.0.0.1', () => {
        socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`);
      });
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });
  }

  it('failed WebSocket upgrades never keep a connection slot', async () => {
    const id = await conversation(t.otherKey);
    const token = await session(t.otherKey, id);
    const path = `/v1/conversations/${id}/ws?token=${encodeURIComponent(token)}`;
    for (let i = 0; i < 5; i++) {
      const bad = await rawUpgrade(path, { 'Sec-WebSocket-Version': '12', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==' });
      assert.match(bad, /^HTTP\/1\.1 400 /);
      const noKey = await rawUpgrade(path, { 'Sec-WebSocket-Version': '13' });
      assert.match(noKey, /^HTTP\/1\.1 400 /);
    }
    assert.equal(await t.service.limits.openConnections(freeAccountId), 0);
    // The free tier's two slots are both still there.
    const first = await openWs(id, token);
    const second = await openWs(id, token);
    assert.equal(await t.service.limits.openConnections(freeAccountId), 2);
    first.ws.close();
    second.ws.terminate();
    await Promise.all([first.closed, second.closed]);
    await until(async () => (await t.service.limits.openConnections(freeAccountId)) === 0, 'slots released');
  });

  it('a client that leaves during the handshake releases its slot', async () => {
    const id = await conversation(t.otherKey);
    const token = await session(t.otherKey, id);
    for (let i = 0; i < 10; i++) {
      const ws = new WebSocket(wsUrl(id, token));
      ws.on('error', () => undefined);
      setImmediate(() => ws.terminate());
      await new Promise((resolve) => ws.once('close', resolve));
    }
    await until(async () => (await t.service.limits.openConnections(freeAccountId)) === 0, 'slots released after abandoned handshakes');
  });

  it('counts WebSocket and socket.io messages and handshakes against the account rate limit', async () => {
    const key = await freeAccount();
    const id = await conversation(key); // request 1 of 10
    const ws = await openWs(id, key); // 2
    for (let i = 0; i < 10; i++) ws.ws.send(JSON.stringify({ type: 'interrupt' })); // 3…10 pass, then refused
    await until(() => ws.frames.some((f) => f.data.error?.code === 'rate_limited'), 'a rate_limited frame');
    const refused = ws.frames.find((f) => f.data.error?.code === 'rate_limited')!;
    assert.ok((refused.data.error!.retry_after_s ?? 0) >= 1, 'the frame says when to retry');

    // Handshakes of the exhausted account are refused too, with Retry-After on the WebSocket.
    const upgrade = await rawUpgrade(`/v1/conversations/${id}/ws`, {
      Authorization: `Bearer ${key}`,
      'Sec-WebSocket-Version': '13',
      'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
    });
    assert.match(upgrade, /^HTTP\/1\.1 429 /);
    assert.match(upgrade, /\r\nRetry-After: \d+\r\n/i);
    const client = socketIo(key);
    const error = await new Promise<Error & { data?: { error: { code: string } } }>((resolve) => client.once('connect_error', resolve));
    assert.equal(error.data?.error.code, 'rate_limited');
    ws.ws.terminate();
  });

  it('socket.io events over the limit get rate_limited, not replies', async () => {
    const key = await freeAccount();
    const client = socketIo(key); // request 1 of 10
    await connected(client);
    const answers: string[] = [];
    for (let i = 0; i < 12; i++) {
      const ack = await client.timeout(5000).emitWithAck('interrupt');
      answers.push(ack.ok ? 'ok' : ack.error.code);
    }
    // Nine events pass (not joined: invalid_request), then the limit answers.
    assert.deepEqual(answers, [...Array(9).fill('invalid_request'), 'rate_limited', 'rate_limited', 'rate_limited']);
    client.close();
  });

  it('revoking a key ends its open WebSocket, socket.io and SSE connections and its sessions', async () => {
    const { id: keyId, key } = await freshKey();
    const id = await conversation(key);
    const token = await session(key, id);
    const ws = await openWs(id, key);
    const sessionWs = await openWs(id, token);
    const client = socketIo(key);
    await connected(client);
    const ioErrors: { error: { code: string } }[] = [];
    client.on('error', (payload) => ioErrors.push(payload as { error: { code: string } }));
    const ioGone = new Promise<string>((resolve) => client.once('disconnect', (reason) => resolve(reason)));

    const sse = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'a long one please', stream: true }, auth: key });
    assert.equal(sse.status, 200);
    let deltas = 0;
    const sseEvents = readSse(sse, (event) => void (event.event === 'message' && deltas++));
    await until(() => deltas > 2, 'the SSE reply to start');

    await t.service.accounts.revokeApiKey(t.accountId, keyId);

    assert.equal(await ws.closed, 4401);
    assert.equal(ws.frames.at(-1)?.data.error?.code, 'unauthorized');
    assert.equal(await sessionWs.closed, 4401, 'a session minted by the key ends with it');
    assert.equal(await ioGone, 'io server disconnect');
    assert.equal(ioErrors[0]?.error.code, 'unauthorized');
    const events = await sseEvents;
    assert.equal(events.at(-1)?.event, 'error');
    assert.equal((events.at(-1)?.data as { error: { code: string } }).error.code, 'unauthorized');
    assert.ok(!events.some((e) => e.event === 'done'), 'the reply did not run to its end');

    // The session token is refused everywhere from now on.
    assert.equal((await t.request(`/v1/conversations/${id}`, { auth: token })).status, 401);
    await assert.rejects(openWs(id, token), /HTTP 401/);
    await until(async () => !t.service.conversations.isReplying(id), 'the reply to stop');
    const stored = (await (await t.request(`/v1/conversations/${id}`)).json()) as { messages: { role: string; status?: string }[] };
    assert.equal(stored.messages.at(-1)?.status, 'interrupted', 'what was said is kept');
  });

  it('an expired session ends its open WebSocket', async () => {
    const id = await conversation(t.key);
    const exp = Math.floor(Date.now() / 1000) + 2;
    const token = signSessionToken({ a: t.accountId, m: 'test', c: id, e: exp, n: 'expiring' }, t.config.jwtSecret);
    const ws = await openWs(id, token);
    const started = Date.now();
    assert.equal(await ws.closed, 4401);
    assert.ok(Date.now() - started < 5000, 'closed at expiry, not at a later periodic check');
    assert.equal(ws.frames.at(-1)?.data.error?.code, 'unauthorized');
  });

  it('refuses an API key in the token query parameter (it would end up in logs)', async () => {
    const id = await conversation(t.key);
    const answer = await rawUpgrade(`/v1/conversations/${id}/ws?token=${encodeURIComponent(t.key)}`, {
      'Sec-WebSocket-Version': '13',
      'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
    });
    assert.match(answer, /^HTTP\/1\.1 401 /);
    assert.match(answer, /Authorization header/);
  });

  it('refuses every credential but a session token in the query string, on both transports', async () => {
    const id = await conversation(t.key);
    const { token: accountToken } = await t.service.accounts.issueToken(t.accountId);
    for (const credential of [accountToken, t.liveKey, `Bearer ${t.key}`]) {
      const answer = await rawUpgrade(`/v1/conversations/${id}/ws?token=${encodeURIComponent(credential)}`, {
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
      });
      assert.match(answer, /^HTTP\/1\.1 401 /, credential.slice(0, 12));
      assert.match(answer, /refused in URLs/);
    }
    // socket.io takes its credential from auth or a header; one in the URL is refused by name, not ignored.
    const socket = connectIo(t.url, { path: '/v1/realtime', query: { token: t.key }, auth: { token: t.key }, transports: ['websocket'], reconnection: false });
    try {
      const error = await new Promise<Error & { data?: { error: { code: string; message: string } } }>((resolve, reject) => {
        socket.once('connect_error', resolve);
        socket.once('connect', () => reject(new Error('connected with a key in the URL')));
      });
      assert.equal(error.data?.error.code, 'unauthorized');
      assert.match(error.data?.error.message ?? '', /refused in URLs.*auth: \{ token \}/);
    } finally {
      socket.disconnect();
    }
  });

  it('revoking a key stops the reply its WebSocket started, keeping what was said', async () => {
    const { id: keyId, key } = await freshKey();
    const id = await conversation(key);
    const ws = await openWs(id, key);
    const deltas = () => ws.frames.filter((f) => f.type === 'message').length;
    ws.ws.send(JSON.stringify({ type: 'message', data: { content: 'tell me everything' } }));
    await until(() => deltas() > 2, 'the reply to start');
    await t.service.accounts.revokeApiKey(t.accountId, keyId);
    assert.equal(await ws.closed, 4401);
    await until(() => !t.service.conversations.isReplying(id), 'the reply to stop');
    const stored = (await (await t.request(`/v1/conversations/${id}`)).json()) as { messages: { role: string; status?: string }[] };
    assert.equal(stored.messages.at(-1)?.role, 'assistant');
    assert.equal(stored.messages.at(-1)?.status, 'interrupted');
  });

  it('rejects realtime content that is not a string with a clear message', async () => {
    const id = await conversation(t.key);
    const ws = await openWs(id, t.key);
    ws.ws.send(JSON.stringify({ type: 'message', data: { content: 42 } }));
    await until(() => ws.frames.some((f) => f.type === 'error'), 'an error frame');
    const frame = ws.frames.find((f) => f.type === 'error')! as unknown as { data: { error: { code: string; message: string } } };
    assert.equal(frame.data.error.code, 'invalid_request');
    assert.match(frame.data.error.message, /data\.content must be a string/);
    ws.ws.terminate();
  });
});
