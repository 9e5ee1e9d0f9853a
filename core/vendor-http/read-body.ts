import type { Schedule } from './http-settings.js';
import { networkProviderError, timeoutProviderError } from './vendor-errors.js';

export interface ReadBodyOptions {
  provider: string;
  /** Longest silence between two chunks before the read fails with an idle timeout. */
  idleMs: number;
  schedule: Schedule;
  /** The attempt's controller: aborting it stops the read; an idle timeout aborts it. */
  controller: AbortController;
  secrets: readonly (string | undefined)[];
}

/** The rejection used when the attempt's signal aborted (by the caller, or because it stopped reading). */
export function abortError(): Error {
  return new DOMException('The vendor request was aborted', 'AbortError');
}

/**
 * Reads a response body chunk by chunk. Each read races an idle timer: silence longer than `idleMs`
 * cancels the body and throws a retryable {@link timeoutProviderError}. An abort of the controller
 * cancels the body at once (so the vendor sees the connection close and stops generating) and
 * throws an `AbortError`. A dropped connection throws a retryable network error. The timer runs
 * only while waiting on the vendor, never while the consumer handles a chunk.
 */
export async function* readBody(
  body: ReadableStream<Uint8Array> | null,
  options: ReadBodyOptions,
): AsyncGenerator<Uint8Array> {
  if (body === null) return;
  const reader = body.getReader();
  const { signal } = options.controller;
  const cancelBody = (): void => {
    reader.cancel().catch(() => undefined);
  };
  signal.addEventListener('abort', cancelBody, { once: true });
  try {
    for (;;) {
      if (signal.aborted) throw abortError();
      let idle = false;
      const cancelTimer = options.schedule(options.idleMs, () => {
        idle = true;
        options.controller.abort();
      });
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (error) {
        if (idle) throw timeoutProviderError(options.provider, 'idle', options.idleMs);
        if (signal.aborted) throw abortError();
        throw networkProviderError(options.provider, error, 'stream', options.secrets);
      } finally {
        cancelTimer();
      }
      // A cancel resolves the pending read as `done`; tell the cases apart by why it was cancelled.
      if (idle) throw timeoutProviderError(options.provider, 'idle', options.idleMs);
      if (signal.aborted) throw abortError();
      if (result.done) return;
      yield result.value;
    }
  } finally {
    signal.removeEventListener('abort', cancelBody);
    cancelBody();
  }
}

/** Reads a whole (error) body as text, with the same idle timeout, keeping at most `maxBytes`. */
export async function readBodyText(
  body: ReadableStream<Uint8Array> | null,
  options: ReadBodyOptions,
  maxBytes = 64 * 1024,
): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for await (const chunk of readBody(body, options)) {
    const room = maxBytes - bytes;
    text += decoder.decode(chunk.subarray(0, Math.max(0, room)), { stream: true });
    bytes += chunk.byteLength;
    if (bytes >= maxBytes) break;
  }
  return text + decoder.decode();
}
