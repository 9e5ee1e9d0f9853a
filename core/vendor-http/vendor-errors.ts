import { ProviderError } from '../errors.js';
import { redactSecrets } from './redact-secrets.js';
import { parseRetryAfter } from './retry-delay.js';

/** What a vendor's error body says, in the vendor's own terms. */
export interface VendorErrorDetail {
  /** The vendor's error type or code, e.g. `rate_limit_error`, `RESOURCE_EXHAUSTED`. */
  type?: string;
  message?: string;
  /** A wait the body asks for (Gemini's `RetryInfo.retryDelay`), used when no header says one. */
  retryAfterMs?: number;
  /**
   * Overrides the status-based rule when the body knows better: OpenAI answers an exhausted
   * billing quota with 429 `insufficient_quota`, which no amount of waiting fixes.
   */
  isRetryable?: boolean;
}

/** Reads a vendor's error body (JSON usually); `undefined` when it is not in the vendor's shape. */
export type VendorErrorParser = (body: string) => VendorErrorDetail | undefined;

/** 408, 429 and every 5xx (including Anthropic's 529 "overloaded") may succeed when repeated. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

const maxMessageChars = 500;

/** What an operator should check for the statuses that are almost always configuration mistakes. */
const statusHints: Readonly<Record<number, string>> = Object.freeze({
  401: 'the vendor rejected the API key',
  403: 'the API key lacks access to this model or endpoint',
  404: 'check the model id and the base URL',
});

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > maxMessageChars ? `${flat.slice(0, maxMessageChars)}…` : flat;
}

export interface ResponseErrorInput {
  provider: string;
  status: number;
  headers: Headers;
  /** The response body as text, possibly cut short. */
  body: string;
  parseError: VendorErrorParser;
  /** Credentials to keep out of the message. */
  secrets: readonly (string | undefined)[];
  now: number;
  /** Header carrying the vendor's request id, quoted in the message for support tickets. */
  requestIdHeader?: string;
}

/**
 * A non-2xx vendor response as a {@link ProviderError}:
 * `openai: HTTP 429 rate_limit_exceeded: Rate limit reached … (request id req_…)`.
 * Retryable for 408 / 429 / 5xx; `retryAfterS` from `Retry-After` or the body.
 */
export function providerErrorFromResponse(input: ResponseErrorInput): ProviderError {
  const detail = safeParse(input.parseError, input.body);
  const parts = [`HTTP ${input.status}`];
  if (detail?.type) parts.push(` ${detail.type}`);
  const message = detail?.message ?? (input.body.trim() ? input.body : undefined);
  if (message) parts.push(`: ${clip(message)}`);
  const hint = statusHints[input.status];
  if (hint) parts.push(` (${hint})`);
  const requestId = input.requestIdHeader ? input.headers.get(input.requestIdHeader) : null;
  if (requestId) parts.push(` (request id ${clip(requestId)})`);
  const retryAfterMs = parseRetryAfter(input.headers, input.now) ?? detail?.retryAfterMs;
  return new ProviderError(input.provider, redactSecrets(parts.join(''), input.secrets), {
    vendorStatus: input.status,
    isRetryable: detail?.isRetryable ?? isRetryableStatus(input.status),
    ...(retryAfterMs === undefined ? {} : { retryAfterS: retryAfterMs / 1000 }),
  });
}

/**
 * An error the vendor reported inside a stream that had started with HTTP 200 (Anthropic's
 * `error` event, an OpenAI `{"error":…}` chunk, an Ollama `{"error":…}` line).
 */
export function providerErrorFromStream(
  provider: string,
  detail: VendorErrorDetail,
  secrets: readonly (string | undefined)[],
  isRetryable: boolean,
): ProviderError {
  const text = `stream error${detail.type ? ` ${detail.type}` : ''}: ${clip(detail.message ?? 'no message')}`;
  return new ProviderError(provider, redactSecrets(text, secrets), {
    isRetryable,
    ...(detail.retryAfterMs === undefined ? {} : { retryAfterS: detail.retryAfterMs / 1000 }),
  });
}

/** A failure below HTTP: refused, reset, DNS. Retryable; the message names the low-level cause. */
export function networkProviderError(
  provider: string,
  cause: unknown,
  phase: 'connect' | 'stream',
  secrets: readonly (string | undefined)[],
): ProviderError {
  const what = phase === 'connect' ? 'could not reach the vendor' : 'connection lost while streaming';
  const described = describeCause(cause);
  const redacted = redactSecrets(described, secrets);
  // The raw cause is kept for debugging unless it quotes a credential: loggers print cause chains.
  return new ProviderError(provider, `${what}: ${redacted}`, {
    isRetryable: true,
    ...(redacted === described ? { cause } : {}),
  });
}

/** The vendor did not answer (connect) or went silent mid-stream (idle). Retryable. */
export function timeoutProviderError(provider: string, kind: 'connect' | 'idle', ms: number): ProviderError {
  const text =
    kind === 'connect'
      ? `no response headers within ${ms} ms (connect timeout)`
      : `no data for ${ms} ms while streaming (idle timeout)`;
  return new ProviderError(provider, text, { isRetryable: true });
}

/** The body ended before the vendor's end-of-stream marker: treated like a dropped connection. */
export function truncatedStreamError(provider: string, expected: string): ProviderError {
  return new ProviderError(provider, `stream ended before ${expected} (connection closed early)`, {
    isRetryable: true,
  });
}

/** The vendor sent something that is not its documented wire format. Not retryable. */
export function malformedStreamError(provider: string, what: string, secrets: readonly (string | undefined)[]): ProviderError {
  return new ProviderError(provider, redactSecrets(`malformed stream: ${clip(what)}`, secrets), {
    isRetryable: false,
  });
}

/** `error.message` plus the chained `cause` codes undici hides the real reason in. */
export function describeCause(cause: unknown): string {
  const pieces: string[] = [];
  let current: unknown = cause;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    if (current instanceof Error) {
      const code = (current as Error & { code?: unknown }).code;
      pieces.push(typeof code === 'string' ? `${current.message} (${code})` : current.message);
      current = current.cause;
    } else {
      pieces.push(String(current));
      break;
    }
  }
  return clip(pieces.filter((p) => p.length > 0).join(': ') || 'unknown error');
}

function safeParse(parse: VendorErrorParser, body: string): VendorErrorDetail | undefined {
  try {
    return parse(body);
  } catch {
    return undefined;
  }
}

/**
 * "no API key configured", with the host's hint of how to give one (`set OPENAI_API_KEY` from the
 * server): the core does not know how its host is configured.
 */
export function missingKeyMessage(setupHint: string | undefined): string {
  return setupHint ? `no API key configured (${setupHint})` : 'no API key configured';
}
