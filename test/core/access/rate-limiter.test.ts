import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock, MemoryRateLimiter } from '../../../core/index.js';

const MINUTE = 60_000;

describe('MemoryRateLimiter', () => {
  it('counts within a window and refuses past the limit, with the time to the reset', async () => {
    const clock = new ManualClock(10 * MINUTE);
    const limiter = new MemoryRateLimiter(clock);
    for (let i = 0; i < 3; i++) assert.equal((await limiter.consume('k', { limit: 3, windowMs: MINUTE })).allowed, true);
    const refused = await limiter.consume('k', { limit: 3, windowMs: MINUTE });
    assert.equal(refused.allowed, false);
    assert.equal(refused.resetMs, MINUTE);
    clock.advance(MINUTE);
    assert.equal((await limiter.consume('k', { limit: 3, windowMs: MINUTE })).allowed, true);
  });

  it('keeps a 15-minute window alive through the sweeps that one-minute rules trigger', async () => {
    const clock = new ManualClock(0);
    const limiter = new MemoryRateLimiter(clock);
    const login = { limit: 10, windowMs: 15 * MINUTE };
    for (let i = 0; i < 10; i++) assert.equal((await limiter.consume('login', login)).allowed, true);
    // Minutes pass with ordinary one-minute traffic, each call able to sweep.
    for (let minute = 1; minute < 15; minute++) {
      clock.advance(MINUTE);
      await limiter.consume(`acct:${minute}`, { limit: 60, windowMs: MINUTE });
      assert.equal((await limiter.consume('login', login)).allowed, false, `guess allowed after ${minute} min`);
    }
    clock.advance(MINUTE);
    assert.equal((await limiter.consume('login', login)).allowed, true, 'a new window after 15 min');
  });
});
