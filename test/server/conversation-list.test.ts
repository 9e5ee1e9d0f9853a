import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

interface Summary {
  id: string;
  avatar_id: string;
  persona_id: string | null;
  mode: 'live' | 'test';
  status: 'active' | 'escalated' | 'ended';
  created_at: string;
  ended_at: string | null;
  message_count: number;
  escalated: boolean;
}
interface List {
  conversations: Summary[];
  has_more: boolean;
}

describe('GET /v1/conversations', () => {
  let t: TestServer;
  let jwt: string;
  /** Account A's test conversations in the order created. */
  const made: string[] = [];
  let live: string;
  let ended: string;
  let escalated: string;
  let talked: string;

  const list = async (query: string, auth: string = jwt): Promise<List> => {
    const res = await t.request(`/v1/conversations${query}`, { auth });
    assert.equal(res.status, 200, `${query}: ${res.status}`);
    return (await res.json()) as List;
  };
  const create = async (json: object, auth = t.key): Promise<string> => {
    const res = await t.request('/v1/conversations', { method: 'POST', json, auth });
    assert.equal(res.status, 201);
    return ((await res.json()) as { id: string }).id;
  };

  before(async () => {
    t = await startTestServer();
    jwt = (await t.service.accounts.issueToken(t.accountId)).token;
    for (let i = 0; i < 5; i++) made.push(await create({ avatar_id: i % 2 === 0 ? 'luna-001' : 'atlas-002' }));
    talked = made[0]!;
    assert.equal((await t.request(`/v1/conversations/${talked}/messages`, { method: 'POST', json: { content: 'Hello there' } })).status, 200);
    ended = made[1]!;
    assert.equal((await t.request(`/v1/conversations/${ended}/end`, { method: 'POST' })).status, 200);
    escalated = made[2]!;
    const handOff = await t.request(`/v1/conversations/${escalated}/messages`, { method: 'POST', json: { content: 'I want to talk to a real person please' } });
    assert.equal(handOff.status, 200);
    live = await create({ avatar_id: 'luna-001', persona_id: 'support-saas-helpdesk' }, t.liveKey);
    await create({ avatar_id: 'luna-001' }, t.otherKey);
  });
  after(() => t.close());

  it('lists the account, newest first, as {conversations, has_more} with summaries', async () => {
    const page = await list('');
    assert.deepEqual(Object.keys(page).sort(), ['conversations', 'has_more']);
    assert.equal(page.has_more, false);
    assert.deepEqual(
      page.conversations.map((c) => c.id),
      [live, ...[...made].reverse()],
      'an account token sees both modes, never account B',
    );
    const byId = new Map(page.conversations.map((c) => [c.id, c]));
    assert.deepEqual(byId.get(live), { ...byId.get(live)!, mode: 'live', persona_id: 'support-saas-helpdesk', avatar_id: 'luna-001', status: 'active', message_count: 0 });
    assert.equal(byId.get(talked)!.message_count, 2, 'the message and its reply');
    assert.equal(byId.get(ended)!.status, 'ended');
    assert.ok(Date.parse(byId.get(ended)!.ended_at!) >= Date.parse(byId.get(ended)!.created_at));
    assert.deepEqual([byId.get(escalated)!.status, byId.get(escalated)!.escalated], ['escalated', true]);
    assert.deepEqual(
      page.conversations.filter((c) => c.escalated).map((c) => c.id),
      [escalated],
    );
  });

  it('an API key sees its own mode only; another mode is a 400', async () => {
    assert.deepEqual((await list('', t.key)).conversations.map((c) => c.id), [...made].reverse());
    assert.deepEqual((await list('', t.liveKey)).conversations.map((c) => c.id), [live]);
    assert.deepEqual((await list('?mode=live')).conversations.map((c) => c.id), [live], 'an account token may pick a mode');
    const res = await t.request('/v1/conversations?mode=live', { auth: t.key });
    assert.equal(res.status, 400);
  });

  it('pages with limit and starting_after exactly through the whole list', async () => {
    const all = (await list('')).conversations.map((c) => c.id);
    const seen: string[] = [];
    let cursor = '';
    for (;;) {
      const page = await list(`?limit=2${cursor && `&starting_after=${cursor}`}`);
      assert.ok(page.conversations.length <= 2);
      seen.push(...page.conversations.map((c) => c.id));
      if (!page.has_more) break;
      cursor = page.conversations.at(-1)!.id;
    }
    assert.deepEqual(seen, all);
    assert.equal((await list('?limit=6')).has_more, false);
    assert.equal((await list('?limit=5')).has_more, true);
  });

  it('filters by status, escalation, avatar and creation time', async () => {
    const ids = async (query: string) => (await list(query, t.key)).conversations.map((c) => c.id);
    assert.deepEqual(await ids('?status=ended'), [ended]);
    assert.deepEqual(await ids('?status=active'), [...made].reverse().filter((id) => id !== ended), 'active includes escalated');
    assert.deepEqual(await ids('?escalated=true'), [escalated]);
    assert.deepEqual(await ids('?status=active&escalated=false'), [...made].reverse().filter((id) => id !== ended && id !== escalated));
    assert.deepEqual(await ids('?avatar_id=atlas-002'), [made[3]!, made[1]!]);
    assert.deepEqual(await ids('?avatar_id=atlas-002&status=active'), [made[3]!]);
    const all = (await list('', t.key)).conversations;
    const pivot = Date.parse(all.find((c) => c.id === made[2])!.created_at);
    const after = await ids(`?created_after=${new Date(pivot).toISOString()}`);
    const before = await ids(`?created_before=${new Date(pivot).toISOString()}`);
    for (const id of after) assert.ok(Date.parse(all.find((c) => c.id === id)!.created_at) > pivot);
    for (const id of before) assert.ok(Date.parse(all.find((c) => c.id === id)!.created_at) < pivot);
    assert.ok(!after.includes(made[2]!) && !before.includes(made[2]!), 'both bounds are exclusive');
    const today = new Date().toISOString().slice(0, 10);
    assert.equal((await ids(`?created_before=${today}`)).length, 0, 'a bare date is midnight UTC');
    assert.equal((await ids(`?created_after=${today}`)).length, made.length);
    assert.deepEqual(await ids('?avatar_id=nobody-001'), []);
  });

  it('refuses a cursor outside the list, bad filters, session tokens and no credential', async () => {
    const foreign = (await list('', t.otherKey)).conversations[0]!.id;
    for (const query of [
      `?starting_after=${foreign}`,
      `?starting_after=${live}`,
      '?starting_after=conv_00000000000000000000000000',
      '?starting_after=nope',
      '?limit=0',
      '?limit=101',
      '?status=escalated',
      '?created_after=yesterday',
      '?created_after=2026-02-30T00:00:00Z',
      '?created_after=2026-03-01&created_before=2026-02-01',
      '?avatar_id=Not An Id',
    ]) {
      const res = await t.request(`/v1/conversations${query}`, { auth: t.key });
      assert.equal(res.status, 400, query);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'invalid_request', query);
    }
    const session = (await (await t.request('/v1/sessions', { method: 'POST', json: { conversation_id: made[0] } })).json()) as { token: string };
    assert.equal((await t.request('/v1/conversations', { auth: session.token })).status, 401);
    assert.equal((await t.request('/v1/conversations', { auth: null })).status, 401);
  });

  it('is in the OpenAPI document with its schema', async () => {
    const doc = (await (await t.request('/v1/openapi.json', { auth: null })).json()) as { paths: Record<string, Record<string, { parameters?: { name: string }[] }>> };
    const op = doc.paths['/v1/conversations']?.get;
    assert.ok(op, 'GET /v1/conversations documented');
    assert.deepEqual(
      op.parameters?.map((p) => p.name).sort(),
      ['avatar_id', 'created_after', 'created_before', 'escalated', 'limit', 'mode', 'starting_after', 'status'],
    );
  });
});

describe('GET /v1/conversations in the envelope style', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ env: { API_STYLE: 'envelope' } });
  });
  after(() => t.close());

  it('pages with UUID cursors and camelCase fields', async () => {
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } });
      made.push(((await res.json()) as { data: { id: string } }).data.id);
    }
    assert.ok(made.every((id) => /^[0-9a-f-]{36}$/.test(id)));
    type Envelope = { data: { conversations: { id: string; messageCount: number; createdAt: string; escalated: boolean }[]; hasMore: boolean } };
    const first = ((await (await t.request('/v1/conversations?limit=2')).json()) as Envelope).data;
    assert.deepEqual([first.hasMore, first.conversations.map((c) => c.id)], [true, [made[2], made[1]]]);
    assert.deepEqual([first.conversations[0]!.messageCount, first.conversations[0]!.escalated, typeof first.conversations[0]!.createdAt], [0, false, 'string']);
    const second = ((await (await t.request(`/v1/conversations?limit=2&starting_after=${made[1]}`)).json()) as Envelope).data;
    assert.deepEqual([second.hasMore, second.conversations.map((c) => c.id)], [false, [made[0]]]);
  });
});
