import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Koa from 'koa';
import { ConversationReadCache, JsonRepresentation } from '../../server/edge/representation.js';
import { createSerializer } from '../../server/edge/serializer.js';
import { createUrlBuilder } from '../../server/edge/urls.js';
import { hotReads } from '../../server/http/hot-reads.js';
import { conversationRoutes } from '../../server/routes/conversation-routes.js';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as sent (compressed when `content-encoding` says so). */
  raw: Buffer;
  /** The body decoded. */
  text: string;
}

/** A request with exactly these headers (fetch would add Accept-Encoding and decode the body). */
function get(url: string, path: string, headers: Record<string, string>, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url + path, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const text = (encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, raw, text });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Headers that differ between two answers by nature: their request ids, dates and counts. */
const VARYING = new Set(['x-request-id', 'date', 'x-ratelimit-remaining', 'x-ratelimit-reset']);
const stable = (answer: Answer) => Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !VARYING.has(name)));

/**
 * The hot-read lane (server/http/hot-reads.ts) answers conversation reads without the rest of the
 * middleware. It must answer exactly what the pipeline answers — the same status, headers
 * and bytes — and take the same decisions: revocation, other accounts, session scope, writes,
 * and the rate limit counted once per request.
 */
describe('hot-read lane', () => {
  let t: TestServer;
  const requestLines: Record<string, unknown>[] = [];
  before(async () => (t = await startTestServer({ env: { READ_CACHE_TTL: '1h' }, accessLog: (line) => requestLines.push(line) })));
  after(() => t.close());

  const create = async (key = t.key) => {
    const res = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser' }, auth: key });
    assert.equal(res.status, 201);
    const { id } = (await res.json()) as { id: string };
    // Three turns: a body above the 1 KiB below which nothing is compressed.
    for (const content of ['Hello there, I am Sam.', 'What can you do for me today?', 'Tell me a joke please.']) {
      const sent = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content }, auth: key });
      assert.equal(sent.status, 200);
    }
    return id;
  };

  const variants: [string, Record<string, string>][] = [
    ['no optional headers', {}],
    ['a browser origin', { origin: 'https://shop.example' }],
    ['Accept-Encoding with brotli', { 'accept-encoding': 'gzip, deflate, br' }],
    ['Accept-Encoding gzip only', { 'accept-encoding': 'gzip' }],
    ['Accept-Encoding identity', { 'accept-encoding': 'identity' }],
    ['origin and compression', { origin: 'https://shop.example', 'accept-encoding': 'br' }],
  ];
  for (const [name, extra] of variants) {
    it(`answers a read as the pipeline does: ${name}`, async () => {
      const id = await create();
      const headers = { authorization: `Bearer ${t.key}`, ...extra };
      // An If-None-Match naming no version sends the request down the pipeline (the lane leaves
      // conditional requests to it) and changes nothing else of a 200.
      const first = await get(t.url, `/v1/conversations/${id}`, { ...headers, 'if-none-match': '"no-such-version"' });
      const second = await get(t.url, `/v1/conversations/${id}`, headers); // the lane
      assert.equal(first.status, 200, first.text);
      assert.equal(second.status, 200);
      assert.deepEqual(stable(second), stable(first));
      assert.ok(first.raw.equals(second.raw), 'the same bytes');
      assert.equal(JSON.parse(second.text).id, id);
      assert.notEqual(second.headers['x-request-id'], first.headers['x-request-id']);
      assert.match(String(second.headers['x-request-id']), /^req_/);
      if (extra['accept-encoding'] && extra['accept-encoding'] !== 'identity') {
        assert.equal(second.headers['content-encoding'], extra['accept-encoding'].includes('br') ? 'br' : 'gzip');
        assert.equal(Number(second.headers['content-length']), second.raw.length);
      }
      if (extra.origin) assert.equal(second.headers['access-control-allow-origin'], extra.origin);
    });
  }

  it('logs and counts its answers like the pipeline: route template, status, the request id the client got', async () => {
    const id = await create();
    const answer = await get(t.url, `/v1/conversations/${id}`, { authorization: `Bearer ${t.key}` });
    assert.equal(answer.status, 200);
    await new Promise((resolve) => setTimeout(resolve, 20)); // the line is written once the response has ended
    const line = requestLines.find((entry) => entry.req_id === answer.headers['x-request-id']);
    assert.deepEqual(
      { method: line?.method, path: line?.path, route: line?.route, status: line?.status },
      { method: 'GET', path: `/v1/conversations/${id}`, route: '/v1/conversations/:id', status: 200 },
    );
  });

  it('refuses a revoked key on the next request, as the pipeline does', async () => {
    const { record, key } = await t.service.accounts.createApiKey(t.accountId, { name: 'revoked soon', mode: 'test' });
    const id = await create(key);
    await get(t.url, `/v1/conversations/${id}`, { authorization: `Bearer ${key}` });
    assert.equal((await get(t.url, `/v1/conversations/${id}`, { authorization: `Bearer ${key}` })).status, 200);
    await t.service.accounts.revokeApiKey(t.accountId, record.id);
    const refused = await get(t.url, `/v1/conversations/${id}`, { authorization: `Bearer ${key}` });
    assert.equal(refused.status, 401);
    assert.match(refused.text, /revoked/);
  });

  it("answers another account's key 404 and a missing key 401, though the conversation is cached", async () => {
    const id = await create();
    await get(t.url, `/v1/conversations/${id}`, { authorization: `Bearer ${t.key}` });
    assert.equal((await get(t.url, `/v1/conversations/${id}`, { authorization: `Bearer ${t.otherKey}` })).status, 404);
    assert.equal((await get(t.url, `/v1/conversations/${id}`, { authorization: `Bearer ${t.liveKey}` })).status, 404, 'the live mode of the same account');
    assert.equal((await get(t.url, `/v1/conversations/${id}`, {})).status, 401);
  });

  it('reads a conversation that is not found once, and answers 404 as the pipeline does', async () => {
    const id = await create();
    const conversations = t.service.conversations;
    let reads = 0;
    const read = conversations.getWithMessages;
    conversations.getWithMessages = (...args) => {
      reads++;
      return read.apply(conversations, args);
    };
    try {
      const answer = await get(t.url, `/v1/conversations/${id}`, { authorization: `Bearer ${t.otherKey}` });
      assert.equal(answer.status, 404);
      assert.equal(JSON.parse(answer.text).error.code, 'not_found');
      assert.equal(reads, 1, 'the lane ran the handler; the pipeline answered its failure without a second read');
      reads = 0;
      assert.equal((await get(t.url, `/v1/conversations/${id}`, { authorization: `Bearer ${t.key}` })).status, 200);
      assert.equal(reads, 1, 'the owner, uncached: one read');
    } finally {
      conversations.getWithMessages = read;
    }
  });

  it('serves a session token its own conversation only', async () => {
    const minted = await t.request('/v1/sessions', { method: 'POST', json: {} });
    const session = (await minted.json()) as { token: string; conversation_id: string };
    const other = await create();
    await get(t.url, `/v1/conversations/${other}`, { authorization: `Bearer ${t.key}` });
    for (let i = 0; i < 2; i++) assert.equal((await get(t.url, `/v1/conversations/${session.conversation_id}`, { authorization: `Bearer ${session.token}` })).status, 200);
    assert.equal((await get(t.url, `/v1/conversations/${other}`, { authorization: `Bearer ${session.token}` })).status, 401);
  });

  it('sees a write on the next read', async () => {
    const id = await create();
    const before = await get(t.url, `/v1/conversations/${id}`, { authorization: `Bearer ${t.key}` });
    await get(t.url, `/v1/conversations/${id}`, { authorization: `Bearer ${t.key}` });
    const sent = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'One more thing' } });
    assert.equal(sent.status, 200);
    const afterWrite = await get(t.url, `/v1/conversations/${id}`, { authorization: `Bearer ${t.key}` });
    assert.equal(JSON.parse(afterWrite.text).messages.length, JSON.parse(before.text).messages.length + 2);
    assert.notEqual(afterWrite.headers.etag, before.headers.etag);
  });

  it('counts each request once against the rate limit, and answers 429 past it', async () => {
    const account = await t.service.accounts.createAccount({ email: 'limited@example.com', password: 'password-limited' });
    await t.service.accounts.setPlan(account.id, { tier: 'enterprise', requestsPerMinute: 8 });
    const { key } = await t.service.accounts.createApiKey(account.id, { name: 'limited', mode: 'test' });
    const created = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' }, auth: key });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: string };
    const remaining: number[] = [];
    for (let i = 0; i < 7; i++) {
      const answer = await get(t.url, `/v1/conversations/${id}`, { authorization: `Bearer ${key}` });
      assert.equal(answer.status, 200);
      remaining.push(Number(answer.headers['x-ratelimit-remaining']));
    }
    assert.deepEqual(remaining, [6, 5, 4, 3, 2, 1, 0], 'one count per request, cached or not');
    const refused = await get(t.url, `/v1/conversations/${id}`, { authorization: `Bearer ${key}` });
    assert.equal(refused.status, 429);
    assert.equal(JSON.parse(refused.text).error.code, 'rate_limited');
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    assert.match(String(refused.headers['x-request-id']), /^req_/);
  });
});

/**
 * The lane alone in front of a marker: which requests it answers itself, and which it hands on
 * (they reach the next middleware, i.e. the pipeline) — with the rate decision when it already
 * counted the request.
 */
describe('hot-read lane: what it answers itself', () => {
  let t: TestServer;
  let server: Server;
  let url: string;
  let handedOn: string[];
  before(async () => {
    t = await startTestServer({ env: { READ_CACHE_TTL: '1h' } });
    const serializer = createSerializer('flat');
    const cache = new ConversationReadCache({ serializer, versionOf: (id) => t.service.conversationVersions.of(id), ttlMs: 3_600_000 });
    const routes = conversationRoutes(t.service, createUrlBuilder(t.url), { serializer, cache }).map((route) => ({ prefix: '/v1', route }));
    const lane = hotReads(routes, { service: t.service, config: t.config, serializer, connections: t.host.connections });
    assert.ok(lane);
    const app = new Koa();
    app.use(lane);
    app.use((ctx) => {
      handedOn.push(`${ctx.method} ${ctx.path.replace(/conv_\w+/, ':id')} ${ctx.state.rateDecision ? 'counted' : 'not counted'}`);
      ctx.status = 204;
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  it('answers 200 reads itself, and hands on everything else, with the decision when it counted', async () => {
    const created = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } });
    const { id } = (await created.json()) as { id: string };
    const auth = { authorization: `Bearer ${t.key}` };
    handedOn = [];
    const miss = await get(url, `/v1/conversations/${id}`, auth);
    assert.equal(miss.status, 200, 'a cache miss: read through the route');
    assert.equal(JSON.parse(miss.text).id, id);
    assert.equal((await get(url, `/v1/conversations/${id}`, auth)).status, 200, 'a hit');
    assert.equal((await get(url, `/V1/Conversations/${id}`, auth)).status, 200, 'paths match regardless of case, as the router matches them');
    const page = await get(url, `/v1/conversations/${id}/messages?limit=5`, auth);
    assert.equal(page.status, 200, 'the history pages too');
    assert.deepEqual(JSON.parse(page.text), { messages: [], has_more: false });
    assert.deepEqual(handedOn, []);

    await get(url, `/v1/conversations/${id}`, { ...auth, 'if-none-match': miss.headers.etag as string });
    await get(url, `/v1/conversations/${id}`, auth, 'HEAD');
    await get(url, `/v1/conversations/${id}`, {});
    await get(url, `/v1/conversations/${id}`, { authorization: `Bearer ${t.otherKey}` });
    await get(url, `/v1/conversations/${id}/messages?limit=500`, auth);
    await get(url, `/v1/conversations/${id}/nothing`, auth);
    assert.deepEqual(handedOn, [
      'GET /v1/conversations/:id not counted',
      'HEAD /v1/conversations/:id not counted',
      'GET /v1/conversations/:id not counted',
      'GET /v1/conversations/:id counted',
      'GET /v1/conversations/:id/messages counted',
      'GET /v1/conversations/:id/nothing not counted',
    ]);
  });
});

describe('a representation compressed once', () => {
  it('keeps its brotli and gzip bytes, each decoding to its JSON', async () => {
    const representation = JsonRepresentation.of(createSerializer('flat'), { messages: Array.from({ length: 40 }, (_, i) => ({ id: i, content: 'Hello there' })) });
    const br = await representation.encoded('br');
    assert.equal(brotliDecompressSync(br).toString('utf8'), representation.json);
    assert.equal(await representation.encoded('br'), br, 'the same bytes, not compressed again');
    assert.equal(gunzipSync(await representation.encoded('gzip')).toString('utf8'), representation.json);
    assert.ok(br.length < Buffer.byteLength(representation.json) / 4);
  });
});
