import type { Redis } from 'ioredis';
import type { Clock } from '../clock.js';
import type { RateDecision, RateLimiter, RateRule } from '../access/rate-limiter.js';
import type { LuaScript } from './lua.js';
import { luaScript } from './lua.js';
import { orUnavailable } from './redis-unavailable.js';

/**
 * Counts one request of a fixed window, atomically: below the limit the count goes up (the
 * window's key expiring with the window), at the limit it stays. Returns {allowed, count}.
 */
const CONSUME = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count < tonumber(ARGV[1]) then
  count = redis.call('INCR', KEYS[1])
  if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
  return {1, count}
end
return {0, count}
`;

/** Keys outlive their window by this much, so a process whose clock runs behind still finds the count. */
const EXPIRY_MARGIN_MS = 5_000;

/**
 * The rate limiter of several processes: the same fixed windows as `MemoryRateLimiter` (aligned
 * to multiples of the window on the clock), counted in Redis by one script per request, so the
 * count is exact across processes. The window is named by its start, so processes agree on it as
 * far as their clocks agree.
 */
export class RedisRateLimiter implements RateLimiter {
  readonly #consume: LuaScript;
  readonly #clock: Clock;
  readonly #prefix: string;

  constructor(client: Redis, clock: Clock, prefix: string) {
    this.#consume = luaScript(client, CONSUME, 1);
    this.#clock = clock;
    this.#prefix = prefix;
  }

  async consume(key: string, rule: RateRule): Promise<RateDecision> {
    const now = this.#clock.now();
    const start = now - (now % rule.windowMs);
    const end = start + rule.windowMs;
    const windowKey = `${this.#prefix}rate:${rule.windowMs}:${start}:${key}`;
    const [allowed, count] = (await orUnavailable('Rate limiting', () => this.#consume([windowKey], [rule.limit, end - now + EXPIRY_MARGIN_MS]))) as [number, number];
    return { allowed: allowed === 1, limit: rule.limit, remaining: Math.max(0, rule.limit - count), resetMs: end - now };
  }
}
