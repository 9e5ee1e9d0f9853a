import { ProviderError } from '../errors.js';
import type { ResolvedHttpSettings } from './http-settings.js';
import { abortError, readBody, readBodyText } from './read-body.js';
import type { VendorErrorParser } from './vendor-errors.js';
import { networkProviderError, providerErrorFromResponse, timeoutProviderError } from './vendor-errors.js';

/** One HTTP request to a vendor, already serialized. */
export interface VendorRequest {
  url: string;
  headers: Readonly<Record<string, string>>;
  /** JSON text. */
  body: string;
}

export interface OpenVendorStreamOptions {
  provider: string;
  http: ResolvedHttpSettings;
  request: VendorRequest;
  /** The attempt's controller; a connect timeout aborts it. */
  controller: AbortController;
  parseError: VendorErrorParser;
  secrets: readonly (string | undefined)[];
  /** Response header with the vendor's request id (quoted in error messages). */
  requestIdHeader?: string;
}

/**
 * POSTs the request and returns the response body as a chunk sequence guarded by the idle timeout
 * (see {@link readBody}). Throws a {@link ProviderError} when the headers do not arrive within
 * `connectMs`, on network failure, or on a non-2xx status (with the vendor's error type and
 * message, the `Retry-After` hint, and no credential); throws an `AbortError` when aborted.
 */
export async function openVendorStream(options: OpenVendorStreamOptions): Promise<AsyncGenerator<Uint8Array>> {
  const { http, controller, provider } = options;
  const { signal } = controller;
  if (signal.aborted) throw abortError();
  let connectTimedOut = false;
  const cancelTimer = http.schedule(http.timeouts.connectMs, () => {
    connectTimedOut = true;
    controller.abort();
  });
  let response: Response;
  try {
    response = await http.fetch(options.request.url, {
      method: 'POST',
      headers: { ...options.request.headers },
      body: options.request.body,
      signal,
    });
  } catch (error) {
    if (connectTimedOut) throw timeoutProviderError(provider, 'connect', http.timeouts.connectMs);
    if (signal.aborted) throw abortError();
    throw networkProviderError(provider, error, 'connect', options.secrets);
  } finally {
    cancelTimer();
  }
  const readOptions = {
    provider,
    idleMs: http.timeouts.idleMs,
    schedule: http.schedule,
    controller,
    secrets: options.secrets,
  };
  if (!response.ok) {
    let text = '';
    try {
      text = await readBodyText(response.body, readOptions);
    } catch (error) {
      if (signal.aborted && !(error instanceof ProviderError)) throw abortError();
      // The status alone still says what happened; a body that failed to arrive is not worth more.
    }
    throw providerErrorFromResponse({
      provider,
      status: response.status,
      headers: response.headers,
      body: text,
      parseError: options.parseError,
      secrets: options.secrets,
      now: http.now(),
      ...(options.requestIdHeader === undefined ? {} : { requestIdHeader: options.requestIdHeader }),
    });
  }
  return readBody(response.body, readOptions);
}
