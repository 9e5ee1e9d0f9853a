import type { VendorErrorDetail } from '../../vendor-http/vendor-errors.js';
import { parseRetryAfterValue } from '../../vendor-http/retry-delay.js';

/** The structural subset of Google's error body (`google.rpc.Status` in JSON) this adapter reads. */
interface GoogleErrorBody {
  error?: {
    code?: number;
    message?: string;
    /** Canonical code name: `INVALID_ARGUMENT`, `PERMISSION_DENIED`, `RESOURCE_EXHAUSTED`, … */
    status?: string;
    details?: { '@type'?: string; retryDelay?: string }[];
  };
}

/**
 * Reads `{"error":{"code":400,"message":"…","status":"INVALID_ARGUMENT"}}`; a `RetryInfo` detail's
 * `retryDelay` ("30s") becomes the wait when no `Retry-After` header says one.
 */
export function parseGoogleSpeechError(body: string): VendorErrorDetail | undefined {
  const parsed = JSON.parse(body) as GoogleErrorBody;
  const error = parsed?.error;
  if (typeof error !== 'object' || error === null) return undefined;
  const retryDelay = error.details?.find((d) => d['@type']?.endsWith('google.rpc.RetryInfo'))?.retryDelay;
  const retryAfterMs = typeof retryDelay === 'string' ? parseRetryAfterValue(retryDelay.replace(/s$/, ''), 0) : undefined;
  return {
    ...(typeof error.status === 'string' ? { type: error.status } : {}),
    ...(typeof error.message === 'string' ? { message: error.message } : {}),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}
