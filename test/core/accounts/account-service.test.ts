import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import type { ApiKeyRecord } from '../../../core/index.js';
import { ManualClock, createAvatarService, createLocalProvider } from '../../../core/index.js';
import { startCoreService } from '../../support/core-service.js';

const START = Date.UTC(2026, 2, 10, 9, 0, 0);

async function setup(t: TestContext) {
  const { service, clock } = await startCoreService(t, START);
  return { service, clock, accounts: service.accounts };
}

const PASSWORD = 'correct horse battery';

describe('AccountService: accounts', () => {
  it('creates an account with a normalized e-mail, the free tier by default, and no plain password', async (t) => {
    const { accounts, service } = await setup(t);
    const account = await accounts.createAccount({ email: '  Ada@Example.COM ', password: PASSWORD });
    assert.equal(account.email, 'ada@example.com');
    assert.equal(account.tier, 'free');
    assert.equal(account.createdAt, START);
    assert.match(account.id, /^acct_/);
    assert.ok(!account.passwordHash.includes(PASSWORD));
    const stored = await service.store.accounts.findById(account.id);
    assert.deepEqual(stored, account);
    assert.equal((await accounts.findAccountByEmail('ADA@example.com')).id, account.id);
    assert.equal((await accounts.createAccount({ email: 'pro@example.com', password: PASSWORD, tier: 'pro' })).tier, 'pro');
  });

  it('refuses a malformed e-mail, a short password and an unknown tier, naming the field', async (t) => {
    const { accounts, service } = await setup(t);
    for (const email of ['', 'plain', 'a@b', 'a b@example.com', '@example.com']) {
      await assert.rejects(accounts.createAccount({ email, password: PASSWORD }), { code: 'invalid_request', field: 'email' }, email);
    }
    await assert.rejects(accounts.createAccount({ email: 'a@example.com', password: '1234567' }), { code: 'invalid_request', field: 'password' });
    await assert.rejects(
      accounts.createAccount({ email: 'b@example.com', password: PASSWORD, tier: 'gold' as never }),
      { code: 'invalid_request', field: 'tier', status: 400 },
    );
    assert.equal(await service.store.accounts.count(), 0, 'nothing stored');
    // Exactly 8 characters is enough.
    await accounts.createAccount({ email: 'c@example.com', password: '12345678' });
  });

  it('refuses a second account with the same e-mail, whatever its case', async (t) => {
    const { accounts, service } = await setup(t);
    await accounts.createAccount({ email: 'dup@example.com', password: PASSWORD });
    await assert.rejects(accounts.createAccount({ email: ' DUP@example.com', password: 'another password' }), {
      code: 'invalid_request',
      field: 'email',
    });
    assert.equal(await service.store.accounts.count(), 1);
  });

  it('finds accounts by id and e-mail, and answers not_found for unknown ones', async (t) => {
    const { accounts } = await setup(t);
    const account = await accounts.createAccount({ email: 'find@example.com', password: PASSWORD });
    assert.equal((await accounts.getAccount(account.id)).email, 'find@example.com');
    await assert.rejects(accounts.getAccount('acct_nope'), { code: 'not_found', status: 404 });
    await assert.rejects(accounts.findAccountByEmail('nobody@example.com'), { code: 'not_found' });
  });
});

describe('AccountService: API keys', () => {
  it('shows a new key value once and stores only its hash and last four characters', async (t) => {
    const { accounts, service } = await setup(t);
    const account = await accounts.createAccount({ email: 'keys@example.com', password: PASSWORD });
    const { record, key } = await accounts.createApiKey(account.id, { name: '  Website  ', mode: 'test' });
    assert.match(key, /^svc_test_[0-9A-Za-z]{40}$/);
    assert.equal(record.name, 'Website');
    assert.equal(record.mode, 'test');
    assert.equal(record.last4, key.slice(-4));
    assert.equal(record.revokedAt, null);
    assert.equal(record.lastUsedAt, null);

    const stored = await service.store.apiKeys.findById(account.id, record.id);
    assert.ok(stored);
    assert.ok(!JSON.stringify(stored).includes(key), 'the stored record holds no key value');
    assert.ok(!JSON.stringify(stored).includes(key.slice(9)), 'not even without its prefix');
    assert.equal(stored.hash, createHash('sha256').update(key).digest('hex'));
    const listed = await accounts.listApiKeys(account.id);
    assert.equal(listed.length, 1);
    assert.ok(!JSON.stringify(listed).includes(key));

    const second = await accounts.createApiKey(account.id, { name: 'Other', mode: 'live' });
    assert.match(second.key, /^svc_live_/);
    assert.notEqual(second.key, key);
  });

  it('validates the name and the allowed origins, and needs an existing account', async (t) => {
    const { accounts } = await setup(t);
    const account = await accounts.createAccount({ email: 'names@example.com', password: PASSWORD });
    await assert.rejects(accounts.createApiKey(account.id, { name: '   ', mode: 'test' }), { field: 'name' });
    await assert.rejects(accounts.createApiKey(account.id, { name: 'x'.repeat(201), mode: 'test' }), { field: 'name' });
    await accounts.createApiKey(account.id, { name: 'x'.repeat(200), mode: 'test' });
    for (const origin of ['ftp://example.com', 'https://example.com/path', 'not a url', 'https://user@example.com', 'https://example.com/?q=1']) {
      await assert.rejects(accounts.createApiKey(account.id, { name: 'o', mode: 'test', allowedOrigins: [origin] }), { field: 'allowed_origins' }, origin);
    }
    const { record } = await accounts.createApiKey(account.id, {
      name: 'origins',
      mode: 'live',
      allowedOrigins: ['https://Example.com/', 'http://localhost:8080'],
    });
    assert.deepEqual(record.allowedOrigins, ['https://example.com', 'http://localhost:8080']);
    await assert.rejects(accounts.createApiKey('acct_missing', { name: 'k', mode: 'test' }), { code: 'not_found' });
  });

  it('authenticates a key by its value, as its account in its mode, and records the use', async (t) => {
    const { accounts, service, clock } = await setup(t);
    const account = await accounts.createAccount({ email: 'auth@example.com', password: PASSWORD });
    const { record, key } = await accounts.createApiKey(account.id, { name: 'k', mode: 'live', allowedOrigins: ['https://a.example'] });
    const principal = await accounts.authenticateApiKey(key);
    assert.deepEqual(principal, {
      type: 'api_key',
      owner: { accountId: account.id, mode: 'live' },
      keyId: record.id,
      allowedOrigins: ['https://a.example'],
    });
    assert.equal((await service.store.apiKeys.findById(account.id, record.id))?.lastUsedAt, START);
    clock.advance(5 * 60_000);
    await accounts.authenticateApiKey(key);
    assert.equal((await service.store.apiKeys.findById(account.id, record.id))?.lastUsedAt, START + 5 * 60_000);
  });

  it('refuses malformed, unknown and wrong-mode key values alike as unauthorized', async (t) => {
    const { accounts } = await setup(t);
    const account = await accounts.createAccount({ email: 'modes@example.com', password: PASSWORD });
    const { key } = await accounts.createApiKey(account.id, { name: 'k', mode: 'test' });
    const wrongMode = key.replace(/^svc_test_/, 'svc_live_');
    const lastChanged = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
    for (const value of [wrongMode, lastChanged, '', 'hello', `Bearer ${key}`, `${key} `, key.slice(0, 20), 'svc_prod_' + key.slice(9)]) {
      await assert.rejects(accounts.authenticateApiKey(value), { code: 'unauthorized', status: 401 }, value);
    }
    // The right value still works.
    await accounts.authenticateApiKey(key);
  });

  it('refuses a revoked key, tells revocation listeners, and revokes idempotently', async (t) => {
    const { accounts, clock } = await setup(t);
    const account = await accounts.createAccount({ email: 'revoke@example.com', password: PASSWORD });
    const { record, key } = await accounts.createApiKey(account.id, { name: 'k', mode: 'test' });
    const { key: other } = await accounts.createApiKey(account.id, { name: 'keep', mode: 'test' });
    const heard: ApiKeyRecord[] = [];
    const unsubscribe = accounts.onKeyRevoked((revoked) => heard.push(revoked));

    clock.advance(1000);
    const revoked = await accounts.revokeApiKey(account.id, record.id);
    assert.equal(revoked.revokedAt, START + 1000);
    assert.equal(heard.length, 1);
    assert.equal(heard[0]!.id, record.id);
    assert.equal(heard[0]!.revokedAt, START + 1000);
    await assert.rejects(accounts.authenticateApiKey(key), { code: 'unauthorized', message: /revoked/ });
    await accounts.authenticateApiKey(other);

    clock.advance(1000);
    const again = await accounts.revokeApiKey(account.id, record.id);
    assert.equal(again.revokedAt, START + 1000, 'the first revocation time stays');

    assert.ok(heard.every((key) => key.id === record.id && key.revokedAt === START + 1000));

    const before = heard.length;
    unsubscribe();
    const { record: later } = await accounts.createApiKey(account.id, { name: 'later', mode: 'test' });
    await accounts.revokeApiKey(account.id, later.id);
    assert.equal(heard.length, before, 'no calls after unsubscribing');
  });

  it("treats another account's key as not found when revoking", async (t) => {
    const { accounts } = await setup(t);
    const alice = await accounts.createAccount({ email: 'alice@example.com', password: PASSWORD });
    const bob = await accounts.createAccount({ email: 'bob@example.com', password: PASSWORD });
    const { record, key } = await accounts.createApiKey(alice.id, { name: 'k', mode: 'test' });
    await assert.rejects(accounts.revokeApiKey(bob.id, record.id), { code: 'not_found' });
    await assert.rejects(accounts.revokeApiKey(alice.id, 'key_missing'), { code: 'not_found' });
    await accounts.authenticateApiKey(key);
    assert.equal((await accounts.findApiKeyById(record.id)).accountId, alice.id);
    await assert.rejects(accounts.findApiKeyById('key_missing'), { code: 'not_found' });
  });

  it('pages through the keys of one account, each once, oldest first', async (t) => {
    const { accounts, clock } = await setup(t);
    const account = await accounts.createAccount({ email: 'pages@example.com', password: PASSWORD });
    const other = await accounts.createAccount({ email: 'other@example.com', password: PASSWORD });
    await accounts.createApiKey(other.id, { name: 'not mine', mode: 'test' });
    const created: string[] = [];
    for (let i = 0; i < 7; i++) {
      clock.advance(1);
      created.push((await accounts.createApiKey(account.id, { name: `key ${i}`, mode: i % 2 ? 'live' : 'test' })).record.id);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    const pages: boolean[] = [];
    for (;;) {
      const page = await accounts.pageApiKeys(account.id, { limit: 3, ...(cursor !== undefined && { startingAfter: cursor }) });
      assert.ok(page.keys.length <= 3);
      seen.push(...page.keys.map((k) => k.id));
      pages.push(page.hasMore);
      if (!page.hasMore) break;
      cursor = page.keys.at(-1)!.id;
    }
    assert.deepEqual(pages, [true, true, false]);
    assert.deepEqual(seen, created);
    const exact = await accounts.pageApiKeys(account.id, { limit: 7 });
    assert.equal(exact.keys.length, 7);
    assert.equal(exact.hasMore, false);
    assert.deepEqual(await accounts.pageApiKeys(account.id, { limit: 3, startingAfter: created.at(-1)! }), { keys: [], hasMore: false });
  });
});

describe('AccountService: races and ordering', () => {
  it('two concurrent sign-ups with one e-mail: one account, the other refused as a duplicate (400 email)', async (t) => {
    const { accounts, service } = await setup(t);
    const results = await Promise.allSettled([0, 1].map(() => accounts.createAccount({ email: 'race@example.com', password: PASSWORD })));
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    const refused = results.find((r) => r.status === 'rejected');
    assert.ok(refused?.status === 'rejected');
    assert.equal((refused.reason as { code?: string }).code, 'invalid_request');
    assert.equal((refused.reason as { field?: string }).field, 'email');
    assert.equal(await service.store.accounts.count(), 1);
  });

  it('keys created in the same millisecond are still listed oldest first', async (t) => {
    const { accounts } = await setup(t);
    const account = await accounts.createAccount({ email: 'same-ms@example.com', password: PASSWORD });
    const created: string[] = [];
    for (let i = 0; i < 8; i++) created.push((await accounts.createApiKey(account.id, { name: `k${i}`, mode: 'test' })).record.id);
    assert.deepEqual((await accounts.listApiKeys(account.id)).map((k) => k.id), created);
  });
});

describe('AccountService: login and account tokens', () => {
  it('logs in with the right password, whatever the case of the e-mail', async (t) => {
    const { accounts } = await setup(t);
    const account = await accounts.createAccount({ email: 'login@example.com', password: PASSWORD });
    const issued = await accounts.login(' LOGIN@example.com ', PASSWORD);
    assert.equal(issued.expiresAt, START + 3600_000);
    assert.deepEqual(await accounts.authenticateToken(issued.token), { type: 'account', accountId: account.id });
  });

  it('answers a wrong password exactly like an unknown e-mail', async (t) => {
    const { accounts } = await setup(t);
    await accounts.createAccount({ email: 'login@example.com', password: PASSWORD });
    const wrong = await accounts.login('login@example.com', 'wrong password').then(
      () => assert.fail('logged in with a wrong password'),
      (error: unknown) => error as Error & { code: string; status: number },
    );
    const unknown = await accounts.login('nobody@example.com', PASSWORD).then(
      () => assert.fail('logged in as nobody'),
      (error: unknown) => error as Error & { code: string; status: number },
    );
    assert.equal(wrong.code, 'unauthorized');
    assert.equal(wrong.status, 401);
    assert.deepEqual([unknown.name, unknown.code, unknown.message], [wrong.name, wrong.code, wrong.message]);
    await assert.rejects(accounts.login('login@example.com', ''), { code: 'unauthorized' });
  });

  it('token expiry follows the clock: valid for an hour, then refused', async (t) => {
    const { accounts, clock } = await setup(t);
    const account = await accounts.createAccount({ email: 'jwt@example.com', password: PASSWORD });
    const { token, expiresAt } = await accounts.issueToken(account.id);
    assert.equal(expiresAt, START + 3600_000);
    clock.advance(3600_000 - 1);
    assert.equal((await accounts.authenticateToken(token)).accountId, account.id);
    clock.advance(1);
    await assert.rejects(accounts.authenticateToken(token), { code: 'unauthorized' });
  });

  it('refuses tampered, foreign and malformed tokens, and tokens of unknown accounts', async (t) => {
    const { accounts } = await setup(t);
    const alice = await accounts.createAccount({ email: 'alice@example.com', password: PASSWORD });
    const bob = await accounts.createAccount({ email: 'bob@example.com', password: PASSWORD });
    const { token } = await accounts.issueToken(alice.id);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const asBob = Buffer.from(JSON.stringify({ ...claims, sub: bob.id })).toString('base64url');
    const longer = Buffer.from(JSON.stringify({ ...claims, exp: (claims.exp as number) + 86_400 })).toString('base64url');
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const forged = [
      `${header}.${asBob}.${signature}`,
      `${header}.${longer}.${signature}`,
      `${none}.${payload}.`,
      `${header}.${payload}`,
      `${header}.${payload}.${signature}.x`,
      '',
      'garbage',
      (await accounts.issueToken('acct_deleted_or_never_was')).token,
    ];
    for (const value of forged) await assert.rejects(accounts.authenticateToken(value), { code: 'unauthorized' }, value);
    assert.equal((await accounts.authenticateToken(token)).accountId, alice.id);
  });

  it('refuses a token signed with another secret', async (t) => {
    const { accounts, service } = await setup(t);
    const account = await accounts.createAccount({ email: 'secret@example.com', password: PASSWORD });
    const clock = new ManualClock(START);
    const sibling = createAvatarService({
      store: service.store,
      blobs: service.blobs,
      jwtSecret: 'a-different-secret-0123456789abcdef',
      aiProviders: [createLocalProvider()],
      speechProviders: [],
      clock,
    });
    const foreign = (await sibling.accounts.issueToken(account.id)).token;
    await assert.rejects(accounts.authenticateToken(foreign), { code: 'unauthorized' });
    assert.equal((await sibling.accounts.authenticateToken(foreign)).accountId, account.id, 'valid where it was signed');
  });
});

describe('AccountService: plans', () => {
  it('changes the tier and the enterprise overrides; null clears an override, undefined keeps it', async (t) => {
    const { accounts } = await setup(t);
    const account = await accounts.createAccount({ email: 'plan@example.com', password: PASSWORD });
    let updated = await accounts.setPlan(account.id, { tier: 'enterprise', requestsPerMinute: 1000, connections: 200 });
    assert.deepEqual([updated.tier, updated.rpmOverride, updated.connectionsOverride], ['enterprise', 1000, 200]);
    updated = await accounts.setPlan(account.id, { tier: 'enterprise', connections: null });
    assert.deepEqual([updated.tier, updated.rpmOverride, updated.connectionsOverride], ['enterprise', 1000, null]);
    updated = await accounts.setPlan(account.id, { tier: 'creator' });
    assert.deepEqual([updated.tier, updated.rpmOverride, updated.connectionsOverride], ['creator', 1000, null]);
    assert.equal((await accounts.getAccount(account.id)).tier, 'creator');
  });

  it('refuses unknown tiers, non-positive or fractional limits, and unknown accounts', async (t) => {
    const { accounts } = await setup(t);
    const account = await accounts.createAccount({ email: 'plan@example.com', password: PASSWORD });
    await assert.rejects(accounts.setPlan(account.id, { tier: 'platinum' as never }), { field: 'tier' });
    for (const value of [0, -5, 1.5, Number.NaN]) {
      await assert.rejects(accounts.setPlan(account.id, { tier: 'pro', requestsPerMinute: value }), { field: 'requests_per_minute' }, String(value));
      await assert.rejects(accounts.setPlan(account.id, { tier: 'pro', connections: value }), { field: 'connections' }, String(value));
    }
    assert.equal((await accounts.getAccount(account.id)).tier, 'free', 'nothing changed');
    await assert.rejects(accounts.setPlan('acct_missing', { tier: 'pro' }), { code: 'not_found' });
  });
});
