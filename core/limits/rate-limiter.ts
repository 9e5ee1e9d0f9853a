import type { Clock } from '../clock.js';

export interface RateRule {
  limit: number;
  windowMs: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/**
 * Counts requests in fixed windows. `consume` is one atomic step (count and decide), so engines
 * shared by several processes (Redis) implement the same call.
 */
export interface RateLimiter {
  consume(key: string, rule: RateRule): Promise<RateDecision>;
}

/** The in-process limiter: one map per instance, expired windows dropped as they are met. */
export class MemoryRateLimiter implements RateLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();
  readonly #clock: Clock;
  #lastSweep = 0;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  async consume(key: string, rule: RateRule): Promise<RateDecision> {
    const now = this.#clock.now();
    this.#sweep(now, rule.windowMs);
    const start = now - (now % rule.windowMs);
    let window = this.#windows.get(key);
    if (!window || window.start !== start) {
      window = { start, count: 0 };
      this.#windows.set(key, window);
    }
    const allowed = window.count < rule.limit;
    if (allowed) window.count++;
    return { allowed, limit: rule.limit, remaining: rule.limit - window.count, resetMs: start + rule.windowMs - now };
  }

  #sweep(now: number, windowMs: number): void {
    if (now - this.#lastSweep < windowMs) return;
    this.#lastSweep = now;
    for (const [key, window] of this.#windows) if (window.start + windowMs <= now) this.#windows.delete(key);
  }
}
