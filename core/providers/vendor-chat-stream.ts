import type { ChatRequest, ChatStreamPart } from './chat-model.js';
import type { ProviderError } from '../errors.js';
import { resolveUsage } from './token-count.js';
import type { ResolvedHttpSettings } from '../vendor-http/http-settings.js';
import type { VendorRequest } from '../vendor-http/open-vendor-stream.js';
import { openVendorStream } from '../vendor-http/open-vendor-stream.js';
import { retryingChatStream } from './retrying-chat-stream.js';
import type { VendorErrorParser } from '../vendor-http/vendor-errors.js';

export interface VendorChatStreamOptions {
  provider: string;
  http: ResolvedHttpSettings;
  request: ChatRequest;
  /**
   * Serializes the vendor request. Called once, inside the first attempt, so that a request the
   * adapter cannot serialize becomes an error part instead of a throw from `stream()`.
   */
  vendorRequest: () => VendorRequest;
  parseError: VendorErrorParser;
  /** Credentials to keep out of every error message. */
  secrets: readonly (string | undefined)[];
  /** Response header with the vendor's request id, quoted in error messages. */
  requestIdHeader?: string;
  /**
   * The vendor-specific part: turns one response body into text deltas and exactly one `finish`
   * part, or throws a {@link ProviderError} (a stream error event, a truncated or malformed body).
   */
  decode(body: AsyncIterable<Uint8Array>): AsyncIterable<ChatStreamPart>;
}

/**
 * One streamed chat call to a vendor with everything vendors have in common: POST with connect
 * and idle timeouts, errors mapped to {@link ProviderError} without the key, retries before the
 * first delta (see {@link retryingChatStream}), and abort. Adapters supply only the request and
 * the body decoder, so each vendor folder holds just what is specific to that vendor.
 */
export function vendorChatStream(options: VendorChatStreamOptions): AsyncGenerator<ChatStreamPart> {
  const { provider, http, request } = options;
  let serialized: VendorRequest | undefined;
  return retryingChatStream({
    provider,
    http,
    signal: request.signal,
    async *attempt(controller) {
      const body = await openVendorStream({
        provider,
        http,
        request: (serialized ??= options.vendorRequest()),
        controller,
        parseError: options.parseError,
        secrets: options.secrets,
        ...(options.requestIdHeader === undefined ? {} : { requestIdHeader: options.requestIdHeader }),
      });
      yield* options.decode(body);
    },
    // A cut-short stream carries no usage from any vendor: both sides are ESTIMATED with the
    // tokenizer-like count of token-count.ts (the request, and the text streamed so far).
    usageOnAbort: (text) => resolveUsage(request, text),
  });
}

/** A stream that fails at once, before any request: a missing key, an unusable request. */
export async function* failedChatStream(error: ProviderError): AsyncGenerator<ChatStreamPart> {
  yield { type: 'error', error };
}
