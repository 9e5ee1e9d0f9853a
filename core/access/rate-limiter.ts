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

/**
 * The in-process limiter: one map per instance. Each window remembers when it ends, so a sweep
 * prompted by a one-minute rule never drops a fifteen-minute window of another rule.
 */
export class MemoryRateLimiter implements RateLimiter {
  readonly #windows = new Map<string, { start: number; end: number; count: number }>();
  readonly #clock: Clock;
  #nextSweep = 0;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  async consume(key: string, rule: RateRule): Promise<RateDecision> {
    const now = this.#clock.now();
    this.#sweep(now);
    const start = now - (now % rule.windowMs);
    let window = this.#windows.get(key);
    if (!window || window.start !== start || window.end !== start + rule.windowMs) {
      window = { start, end: start + rule.windowMs, count: 0 };
      this.#windows.set(key, window);
    }
    const allowed = window.count < rule.limit;
    if (allowed) window.count++;
    // Never below zero: a limit lowered mid-window (a tier change) finds more counted than it allows.
    return { allowed, limit: rule.limit, remaining: Math.max(0, rule.limit - window.count), resetMs: window.end - now };
  }

  /** Drops ended windows, at most once a minute (each entry is dropped once its own window ends). */
  #sweep(now: number): void {
    if (now < this.#nextSweep) return;
    this.#nextSweep = now + SWEEP_INTERVAL_MS;
    for (const [key, window] of this.#windows) if (window.end <= now) this.#windows.delete(key);
  }
}

const SWEEP_INTERVAL_MS = 60_000;
