import type { VendorErrorDetail } from '../../vendor-http/vendor-errors.js';

/** The structural subset of OpenAI's error body this adapter reads. */
interface OpenAIErrorBody {
  error?: { message?: string; type?: string; code?: string | null; param?: string | null };
}

/** Reads `{"error":{"message":"…","type":"invalid_request_error","code":"…"}}`; the code wins over the type. */
export function parseOpenAISpeechError(body: string): VendorErrorDetail | undefined {
  const error = (JSON.parse(body) as OpenAIErrorBody | null)?.error;
  if (typeof error !== 'object' || error === null) return undefined;
  const type = typeof error.code === 'string' && error.code ? error.code : error.type;
  return {
    ...(typeof type === 'string' ? { type } : {}),
    ...(typeof error.message === 'string' ? { message: error.message } : {}),
  };
}
