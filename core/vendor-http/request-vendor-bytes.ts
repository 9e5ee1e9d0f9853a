import { ProviderError, ServiceError } from '../errors.js';
import type { ResolvedHttpSettings } from './http-settings.js';
import type { VendorRequest } from './open-vendor-stream.js';
import { openVendorStream } from './open-vendor-stream.js';
import { abortError } from './read-body.js';
import { retryDelayMs } from './retry-delay.js';
import type { VendorErrorParser } from './vendor-errors.js';
import { describeCause } from './vendor-errors.js';

export interface RequestVendorBytesOptions {
  provider: string;
  http: ResolvedHttpSettings;
  request: VendorRequest;
  parseError: VendorErrorParser;
  /** Credentials to keep out of every message. */
  secrets: readonly (string | undefined)[];
  /** The caller's signal. */
  signal?: AbortSignal | undefined;
  requestIdHeader?: string;
  /** A response body larger than this fails (not retried); 32 MiB unless told. */
  maxBytes?: number;
}

/**
 * One non-streaming vendor call (a speech clip, say): POSTs the request and reads the whole response
 * body, retrying retryable failures — 408 / 429 / 5xx, a reset or refused connection, a connect or
 * idle timeout — with the same policy as `retryingChatStream`: the vendor's `Retry-After` when
 * it is at most `maxRetryAfterMs`, else exponential backoff with jitter, at most `maxRetries` times.
 * A caller abort, before or during an attempt or between attempts, rejects with an `AbortError` and
 * starts nothing new.
 *
 * @example
 * const mp3 = await requestVendorBytes({ provider: 'openai', http, request, parseError, secrets: [key], signal });
 */
export async function requestVendorBytes(options: RequestVendorBytesOptions): Promise<Uint8Array> {
  const { http, signal, provider } = options;
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw abortError();
    const controller = new AbortController();
    const forwardAbort = (): void => controller.abort();
    signal?.addEventListener('abort', forwardAbort, { once: true });
    let failure: unknown;
    try {
      const body = await openVendorStream({
        provider,
        http,
        request: options.request,
        controller,
        parseError: options.parseError,
        secrets: options.secrets,
        ...(options.requestIdHeader === undefined ? {} : { requestIdHeader: options.requestIdHeader }),
      });
      return await collect(body, maxBytes, provider);
    } catch (error) {
      failure = error;
    } finally {
      signal?.removeEventListener('abort', forwardAbort);
      controller.abort();
    }
    if (signal?.aborted) throw abortError();
    // Validation and other service errors are the caller's business, not a vendor hiccup.
    if (failure instanceof ServiceError && !(failure instanceof ProviderError)) throw failure;
    const error =
      failure instanceof ProviderError
        ? failure
        : new ProviderError(provider, `unexpected failure: ${describeCause(failure)}`, { isRetryable: false, cause: failure });
    const delay = retryDelayMs(error, attempt, http);
    if (delay === undefined) throw error;
    await http.sleep(delay, signal);
  }
}

async function collect(chunks: AsyncIterable<Uint8Array>, maxBytes: number, provider: string): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of chunks) {
    length += chunk.byteLength;
    if (length > maxBytes) {
      throw new ProviderError(provider, `response body is larger than ${maxBytes} bytes`, { isRetryable: false });
    }
    parts.push(chunk);
  }
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
