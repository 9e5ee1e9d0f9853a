import type { VendorErrorDetail } from '../../vendor-http/vendor-errors.js';

/** The structural subset of ElevenLabs' error bodies this adapter reads. */
interface ElevenLabsErrorBody {
  /**
   * `{status, message}` for API errors (`invalid_api_key`, `quota_exceeded`, `voice_not_found`, …),
   * a list of `{loc, msg, type}` for request validation (422), or plain text.
   */
  detail?: { status?: string; message?: string } | { loc?: unknown[]; msg?: string; type?: string }[] | string;
}

/** Reads `{"detail":{"status":"invalid_api_key","message":"…"}}` and its 422 / string variants. */
export function parseElevenLabsSpeechError(body: string): VendorErrorDetail | undefined {
  const detail = (JSON.parse(body) as ElevenLabsErrorBody | null)?.detail;
  if (typeof detail === 'string') return { message: detail };
  if (Array.isArray(detail)) {
    const message = detail
      .map((d) => `${Array.isArray(d.loc) ? `${d.loc.join('.')}: ` : ''}${d.msg ?? ''}`)
      .filter((m) => m.length > 0)
      .join('; ');
    return { type: 'validation_error', ...(message ? { message } : {}) };
  }
  if (typeof detail !== 'object' || detail === null) return undefined;
  return {
    ...(typeof detail.status === 'string' ? { type: detail.status } : {}),
    ...(typeof detail.message === 'string' ? { message: detail.message } : {}),
  };
}
