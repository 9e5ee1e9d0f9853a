import type { VendorErrorDetail } from '../../vendor-http/vendor-errors.js';
import type { OpenAIErrorObject } from './openai-api-types.js';

/** Reads `{"error": {"message", "type", "code"}}`; `undefined` for any other body. */
export function parseOpenAIError(body: string): VendorErrorDetail | undefined {
  const parsed = JSON.parse(body) as { error?: OpenAIErrorObject | string } | null;
  const error = parsed?.error;
  if (typeof error === 'string') return { message: error }; // some compatible servers
  if (!error || typeof error !== 'object') return undefined;
  return openAIErrorDetail(error);
}

/** The vendor's error object in our terms; `insufficient_quota` is a 429 that waiting never fixes. */
export function openAIErrorDetail(error: OpenAIErrorObject): VendorErrorDetail {
  const type = error.code ?? error.type ?? undefined;
  return {
    ...(type ? { type } : {}),
    ...(error.message ? { message: error.message } : {}),
    ...(type === 'insufficient_quota' ? { isRetryable: false } : {}),
  };
}

/** Whether an error reported inside a started stream may succeed when the request is repeated. */
export function isRetryableOpenAIStreamError(detail: VendorErrorDetail): boolean {
  return detail.isRetryable ?? /server_error|overloaded|rate_limit|timeout/i.test(detail.type ?? '');
}
