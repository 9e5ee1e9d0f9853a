import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

/** Sends raw bytes and returns what the server answered before closing (or after `waitMs`). */
function raw(url: string, bytes: string, options: { waitMs?: number; localAddress?: string } = {}): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: '127.0.0.1', ...(options.localAddress && { localAddress: options.localAddress }) }, () => socket.write(bytes));
    let answer = '';
    const timer = options.waitMs ? setTimeout(() => socket.destroy(), options.waitMs) : undefined;
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.on('error', reject);
  });
}

const bodyOf = (answer: string) => answer.slice(answer.indexOf('\r\n\r\n') + 4);

describe('Edges found under attack', () => {
  let t: TestServer;
  const logged: string[] = [];
  before(async () => {
    t = await startTestServer({
      log: (message, error) => logged.push(`${message} ${error instanceof Error ? error.stack : ''}`),
      env: { DEV_BOOTSTRAP: 'true', MAX_CONNECTIONS_PER_ADDRESS: '20', HEADERS_TIMEOUT: '1s' },
    });
    await t.service.accounts.createAccount({ email: 'demo@avatar-service.local', password: 'demo-password' }).catch(() => undefined);
  });
  after(() => t.close());

  async function conversation(): Promise<string> {
    const res = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser' } });
    return ((await res.json()) as { id: string }).id;
  }

  it('refuses prototype names as body fields', async () => {
    for (const name of ['constructor', 'toString', 'valueOf', 'hasOwnProperty']) {
      const res = await t.request('/v1/conversations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"avatar_id":"luna-001","${name}":1}` });
      assert.equal(res.status, 400, name);
      assert.match(((await res.json()) as { error: { message: string } }).error.message, new RegExp(`Unknown field ${name}`));
    }
  });

  it('refuses lone surrogates instead of storing text that cannot round-trip', async () => {
    const id = await conversation();
    const res = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"content":"half \\ud800 a pair"}' });
    assert.equal(res.status, 400);
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /lone surrogate/);
    const stored = (await (await t.request(`/v1/conversations/${id}`)).json()) as { messages: unknown[] };
    assert.equal(stored.messages.length, 0);
  });

  it('refuses the NUL character (no storage engine keeps it: PostgreSQL text cannot hold it)', async () => {
    const id = await conversation();
    const res = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"content":"a \\u0000 b"}' });
    assert.equal(res.status, 400);
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /content must not contain the NUL character/);
    const stored = (await (await t.request(`/v1/conversations/${id}`)).json()) as { messages: unknown[] };
    assert.equal(stored.messages.length, 0);
  });

  it('says "must be a string" for content given as a number', async () => {
    const id = await conversation();
    const res = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 42 } });
    assert.equal(res.status, 400);
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /content must be a string/);
  });

  it('answers HEAD on audio like GET without the body', async () => {
    const res = await t.request('/v1/tts', { method: 'POST', json: { text: 'Head check.' } });
    const { audio_url: audioUrl } = (await res.json()) as { audio_url: string };
    const get = await fetch(audioUrl);
    const bytes = (await get.arrayBuffer()).byteLength;
    const head = await fetch(audioUrl, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-type'), 'audio/mpeg');
    assert.equal(Number(head.headers.get('content-length')), bytes);
  });

  it('answers oversized headers with a JSON 431', async () => {
    const answer = await raw(t.url, `GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.match(answer, /^HTTP\/1\.1 431 /);
    assert.match(answer, /content-type: application\/json/i);
    assert.equal((JSON.parse(bodyOf(answer)) as { error: { code: string } }).error.code, 'invalid_request');
  });

  it('logs nothing when a client aborts a request mid-body', async () => {
    const before = logged.length;
    const id = await conversation();
    await raw(
      t.url,
      `POST /v1/conversations/${id}/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.key}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"content":"hel`,
      { waitMs: 200 },
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(logged.slice(before), []);
  });

  it('refuses bodies nested deeper than 32 levels with 400 in the envelope style too', async () => {
    const envelope = await startTestServer({ env: { API_STYLE: 'envelope' } });
    try {
      const deep = `{"avatarId":"luna-001","x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
      const res = await envelope.request('/v1/conversations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: deep });
      assert.equal(res.status, 400);
      assert.match(((await res.json()) as { error: { message: string } }).error.message, /deeper than 32/);
    } finally {
      await envelope.close();
    }
  });

  it('limits POST /demo/session per client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 125; i++) {
      const res = await fetch(`${t.url}/demo/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      statuses.push(res.status);
      await res.arrayBuffer();
      if (res.status === 429) {
        assert.ok(Number(res.headers.get('retry-after')) >= 1);
        break;
      }
    }
    assert.equal(statuses.at(-1), 429, `statuses: ${statuses.join(',')}`);
  });

  it('caps open connections per address and closes connections that send no request, so /health keeps answering', async () => {
    // 127.0.0.2 is loopback too: the attacker's address differs from the monitor's.
    const idle = Array.from({ length: 60 }, () => raw(t.url, '', { localAddress: '127.0.0.2', waitMs: 5000 }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const health = await t.request('/v1/health', { auth: null });
    assert.equal(health.status, 200);
    const started = Date.now();
    await Promise.all(idle);
    assert.ok(Date.now() - started < 4000, 'idle connections were closed by the server (1 s headers timeout), not by the client');
  });
});
