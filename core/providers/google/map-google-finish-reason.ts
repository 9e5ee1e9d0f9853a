import type { FinishReason } from '../chat-model.js';

/** Gemini's `finishReason` in the contract's terms. */
export function mapGoogleFinishReason(reason: string | undefined): FinishReason {
  switch (reason) {
    case 'STOP':
      return 'stop';
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
      return 'content-filter';
    default:
      return 'other'; // LANGUAGE, MALFORMED_FUNCTION_CALL, OTHER, FINISH_REASON_UNSPECIFIED, …
  }
}
