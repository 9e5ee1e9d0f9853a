import type { VendorErrorDetail } from '../../vendor-http/vendor-errors.js';
import type { GoogleErrorObject } from './google-api-types.js';

/**
 * Reads a `google.rpc.Status` body, `{"error": {…}}` or the same wrapped in an array. A 429's
 * wait is in a `RetryInfo` detail (`"retryDelay": "37s"`), not in a `Retry-After` header.
 */
export function parseGoogleError(body: string): VendorErrorDetail | undefined {
  const parsed = JSON.parse(body) as unknown;
  const container = (Array.isArray(parsed) ? parsed[0] : parsed) as { error?: GoogleErrorObject } | null | undefined;
  if (!container?.error || typeof container.error !== 'object') return undefined;
  return googleErrorDetail(container.error);
}

export function googleErrorDetail(error: GoogleErrorObject): VendorErrorDetail {
  const retryDelay = error.details?.find((d) => d['@type']?.endsWith('google.rpc.RetryInfo'))?.retryDelay;
  const retryAfterMs = parseDuration(retryDelay);
  return {
    ...(error.status ? { type: error.status } : {}),
    ...(error.message ? { message: error.message } : {}),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

/** Status codes of google.rpc that may succeed when repeated. */
export function isRetryableGoogleStatus(status: string | undefined): boolean {
  return status === 'RESOURCE_EXHAUSTED' || status === 'UNAVAILABLE' || status === 'INTERNAL' || status === 'DEADLINE_EXCEEDED';
}

/** A protobuf JSON duration (`"37s"`, `"1.5s"`) in milliseconds. */
function parseDuration(value: string | undefined): number | undefined {
  const match = value?.match(/^(\d+(?:\.\d+)?)s$/);
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}
