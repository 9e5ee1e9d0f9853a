import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

interface Figures {
  ai_tokens: number;
  tts_characters: number;
  conversations: number;
}
interface Daily {
  from: string;
  to: string;
  mode: 'live' | 'test' | null;
  tier: string;
  limits: { requests_per_minute: number; connections: number };
  total: Figures;
  days: (Figures & { date: string })[];
}

async function errorOf(res: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await res.json()) as { error: { code: string; message: string } };
  return { status: res.status, code: body.error.code, message: body.error.message };
}

describe('Sign-up is off by default', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it('answers 404 and says so in GET /v1/auth/config', async () => {
    const config = await t.request('/v1/auth/config', { auth: null });
    assert.equal(config.status, 200);
    assert.deepEqual(await config.json(), { signup: false });
    const error = await errorOf(await t.request('/v1/auth/signup', { method: 'POST', json: { email: 'new@example.com', password: 'long-enough' }, auth: null }));
    assert.deepEqual([error.status, error.code], [404, 'not_found']);
    assert.match(error.message, /ALLOW_SIGNUP/);
    await assert.rejects(t.service.accounts.findAccountByEmail('new@example.com'), { code: 'not_found' });
  });
});

describe('Sign-up with ALLOW_SIGNUP=true', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ env: { ALLOW_SIGNUP: 'true' } });
  });
  after(() => t.close());

  const signUp = (json: object) => t.request('/v1/auth/signup', { method: 'POST', json, auth: null });

  it('creates a free account and answers like login: a token that manages keys, and expires_at', async () => {
    assert.deepEqual(await (await t.request('/v1/auth/config', { auth: null })).json(), { signup: true });
    const res = await signUp({ email: 'New.User@Example.com', password: 'a-good-password', name: 'New User' });
    assert.equal(res.status, 201);
    const body = (await res.json()) as { token: string; expires_at: string };
    assert.deepEqual(Object.keys(body).sort(), ['expires_at', 'token']);
    const lifetime = Date.parse(body.expires_at) - Date.now();
    assert.ok(lifetime > 59 * 60_000 && lifetime <= 3600_000);
    const account = await t.service.accounts.findAccountByEmail('new.user@example.com');
    assert.equal(account.tier, 'free');
    const created = await t.request('/v1/api-keys', { method: 'POST', json: { name: 'first key' }, auth: body.token });
    assert.equal(created.status, 201);
    const login = await t.request('/v1/auth/login', { method: 'POST', json: { email: 'new.user@example.com', password: 'a-good-password' }, auth: null });
    assert.equal(login.status, 200, 'the password works for sign-in');
  });

  it("applies the CLI's rules: an e-mail address, 8 characters of password, one account per address", async () => {
    const cases: [object, RegExp][] = [
      [{ email: 'someone@example.com', password: 'short' }, /password must be at least 8 characters/],
      [{ email: 'not-an-address', password: 'long-enough' }, /email must be an e-mail address/],
      [{ email: 'a@example.com', password: 'long-enough' }, /already exists/],
      [{ email: 'x@example.com' }, /password/],
    ];
    for (const [json, message] of cases) {
      const error = await errorOf(await signUp(json));
      assert.deepEqual([error.status, error.code], [400, 'invalid_request'], JSON.stringify(json));
      assert.match(error.message, message);
    }
  });

  it('is rate limited like login, per client address', async () => {
    let status = 0;
    for (let i = 0; i < 40 && status !== 429; i++) status = (await signUp({ email: `flood-${i}@example.com`, password: 'short' })).status;
    assert.equal(status, 429);
    const refused = await signUp({ email: 'late@example.com', password: 'long-enough' });
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.match((await errorOf(refused)).message, /Too many sign-in attempts/);
  });
});

describe('GET /v1/usage/daily', () => {
  let t: TestServer;
  let jwt: string;
  const today = new Date().toISOString().slice(0, 10);
  const daily = async (query: string, auth: string = jwt): Promise<Daily> => {
    const res = await t.request(`/v1/usage/daily${query}`, { auth });
    assert.equal(res.status, 200, query);
    return (await res.json()) as Daily;
  };
  const talk = async (auth: string, content: string) => {
    const { id } = (await (await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' }, auth })).json()) as { id: string };
    assert.equal((await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content }, auth })).status, 200);
    return id;
  };

  before(async () => {
    t = await startTestServer();
    jwt = (await t.service.accounts.issueToken(t.accountId)).token;
    await talk(t.key, 'Tell me something about the moon.');
    await talk(t.key, 'And the sun?');
    await talk(t.liveKey, 'Hello from live');
    await talk(t.otherKey, 'Account B talks too');
  });
  after(() => t.close());

  it('has every day of the window, today last, with the figures /v1/usage metered and the conversations started', async () => {
    const test = await daily('', t.key);
    assert.equal(test.days.length, 30);
    assert.deepEqual([test.from, test.to, test.days.at(-1)!.date, test.mode], [test.days[0]!.date, today, today, 'test']);
    for (let i = 1; i < test.days.length; i++) {
      assert.equal(Date.parse(test.days[i]!.date) - Date.parse(test.days[i - 1]!.date), 86_400_000, 'consecutive days');
    }
    const metered = (await (await t.request('/v1/usage', { auth: t.key })).json()) as { total: { ai_tokens: number; tts_characters: number } };
    assert.ok(metered.total.ai_tokens > 0 && metered.total.tts_characters > 0);
    assert.deepEqual(test.days.at(-1), { date: today, ai_tokens: metered.total.ai_tokens, tts_characters: metered.total.tts_characters, conversations: 2 });
    assert.deepEqual(test.total, { ai_tokens: metered.total.ai_tokens, tts_characters: metered.total.tts_characters, conversations: 2 });
    for (const day of test.days.slice(0, -1)) assert.deepEqual([day.ai_tokens, day.tts_characters, day.conversations], [0, 0, 0]);
  });

  it('adds both modes together for an account token, or reports the one it asks for; tier and limits included', async () => {
    const [both, test, live] = await Promise.all([daily(''), daily('?mode=test'), daily('?mode=live')]);
    assert.equal(both.mode, null);
    assert.equal(live.total.conversations, 1);
    assert.deepEqual(both.total, {
      ai_tokens: test.total.ai_tokens + live.total.ai_tokens,
      tts_characters: test.total.tts_characters + live.total.tts_characters,
      conversations: 3,
    });
    assert.deepEqual([both.tier, both.limits], ['pro', { requests_per_minute: 300, connections: 50 }]);
    const b = await daily('', t.otherKey);
    assert.deepEqual([b.tier, b.limits, b.total.conversations], ['free', { requests_per_minute: 10, connections: 2 }, 1], "account B's own figures");
  });

  it('takes days from 1 to 366; other values, another mode for a key, and session tokens are refused', async () => {
    assert.deepEqual((await daily('?days=1')).days.map((d) => d.date), [today]);
    assert.equal((await daily('?days=366')).days.length, 366);
    for (const query of ['?days=0', '?days=367', '?days=week', '?mode=both']) {
      assert.equal((await t.request(`/v1/usage/daily${query}`, { auth: jwt })).status, 400, query);
    }
    assert.equal((await t.request('/v1/usage/daily?mode=live', { auth: t.key })).status, 400);
    const conversation = await talk(t.key, 'one more');
    const session = (await (await t.request('/v1/sessions', { method: 'POST', json: { conversation_id: conversation } })).json()) as { token: string };
    assert.equal((await t.request('/v1/usage/daily', { auth: session.token })).status, 401);
  });
});
