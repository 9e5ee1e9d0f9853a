import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

interface MessagePage {
  messages: { id: string; role: string; content: string }[];
  has_more: boolean;
}
interface EnvelopePage {
  data: { messages: { id: string; role: string }[]; hasMore: boolean };
}
interface ErrorBody {
  error: { code: string; message: string };
}

/** Sends `turns` user messages (each stores the user's message and the reply) and returns the conversation id. */
async function conversationWith(t: TestServer, turns: number): Promise<string> {
  const created = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser' } });
  assert.equal(created.status, 201);
  const { id } = (await created.json()) as { id: string };
  for (let i = 0; i < turns; i++) {
    const sent = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: `Message number ${i}` } });
    assert.equal(sent.status, 200, await sent.clone().text());
  }
  return id;
}

async function expectError(res: Response, status: number, code: string, message: RegExp): Promise<void> {
  const body = (await res.json()) as ErrorBody;
  assert.equal(res.status, status, JSON.stringify(body));
  assert.equal(body.error.code, code);
  assert.match(body.error.message, message);
}

describe('GET /v1/conversations/:id/messages (paged history)', () => {
  let t: TestServer;
  before(async () => (t = await startTestServer()));
  after(() => t.close());

  it('pages cover every message exactly once, in the order of the conversation read', async () => {
    const id = await conversationWith(t, 5);
    const whole = (await (await t.request(`/v1/conversations/${id}`)).json()) as { messages: { id: string }[] };
    assert.equal(whole.messages.length, 10);
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    for (;;) {
      const res = await t.request(`/v1/conversations/${id}/messages?limit=3${cursor ? `&starting_after=${cursor}` : ''}`);
      assert.equal(res.status, 200);
      const page = (await res.json()) as MessagePage;
      sizes.push(page.messages.length);
      seen.push(...page.messages.map((m) => m.id));
      if (!page.has_more) break;
      cursor = page.messages.at(-1)!.id;
    }
    assert.deepEqual(sizes, [3, 3, 3, 1]);
    assert.deepEqual(seen, whole.messages.map((m) => m.id));
  });

  it('defaults to 20 a page and says when no more follow', async () => {
    const id = await conversationWith(t, 11);
    const first = (await (await t.request(`/v1/conversations/${id}/messages`)).json()) as MessagePage;
    assert.equal(first.messages.length, 20);
    assert.equal(first.has_more, true);
    const rest = (await (await t.request(`/v1/conversations/${id}/messages?starting_after=${first.messages.at(-1)!.id}`)).json()) as MessagePage;
    assert.equal(rest.messages.length, 2);
    assert.equal(rest.has_more, false);
    const exact = (await (await t.request(`/v1/conversations/${id}/messages?limit=22`)).json()) as MessagePage;
    assert.deepEqual([exact.messages.length, exact.has_more], [22, false]);
    const last = (await (await t.request(`/v1/conversations/${id}/messages?starting_after=${exact.messages.at(-1)!.id}`)).json()) as MessagePage;
    assert.deepEqual(last, { messages: [], has_more: false });
  });

  it('refuses a limit outside 1 to 100 or not an integer, naming the field', async () => {
    const id = await conversationWith(t, 0);
    for (const limit of ['0', '101', '2.5', 'ten', '-1']) {
      await expectError(await t.request(`/v1/conversations/${id}/messages?limit=${limit}`), 400, 'invalid_request', /limit/);
    }
    for (const limit of ['1', '100']) assert.equal((await t.request(`/v1/conversations/${id}/messages?limit=${limit}`)).status, 200);
  });

  it('answers 400 for a cursor that is not a message of this conversation', async () => {
    const id = await conversationWith(t, 1);
    const other = await conversationWith(t, 1);
    const [foreign] = ((await (await t.request(`/v1/conversations/${other}/messages`)).json()) as MessagePage).messages;
    await expectError(await t.request(`/v1/conversations/${id}/messages?starting_after=${foreign!.id}`), 400, 'invalid_request', /starting_after/);
    await expectError(await t.request(`/v1/conversations/${id}/messages?starting_after=msg_00000000000000000000000000`), 400, 'invalid_request', /starting_after/);
    await expectError(await t.request(`/v1/conversations/${id}/messages?starting_after=key_abc`), 400, 'invalid_request', /starting_after must be a message id/);
  });

  it("answers 404 to another account and to the owner's live keys", async () => {
    const id = await conversationWith(t, 1);
    for (const auth of [t.otherKey, t.liveKey]) {
      await expectError(await t.request(`/v1/conversations/${id}/messages`, { auth }), 404, 'not_found', /conversation/);
    }
    await expectError(await t.request('/v1/conversations/conv_doesnotexist0000000000000/messages'), 404, 'not_found', /conversation/);
  });

  it("keeps an ended conversation's history readable, also with the conversation's session token", async () => {
    const id = await conversationWith(t, 2);
    const session = await t.request('/v1/sessions', { method: 'POST', json: { conversation_id: id } });
    assert.equal(session.status, 201);
    const { token } = (await session.json()) as { token: string };
    assert.equal((await t.request(`/v1/conversations/${id}/end`, { method: 'POST' })).status, 200);
    const page = (await (await t.request(`/v1/conversations/${id}/messages`)).json()) as MessagePage;
    assert.deepEqual(page.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);
    const bySession = (await (await t.request(`/v1/conversations/${id}/messages`, { auth: token })).json()) as MessagePage;
    assert.deepEqual(bySession, page);
  });
});

describe('GET /v1/conversations/:id/messages in the envelope style', () => {
  let t: TestServer;
  before(async () => (t = await startTestServer({ env: { API_STYLE: 'envelope' } })));
  after(() => t.close());

  it('pages with UUID ids and camelCase hasMore', async () => {
    const created = await t.request('/v1/conversations', { method: 'POST', json: { avatarId: 'luna-001', ttsProvider: 'browser' } });
    assert.equal(created.status, 201);
    const { id } = ((await created.json()) as { data: { id: string } }).data;
    for (const content of ['one', 'two']) assert.equal((await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content } })).status, 200);
    const first = ((await (await t.request(`/v1/conversations/${id}/messages?limit=3`)).json()) as EnvelopePage).data;
    assert.equal(first.messages.length, 3);
    assert.equal(first.hasMore, true);
    assert.match(first.messages[0]!.id, /^[0-9a-f-]{36}$/);
    const rest = ((await (await t.request(`/v1/conversations/${id}/messages?limit=3&starting_after=${first.messages[2]!.id}`)).json()) as EnvelopePage).data;
    assert.deepEqual([rest.messages.map((m) => m.role), rest.hasMore], [['assistant'], false]);
  });
});
