import type { VendorErrorDetail } from '../../vendor-http/vendor-errors.js';
import type { AnthropicErrorObject } from './anthropic-api-types.js';

/** Reads `{"type":"error","error":{"type","message"}}`; `undefined` for any other body. */
export function parseAnthropicError(body: string): VendorErrorDetail | undefined {
  const parsed = JSON.parse(body) as { error?: AnthropicErrorObject } | null;
  if (!parsed?.error || typeof parsed.error !== 'object') return undefined;
  return anthropicErrorDetail(parsed.error);
}

export function anthropicErrorDetail(error: AnthropicErrorObject): VendorErrorDetail {
  return {
    ...(error.type ? { type: error.type } : {}),
    ...(error.message ? { message: error.message } : {}),
  };
}

/**
 * Error types Anthropic documents as transient: `overloaded_error` (HTTP 529 outside a stream),
 * `api_error` (500), `rate_limit_error` (429), and a `timeout_error`.
 */
export function isRetryableAnthropicError(type: string | undefined): boolean {
  return type === 'overloaded_error' || type === 'api_error' || type === 'rate_limit_error' || type === 'timeout_error';
}
