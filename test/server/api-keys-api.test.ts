import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

describe('Sign-in and API keys', () => {
  let t: TestServer;
  let jwt: string;
  before(async () => {
    t = await startTestServer();
    const res = await t.request('/v1/auth/login', { method: 'POST', json: { email: 'A@example.com', password: 'password-a' }, auth: null });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { token: string; expires_at: string };
    assert.ok(Date.parse(body.expires_at) > Date.now() + 50 * 60_000);
    jwt = body.token;
  });
  after(() => t.close());

  it('pages the key list with limit and starting_after', async () => {
    for (const name of ['page 1', 'page 2', 'page 3']) {
      assert.equal((await t.request('/v1/api-keys', { method: 'POST', json: { name }, auth: jwt })).status, 201);
    }
    type Page = { api_keys: { id: string }[]; has_more: boolean };
    const all = (await (await t.request('/v1/api-keys', { auth: jwt })).json()) as Page;
    assert.equal(all.has_more, false);
    const ids = all.api_keys.map((k) => k.id);
    assert.deepEqual(ids, [...ids].sort(), 'oldest first');
    const seen: string[] = [];
    let cursor = '';
    for (;;) {
      const page = (await (await t.request(`/v1/api-keys?limit=2${cursor && `&starting_after=${cursor}`}`, { auth: jwt })).json()) as Page;
      seen.push(...page.api_keys.map((k) => k.id));
      if (!page.has_more) break;
      cursor = page.api_keys.at(-1)!.id;
    }
    assert.deepEqual(seen, ids);
    for (const query of ['limit=0', 'limit=101', 'limit=two', 'starting_after=nope']) {
      assert.equal((await t.request(`/v1/api-keys?${query}`, { auth: jwt })).status, 400, query);
    }
  });

  it('limits password attempts per e-mail, the right password included, with Retry-After', async () => {
    await t.service.accounts.createAccount({ email: 'guessed@example.com', password: 'the-right-one' });
    const attempt = (password: string) => t.request('/v1/auth/login', { method: 'POST', json: { email: 'Guessed@Example.com', password }, auth: null });
    for (let i = 0; i < 10; i++) assert.equal((await attempt(`guess-${i}`)).status, 401);
    const refused = await attempt('the-right-one');
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.match(((await refused.json()) as { error: { message: string } }).error.message, /Too many sign-in attempts/);
    // Another account is not locked by the first one's attempts.
    assert.equal((await t.request('/v1/auth/login', { method: 'POST', json: { email: 'a@example.com', password: 'password-a' }, auth: null })).status, 200);
  });

  it('rejects a wrong password like an unknown e-mail', async () => {
    for (const json of [{ email: 'a@example.com', password: 'nope-nope' }, { email: 'z@example.com', password: 'password-a' }]) {
      const res = await t.request('/v1/auth/login', { method: 'POST', json, auth: null });
      assert.equal(res.status, 401);
      assert.equal(((await res.json()) as { error: { message: string } }).error.message, 'Email or password is incorrect');
    }
  });

  it('creates a key shown once, lists keys redacted, revokes it', async () => {
    const created = await t.request('/v1/api-keys', { method: 'POST', json: { name: 'website widget', mode: 'live' }, auth: jwt });
    assert.equal(created.status, 201);
    const key = (await created.json()) as { id: string; key: string; redacted: string; mode: string; name: string };
    assert.match(key.key, /^svc_live_[0-9A-Za-z]{40}$/);
    assert.equal(key.redacted, `svc_live_…${key.key.slice(-4)}`);

    const list = (await (await t.request('/v1/api-keys', { auth: jwt })).json()) as { api_keys: Record<string, unknown>[] };
    const listed = list.api_keys.find((k) => k.id === key.id)!;
    assert.equal(listed.name, 'website widget');
    assert.equal('key' in listed, false);
    assert.ok(!JSON.stringify(list).includes(key.key));

    assert.equal((await t.request('/v1/avatars', { auth: key.key })).status, 200);
    const revoked = await t.request(`/v1/api-keys/${key.id}`, { method: 'DELETE', auth: jwt });
    assert.deepEqual(await revoked.json(), { deleted: true });
    assert.equal((await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' }, auth: key.key })).status, 401);
  });

  it('needs an account token: API keys and forged tokens are refused', async () => {
    assert.equal((await t.request('/v1/api-keys')).status, 401);
    const [header, payload] = jwt.split('.');
    assert.equal((await t.request('/v1/api-keys', { auth: `${header}.${payload}.forged` })).status, 401);
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    assert.equal((await t.request('/v1/api-keys', { auth: `${none}.${payload}.` })).status, 401);
  });

  it("404s another account's key", async () => {
    const other = await t.service.accounts.findAccountByEmail('b@example.com');
    const [otherKey] = await t.service.accounts.listApiKeys(other.id);
    const res = await t.request(`/v1/api-keys/${otherKey!.id}`, { method: 'DELETE', auth: jwt });
    assert.equal(res.status, 404);
  });

  it('stores no key value: the database files never contain one', async () => {
    const files = await readdir(t.dataDir);
    const dump = (await Promise.all(files.filter((f) => f.startsWith('avatar.db')).map((f) => readFile(join(t.dataDir, f))))).map((b) => b.toString('latin1')).join('');
    assert.ok(dump.length > 0);
    for (const key of [t.key, t.liveKey, t.otherKey]) {
      assert.equal(dump.includes(key), false);
      assert.equal(dump.includes(key.slice(9, 30)), false, 'not even a fragment of the secret part');
    }
  });
});
