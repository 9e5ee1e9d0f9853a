import { ValidationError } from '../errors.js';
import { sleep } from '../util/sleep.js';
import type { Sleep } from '../util/sleep.js';

/**
 * The injectable pieces of every vendor HTTP call: the `fetch` function, the sleep used between
 * retries, the timer used for timeouts, the clock and the jitter source. Tests replace them to run
 * retries and timeouts deterministically; production uses the Node globals.
 */

/** The subset of the WHATWG `fetch` the adapters use; Node 20's global `fetch` satisfies it. */
export type FetchFunction = (url: string, init: RequestInit) => Promise<Response>;

/** Waits `ms` milliseconds; rejects (or resolves early) when `signal` aborts. */
export type { Sleep } from '../util/sleep.js';

/** Runs `callback` once after `ms` milliseconds; the returned function cancels it. */
export type Schedule = (ms: number, callback: () => void) => () => void;

export interface HttpTimeouts {
  /** Longest wait from sending the request until the response headers arrive. */
  connectMs: number;
  /** Longest silence between two body chunks once the response started. */
  idleMs: number;
}

/** The HTTP part of every vendor factory's settings object. */
export interface VendorHttpSettings {
  /** Defaults to the global `fetch`. */
  fetch?: FetchFunction;
  /** Sleep between retry attempts; defaults to a real, abortable timer. */
  sleep?: Sleep;
  /** Timer for connect / idle timeouts; defaults to an unref'ed `setTimeout`. */
  schedule?: Schedule;
  /** Milliseconds since the epoch; used to turn a `Retry-After` HTTP date into a delay. */
  now?: () => number;
  /** Jitter source in [0, 1); defaults to `Math.random`. */
  random?: () => number;
  timeouts?: Partial<HttpTimeouts>;
  /** Retries after the first attempt for retryable failures; default 2 (3 attempts in all). */
  maxRetries?: number;
  backoff?: Partial<BackoffPolicy>;
}

/** {@link VendorHttpSettings} with every default applied; frozen per provider instance. */
export interface ResolvedHttpSettings {
  readonly fetch: FetchFunction;
  readonly sleep: Sleep;
  readonly schedule: Schedule;
  readonly now: () => number;
  readonly random: () => number;
  readonly timeouts: Readonly<HttpTimeouts>;
  readonly maxRetries: number;
  readonly backoff: Readonly<BackoffPolicy>;
}

export interface BackoffPolicy {
  /** Delay before the first retry, before jitter. */
  initialMs: number;
  /** Cap of the exponential delay. */
  maxMs: number;
  /** A `Retry-After` longer than this is not waited for: the error surfaces (and a fallback may run). */
  maxRetryAfterMs: number;
}

/**
 * Defaults: 10 s to the response headers, 30 s of silence mid-stream (vendors send keep-alive
 * pings well within that), two retries starting at 0.5 s, a server-requested wait of up to 60 s.
 */
export const defaultTimeouts: Readonly<HttpTimeouts> = Object.freeze({ connectMs: 10_000, idleMs: 30_000 });
export const defaultBackoff: Readonly<BackoffPolicy> = Object.freeze({
  initialMs: 500,
  maxMs: 8_000,
  maxRetryAfterMs: 60_000,
});
export const defaultMaxRetries = 2;

/** A real timer that does not keep the process alive on its own (the request it guards does). */
export const realSchedule: Schedule = (ms, callback) => {
  const timer = setTimeout(callback, ms);
  timer.unref?.();
  return () => clearTimeout(timer);
};

/**
 * Applies the defaults; validates numbers once, when the provider is built, not per request.
 * `vendorTimeouts` lets an adapter change the defaults where its vendor needs it (Ollama sends no
 * headers until a cold model has loaded); the operator's `settings.timeouts` still win.
 */
export function resolveHttpSettings(
  settings: VendorHttpSettings = {},
  vendorTimeouts: Partial<HttpTimeouts> = {},
): ResolvedHttpSettings {
  const timeouts = { ...defaultTimeouts, ...definedOnly(vendorTimeouts), ...definedOnly(settings.timeouts) };
  for (const [name, value] of Object.entries(timeouts)) {
    if (!Number.isFinite(value) || value <= 0) {
      throw new ValidationError(`timeouts.${name}`, `timeouts.${name} must be a positive number of milliseconds`);
    }
  }
  const backoff = { ...defaultBackoff, ...definedOnly(settings.backoff) };
  for (const [name, value] of Object.entries(backoff)) {
    if (!Number.isFinite(value) || value < 0) {
      throw new ValidationError(`backoff.${name}`, `backoff.${name} must be a number of milliseconds, 0 or more`);
    }
  }
  const maxRetries = settings.maxRetries ?? defaultMaxRetries;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) {
    throw new ValidationError('maxRetries', 'maxRetries must be an integer, 0 or more');
  }
  // Looked up per call, not captured: a host that swaps `globalThis.fetch` (a proxy agent) is honoured.
  const globalFetch: FetchFunction = (url, init) => fetch(url, init);
  return Object.freeze({
    fetch: settings.fetch ?? globalFetch,
    sleep: settings.sleep ?? sleep,
    schedule: settings.schedule ?? realSchedule,
    now: settings.now ?? Date.now,
    random: settings.random ?? Math.random,
    timeouts: Object.freeze(timeouts),
    maxRetries,
    backoff: Object.freeze(backoff),
  });
}

/** `{ connectMs: undefined }` must mean "default", not "undefined overrides the default". */
function definedOnly<T extends object>(values: T | undefined): Partial<T> {
  if (!values) return {};
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
