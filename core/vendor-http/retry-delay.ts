import type { ProviderError } from '../errors.js';
import type { BackoffPolicy, ResolvedHttpSettings } from './http-settings.js';

/**
 * How long a server asked us to wait, in milliseconds, from the response headers:
 * `retry-after-ms` (OpenAI's precise variant) first, then `Retry-After` as delay-seconds or as an
 * HTTP date (RFC 9110 §10.2.3). `undefined` when absent or unparsable; never negative.
 *
 * @example parseRetryAfter(new Headers({ 'retry-after': '7' }), Date.now()) // → 7000
 */
export function parseRetryAfter(headers: Headers, nowMs: number): number | undefined {
  const precise = headers.get('retry-after-ms');
  if (precise !== null && /^\s*\d+(\.\d+)?\s*$/.test(precise)) return Math.max(0, Number(precise));
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  return parseRetryAfterValue(value, nowMs);
}

/** One `Retry-After` value: delay-seconds (`"120"`) or an HTTP date (`"Wed, 21 Oct 2026 07:28:00 GMT"`). */
export function parseRetryAfterValue(value: string, nowMs: number): number | undefined {
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  // HTTP dates always name the weekday or month in letters; this keeps Date.parse from accepting "12-1".
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/**
 * Exponential backoff with jitter for retry number `retry` (0 for the first retry):
 * `min(maxMs, initialMs · 2^retry)`, then reduced by up to 25 % at random so that many clients
 * failing together do not retry in lock-step.
 */
export function backoffDelayMs(retry: number, policy: BackoffPolicy, random: () => number): number {
  const exponential = Math.min(policy.maxMs, policy.initialMs * 2 ** retry);
  const jitter = 1 - 0.25 * Math.min(Math.max(random(), 0), 1);
  return Math.round(exponential * jitter);
}

/** The wait before retry number `attempt` + 1, or `undefined` when the error must surface. */
export function retryDelayMs(error: ProviderError, attempt: number, http: ResolvedHttpSettings): number | undefined {
  if (!error.isRetryable || attempt >= http.maxRetries) return undefined;
  if (error.retryAfterS !== undefined) {
    const ms = error.retryAfterS * 1000;
    return ms <= http.backoff.maxRetryAfterMs ? ms : undefined;
  }
  return backoffDelayMs(attempt, http.backoff, http.random);
}
