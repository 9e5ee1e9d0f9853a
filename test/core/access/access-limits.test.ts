import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import type { Tier } from '../../../core/index.js';
import { startCoreService } from '../../support/core-service.js';

const MINUTE = 60_000;
/** On a minute boundary, so fixed one-minute windows start with the test. */
const START = Date.UTC(2026, 5, 1, 12, 0, 0);

async function setup(t: TestContext, options: { anonymousRequestsPerMinute?: number } = {}) {
  const { service, clock } = await startCoreService(t, START, options);
  let accounts = 0;
  const account = async (tier: Tier = 'free') =>
    (await service.accounts.createAccount({ email: `a${accounts++}@example.com`, password: 'password-123', tier })).id;
  return { service, clock, limits: service.limits, account };
}

/** Requests until the first refusal (at most `max`); how many were allowed. */
async function allowedRequests(limits: { request(subject: { accountId: string } | { address: string }): Promise<{ allowed: boolean }> }, subject: { accountId: string } | { address: string }, max: number): Promise<number> {
  for (let i = 0; i < max; i++) if (!(await limits.request(subject)).allowed) return i;
  return max;
}

describe('access limits: requests per account', () => {
  it('allows a free account 10 requests a minute, counting down, then refuses with the time to the reset', async (t) => {
    const { limits, account, clock } = await setup(t);
    const accountId = await account('free');
    for (let i = 0; i < 10; i++) {
      const decision = await limits.request({ accountId });
      assert.deepEqual([decision.allowed, decision.limit, decision.remaining], [true, 10, 9 - i], `request ${i + 1}`);
    }
    clock.advance(15_000);
    const refused = await limits.request({ accountId });
    assert.deepEqual([refused.allowed, refused.limit, refused.remaining], [false, 10, 0]);
    assert.equal(refused.resetMs, 45_000);
  });

  it('gives each tier its own rate', async (t) => {
    const { limits, account } = await setup(t);
    assert.equal(await allowedRequests(limits, { accountId: await account('free') }, 400), 10);
    assert.equal(await allowedRequests(limits, { accountId: await account('creator') }, 400), 60);
    assert.equal(await allowedRequests(limits, { accountId: await account('pro') }, 400), 300);
    assert.deepEqual(await limits.limitsFor(await account('enterprise')), { requestsPerMinute: 300, connections: 50 });
  });

  it('counts each account apart', async (t) => {
    const { limits, account } = await setup(t);
    const busy = await account();
    const calm = await account();
    assert.equal(await allowedRequests(limits, { accountId: busy }, 20), 10);
    assert.equal((await limits.request({ accountId: calm })).allowed, true);
    assert.equal((await limits.request({ accountId: busy })).allowed, false);
  });

  it('opens a new window when the clock passes the minute', async (t) => {
    const { limits, account, clock } = await setup(t);
    const accountId = await account();
    assert.equal(await allowedRequests(limits, { accountId }, 20), 10);
    clock.advance(MINUTE - 1);
    assert.equal((await limits.request({ accountId })).allowed, false, 'still the same minute');
    clock.advance(1);
    assert.equal(await allowedRequests(limits, { accountId }, 20), 10, 'a full minute again');
  });

  it('refuses every request of an unknown account', async (t) => {
    const { limits } = await setup(t);
    const decision = await limits.request({ accountId: 'acct_unknown' });
    assert.equal(decision.allowed, false);
    assert.deepEqual(await limits.limitsFor('acct_unknown'), { requestsPerMinute: 0, connections: 0 });
  });

  it('applies a new plan (and its overrides) within 30 s', async (t) => {
    const { service, limits, account, clock } = await setup(t);
    const accountId = await account('free');
    assert.equal((await limits.limitsFor(accountId)).requestsPerMinute, 10);
    await service.accounts.setPlan(accountId, { tier: 'enterprise', requestsPerMinute: 25, connections: 3 });
    clock.advance(30_000);
    assert.deepEqual(await limits.limitsFor(accountId), { requestsPerMinute: 25, connections: 3 });
    clock.advance(30_000); // a fresh window
    assert.equal(await allowedRequests(limits, { accountId }, 100), 25);
  });
});

describe('access limits: anonymous requests per address', () => {
  it('limits each client address on its own (120 a minute by default)', async (t) => {
    const { limits, clock } = await setup(t);
    assert.equal(await allowedRequests(limits, { address: '203.0.113.7' }, 200), 120);
    assert.equal((await limits.request({ address: '203.0.113.8' })).allowed, true, 'another address');
    assert.equal((await limits.request({ address: '2001:db8::1' })).allowed, true);
    clock.advance(MINUTE);
    assert.equal((await limits.request({ address: '203.0.113.7' })).allowed, true, 'after the minute');
  });

  it('takes its rate from anonymousRequestsPerMinute, apart from account counts', async (t) => {
    const { limits, account } = await setup(t, { anonymousRequestsPerMinute: 5 });
    const decision = await limits.request({ address: '198.51.100.1' });
    assert.deepEqual([decision.limit, decision.remaining], [5, 4]);
    assert.equal(await allowedRequests(limits, { address: '198.51.100.1' }, 20), 4);
    const accountId = await account();
    assert.equal(await allowedRequests(limits, { accountId }, 20), 10, 'an account is not limited by an address');
  });
});

describe('access limits: sign-in attempts', () => {
  it('allows 10 attempts per e-mail in 15 minutes, whatever its case or spacing', async (t) => {
    const { limits, clock } = await setup(t);
    for (let i = 0; i < 10; i++) {
      await limits.loginAttempt({ email: i % 2 ? 'Victim@Example.com ' : 'victim@example.com', address: `192.0.2.${i}` });
    }
    const error = await limits.loginAttempt({ email: 'VICTIM@example.com', address: '192.0.2.200' }).then(
      () => assert.fail('an 11th attempt was allowed'),
      (e: unknown) => e as { code: string; status: number; retryAfterS: number },
    );
    assert.equal(error.code, 'rate_limited');
    assert.equal(error.status, 429);
    assert.equal(error.retryAfterS, 15 * 60);
    // Another e-mail from the same addresses is fine.
    await limits.loginAttempt({ email: 'someone@example.com', address: '192.0.2.1' });
    clock.advance(14 * MINUTE);
    await assert.rejects(limits.loginAttempt({ email: 'victim@example.com', address: '192.0.2.1' }), { code: 'rate_limited', retryAfterS: 60 });
    clock.advance(MINUTE);
    await limits.loginAttempt({ email: 'victim@example.com', address: '192.0.2.1' });
  });

  it('allows 30 attempts per address in 15 minutes, across e-mails', async (t) => {
    const { limits, clock } = await setup(t);
    for (let i = 0; i < 30; i++) await limits.loginAttempt({ email: `user${i}@example.com`, address: '198.51.100.9' });
    await assert.rejects(limits.loginAttempt({ email: 'fresh@example.com', address: '198.51.100.9' }), { code: 'rate_limited' });
    await limits.loginAttempt({ email: 'fresh@example.com', address: '198.51.100.10' });
    clock.advance(15 * MINUTE);
    await limits.loginAttempt({ email: 'fresh2@example.com', address: '198.51.100.9' });
  });

  it('keeps sign-in counts apart from request counts', async (t) => {
    const { limits } = await setup(t, { anonymousRequestsPerMinute: 1 });
    assert.equal((await limits.request({ address: '192.0.2.55' })).allowed, true);
    assert.equal((await limits.request({ address: '192.0.2.55' })).allowed, false);
    await limits.loginAttempt({ email: 'x@example.com', address: '192.0.2.55' });
  });
});

describe('access limits: connection slots', () => {
  it("holds up to the tier's count, then refuses with 429 too_many_connections until one is released", async (t) => {
    const { limits, account } = await setup(t);
    const accountId = await account('free');
    const first = await limits.openConnection(accountId);
    const second = await limits.openConnection(accountId);
    assert.equal(await limits.openConnections(accountId), 2);
    await assert.rejects(limits.openConnection(accountId), { code: 'too_many_connections', status: 429, retryAfterS: 5 });
    first.release();
    assert.equal(await limits.openConnections(accountId), 1);
    const third = await limits.openConnection(accountId);
    await assert.rejects(limits.openConnection(accountId), { code: 'too_many_connections' });
    second.release();
    third.release();
    assert.equal(await limits.openConnections(accountId), 0);
  });

  it('release is idempotent: releasing twice frees one slot only', async (t) => {
    const { limits, account } = await setup(t);
    const accountId = await account('free');
    const a = await limits.openConnection(accountId);
    const b = await limits.openConnection(accountId);
    a.release();
    a.release();
    a.release();
    assert.equal(await limits.openConnections(accountId), 1, 'b still holds its slot');
    const c = await limits.openConnection(accountId);
    await assert.rejects(limits.openConnection(accountId), { code: 'too_many_connections' });
    b.release();
    c.release();
    c.release();
    assert.equal(await limits.openConnections(accountId), 0);
  });

  it("counts per account, with each tier's slots (creator 10) and an enterprise override", async (t) => {
    const { service, limits, account, clock } = await setup(t);
    const free = await account('free');
    const creator = await account('creator');
    await limits.openConnection(free);
    await limits.openConnection(free);
    const leases = [];
    for (let i = 0; i < 10; i++) leases.push(await limits.openConnection(creator));
    await assert.rejects(limits.openConnection(creator), { code: 'too_many_connections' });
    await assert.rejects(limits.openConnection(free), { code: 'too_many_connections' });

    const big = await account('free');
    await service.accounts.setPlan(big, { tier: 'enterprise', connections: 3 });
    clock.advance(30_000);
    for (let i = 0; i < 3; i++) await limits.openConnection(big);
    await assert.rejects(limits.openConnection(big), { code: 'too_many_connections' });
    await assert.rejects(limits.openConnection('acct_unknown'), { code: 'too_many_connections' });
  });
});
