import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

interface ConversationBody {
  id: string;
  status: string;
  messages: { id: string; role: string; content: string }[];
  usage: { ai_tokens: number };
}

/**
 * The read caches (README, Caches): the principal cache and the cached conversation bodies must
 * never answer what the store would not — a revoked key is refused on the very next request, and
 * every write to a conversation or its messages is seen by the next read.
 */
describe('read caches', () => {
  let t: TestServer;
  before(async () => (t = await startTestServer({ env: { READ_CACHE_TTL: '1h' } })));
  after(() => t.close());

  const create = async (key = t.key) => {
    const res = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser' }, auth: key });
    assert.equal(res.status, 201);
    return ((await res.json()) as { id: string }).id;
  };
  const read = async (id: string, auth?: string) => {
    const res = await t.request(`/v1/conversations/${id}`, auth === undefined ? {} : { auth });
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as ConversationBody;
  };
  const send = async (id: string, content: string) => {
    const res = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content } });
    assert.equal(res.status, 200, await res.clone().text());
  };

  it('refuses a revoked API key on the very next request, though the key was just served from the cache', async () => {
    const { record, key } = await t.service.accounts.createApiKey(t.accountId, { name: 'soon revoked', mode: 'test' });
    const id = await create(key);
    // Twice: the second authentication is answered by the principal cache.
    await read(id, key);
    await read(id, key);
    await t.service.accounts.revokeApiKey(t.accountId, record.id);
    const res = await t.request(`/v1/conversations/${id}`, { auth: key });
    assert.equal(res.status, 401);
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /revoked/);
  });

  it('refuses a session on the very next request once the key that minted it is revoked', async () => {
    const { record, key } = await t.service.accounts.createApiKey(t.accountId, { name: 'minting', mode: 'test' });
    const minted = await t.request('/v1/sessions', { method: 'POST', json: {}, auth: key });
    assert.equal(minted.status, 201);
    const session = (await minted.json()) as { token: string; conversation_id: string };
    await read(session.conversation_id, session.token);
    await read(session.conversation_id, session.token);
    await t.service.accounts.revokeApiKey(t.accountId, record.id);
    const res = await t.request(`/v1/conversations/${session.conversation_id}`, { auth: session.token });
    assert.equal(res.status, 401);
  });

  it('answers If-None-Match with 304 while the conversation is unchanged, and with the new body once it changed', async () => {
    const id = await create();
    await send(id, 'Hello there');
    const first = await t.request(`/v1/conversations/${id}`);
    const etag = first.headers.get('etag');
    assert.match(etag ?? '', /^W\/"[^"]+"$/);
    const body = await first.text();

    const unchanged = await t.request(`/v1/conversations/${id}`, { headers: { 'if-none-match': etag! } });
    assert.equal(unchanged.status, 304);
    assert.equal(unchanged.headers.get('etag'), etag);
    assert.equal(await unchanged.text(), '');
    const listed = await t.request(`/v1/conversations/${id}`, { headers: { 'if-none-match': `"other", ${etag!.slice(2)}` } });
    assert.equal(listed.status, 304, 'a list of tags, compared weakly');
    const other = await t.request(`/v1/conversations/${id}`, { headers: { 'if-none-match': '"something-else"' } });
    assert.equal(other.status, 200);
    assert.equal(await other.text(), body);

    await send(id, 'Something new');
    const changed = await t.request(`/v1/conversations/${id}`, { headers: { 'if-none-match': etag! } });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.get('etag'), etag);
    assert.equal(((await changed.json()) as ConversationBody).messages.length, 4);
  });

  it('documents the ETag and the 304 of both reads in the OpenAPI document, and of no other route', async () => {
    const document = (await (await t.request('/v1/openapi.json', { auth: null })).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>;
    };
    const conditional = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).filter(([, operation]) => '304' in (operation.responses ?? {})).map(([method]) => `${method} ${path}`),
    );
    assert.deepEqual(conditional.sort(), ['get /v1/conversations/{id}', 'get /v1/conversations/{id}/messages']);
    assert.ok(document.paths['/v1/conversations/{id}']!.get!.responses['200']!.headers?.ETag);
  });

  it('answers If-None-Match with 304 on a page of the history too', async () => {
    const id = await create();
    await send(id, 'Hello there');
    const first = await t.request(`/v1/conversations/${id}/messages?limit=5`);
    const etag = first.headers.get('etag')!;
    assert.ok(etag);
    assert.equal((await t.request(`/v1/conversations/${id}/messages?limit=5`, { headers: { 'if-none-match': etag } })).status, 304);
    assert.equal((await t.request(`/v1/conversations/${id}/messages?limit=1`, { headers: { 'if-none-match': etag } })).status, 200, 'another page, another tag');
  });

  it('serves a new message, the end and the deletion of a conversation on the next read', async () => {
    const id = await create();
    assert.equal((await read(id)).messages.length, 0);
    assert.equal((await read(id)).messages.length, 0);
    await send(id, 'Hi');
    const afterMessage = await read(id);
    assert.deepEqual(afterMessage.messages.map((m) => m.role), ['user', 'assistant']);
    assert.ok(afterMessage.usage.ai_tokens > 0, 'usage added to the conversation is seen too');

    const ended = await t.request(`/v1/conversations/${id}/end`, { method: 'POST' });
    assert.equal(ended.status, 200);
    assert.equal((await read(id)).status, 'ended');

    const deleted = await t.request(`/v1/conversations/${id}`, { method: 'DELETE' });
    assert.equal(deleted.status, 200);
    assert.equal((await t.request(`/v1/conversations/${id}`)).status, 404);
  });

  it('sees writes made through the core (not HTTP), e.g. the idle time-out ending a conversation', async () => {
    const id = await create();
    await read(id);
    const owner = { accountId: t.accountId, mode: 'test' as const };
    await t.service.conversations.end(owner, id, 'timeout');
    assert.equal((await read(id)).status, 'ended');
  });

  it('never serves a cached body to another owner or mode', async () => {
    const id = await create();
    await read(id);
    assert.equal((await t.request(`/v1/conversations/${id}`, { auth: t.otherKey })).status, 404);
    assert.equal((await t.request(`/v1/conversations/${id}`, { auth: t.liveKey })).status, 404);
  });
});

describe('read caches off (READ_CACHES=false)', () => {
  let t: TestServer;
  before(async () => (t = await startTestServer({ env: { READ_CACHES: 'false' } })));
  after(() => t.close());

  it('still answers with an ETag and 304, computed per request', async () => {
    const created = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser' } });
    const { id } = (await created.json()) as { id: string };
    const first = await t.request(`/v1/conversations/${id}`);
    const etag = first.headers.get('etag')!;
    assert.equal((await t.request(`/v1/conversations/${id}`, { headers: { 'if-none-match': etag } })).status, 304);
  });
});

describe('read caches with the envelope style', () => {
  let t: TestServer;
  before(async () => (t = await startTestServer({ env: { API_STYLE: 'envelope' } })));
  after(() => t.close());

  it('wraps the cached body with the request id of each response', async () => {
    const created = await t.request('/v1/conversations', { method: 'POST', json: { avatarId: 'luna-001', ttsProvider: 'browser' } });
    assert.equal(created.status, 201, await created.clone().text());
    const { data } = (await created.json()) as { data: { id: string } };
    const bodies = [];
    for (let i = 0; i < 2; i++) {
      const res = await t.request(`/v1/conversations/${data.id}`);
      assert.equal(res.status, 200);
      bodies.push((await res.json()) as { data: { id: string; avatarId: string }; meta: { requestId: string } });
      assert.equal(bodies[i]!.meta.requestId, res.headers.get('x-request-id'));
    }
    assert.equal(bodies[0]!.data.avatarId, 'luna-001');
    assert.deepEqual(bodies[0]!.data, bodies[1]!.data);
    assert.notEqual(bodies[0]!.meta.requestId, bodies[1]!.meta.requestId);
  });
});
