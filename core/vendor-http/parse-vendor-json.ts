import { malformedStreamError } from './vendor-errors.js';

/**
 * Parses one SSE `data` payload or NDJSON line that must be a JSON object. Anything else is not
 * the vendor's documented format and fails with a non-retryable "malformed stream" error quoting
 * the start of the offending text (with credentials redacted).
 *
 * The result is typed as the adapter's own structural subset of the vendor's wire type; adapters
 * read it with optional chaining, since vendors add and omit fields freely.
 */
export function parseVendorJson<T extends object>(
  provider: string,
  text: string,
  secrets: readonly (string | undefined)[],
): Partial<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw malformedStreamError(provider, `not JSON: ${text.slice(0, 120)}`, secrets);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw malformedStreamError(provider, `expected a JSON object: ${text.slice(0, 120)}`, secrets);
  }
  return value as Partial<T>;
}

/** A count the vendor reported, or `undefined` for anything that is not a non-negative number. */
export function reportedCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
