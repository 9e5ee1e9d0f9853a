/** Waits `ms`; resolves early (never rejects) when `signal` aborts, so callers check the signal. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * The real {@link Sleep}: a timer that stops early on abort and takes its abort listener with it.
 * Not `unref()`ed: a caller is awaiting it (a retry, a paced stream), so it is live work, and a
 * script whose only pending work is that wait must not exit in the middle of it.
 */
export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
