import type { ChatStreamPart, TokenUsage } from './chat-model.js';
import { ProviderError } from '../errors.js';
import type { ResolvedHttpSettings } from '../vendor-http/http-settings.js';
import { retryDelayMs } from '../vendor-http/retry-delay.js';
import { describeCause } from '../vendor-http/vendor-errors.js';

export interface RetryingChatStreamOptions {
  provider: string;
  http: ResolvedHttpSettings;
  /** The caller's signal (`ChatRequest.signal`). */
  signal?: AbortSignal | undefined;
  /**
   * One attempt: yields deltas and ends with a `finish` part, or throws a {@link ProviderError}.
   * The controller is the attempt's own: aborted when the caller aborts, when a timeout fires, and
   * when the consumer stops iterating, so the attempt can release its connection.
   */
  attempt(controller: AbortController): AsyncIterable<ChatStreamPart>;
  /**
   * Usage to report when the caller aborts after a request went out: vendors send no usage for a
   * cut-short stream, so this is usually an estimate from the request and the text streamed so far.
   */
  usageOnAbort(streamedText: string): TokenUsage;
}

/**
 * Runs attempts until one finishes, turning failures into the stream contract of
 * {@link ChatModel}: never throws, ends with exactly one `finish` or `error` part.
 *
 * A failed attempt is retried only when (1) no text delta was emitted yet, so the consumer never
 * sees text twice, (2) the error is retryable (429, 5xx, network error, timeout), and (3) retries
 * remain. The wait honours `retryAfterS` from the vendor (a 429's `Retry-After`) when it is at most
 * `maxRetryAfterMs`, else exponential backoff with jitter. A caller abort — before, during or
 * between attempts — ends the stream with `finish` reason `aborted`.
 */
export async function* retryingChatStream(options: RetryingChatStreamOptions): AsyncGenerator<ChatStreamPart> {
  const { http, signal, provider } = options;
  let streamed = '';
  let emitted = false;
  const aborted = (requestsSent: number): ChatStreamPart => ({
    type: 'finish',
    finishReason: 'aborted',
    // Aborted before the first request went out: nothing reached the vendor, nothing to count.
    usage: requestsSent === 0 ? { inputTokens: 0, outputTokens: 0 } : options.usageOnAbort(streamed),
  });
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) {
      yield aborted(attempt);
      return;
    }
    const controller = new AbortController();
    const forwardAbort = (): void => controller.abort();
    signal?.addEventListener('abort', forwardAbort, { once: true });
    let failure: unknown;
    let failed = false;
    try {
      for await (const part of options.attempt(controller)) {
        if (part.type === 'text-delta') {
          if (part.delta.length === 0) continue;
          emitted = true;
          streamed += part.delta;
          yield part;
        } else if (part.type === 'finish') {
          yield part;
          return;
        } else {
          failed = true;
          failure = part.error;
          break;
        }
      }
      if (!failed) {
        failed = true;
        failure = new ProviderError(provider, 'stream ended without a finish', { isRetryable: true });
      }
    } catch (error) {
      failed = true;
      failure = error;
    } finally {
      signal?.removeEventListener('abort', forwardAbort);
      controller.abort();
    }
    if (signal?.aborted) {
      yield aborted(attempt + 1);
      return;
    }
    const error = asProviderError(provider, failure);
    const delay = emitted ? undefined : retryDelayMs(error, attempt, http);
    if (delay === undefined) {
      yield { type: 'error', error };
      return;
    }
    try {
      await http.sleep(delay, signal);
    } catch {
      // An injected sleep may reject on abort instead of resolving early; the loop head reports it.
    }
  }
}

function asProviderError(provider: string, failure: unknown): ProviderError {
  if (failure instanceof ProviderError) return failure;
  return new ProviderError(provider, `unexpected failure: ${describeCause(failure)}`, {
    isRetryable: false,
    cause: failure,
  });
}
