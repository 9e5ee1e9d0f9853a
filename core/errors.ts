/**
 * The one error family of the core. Every failure a caller can act on is a `ServiceError` with a
 * `code` from {@link ErrorCode}; hosts (the Koa server, a user's own app) map codes to their
 * transport. The core never speaks HTTP, but it records the status a well-behaved HTTP host should
 * use so that mapping lives in one table.
 */
export const ErrorCode = {
  invalidRequest: 'invalid_request',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  conversationEnded: 'conversation_ended',
  conversationBusy: 'conversation_busy',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  rangeNotSatisfiable: 'range_not_satisfiable',
  rateLimited: 'rate_limited',
  tooManyConnections: 'too_many_connections',
  providerError: 'provider_error',
  unavailable: 'unavailable',
  internalError: 'internal_error',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const statusOf: Record<ErrorCode, number> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  conversation_ended: 409,
  conversation_busy: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  rate_limited: 429,
  too_many_connections: 429,
  provider_error: 502,
  unavailable: 503,
  internal_error: 500,
};

export interface ServiceErrorOptions {
  cause?: unknown;
  /** The request field at fault, for validation errors. */
  field?: string;
  /** Whether repeating the same call later may succeed. */
  isRetryable?: boolean;
  /** Seconds after which a retry makes sense (rate limits, vendor back-off). */
  retryAfterS?: number;
}

export class ServiceError extends Error {
  override readonly name: string = 'ServiceError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly field: string | undefined;
  readonly isRetryable: boolean;
  readonly retryAfterS: number | undefined;

  constructor(code: ErrorCode, message: string, options: ServiceErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = statusOf[code];
    this.field = options.field;
    this.isRetryable = options.isRetryable ?? false;
    this.retryAfterS = options.retryAfterS;
  }
}

/** A request field broke a rule; the message names the field and the rule. */
export class ValidationError extends ServiceError {
  override readonly name = 'ValidationError';
  constructor(field: string, message: string) {
    super(ErrorCode.invalidRequest, message, { field });
  }
}

/**
 * An option of `createAvatarService` (or of a provider factory) breaks a rule; thrown at
 * construction so an embedding app fails at start. The message starts with the option's name.
 */
export class ConfigurationError extends ServiceError {
  override readonly name = 'ConfigurationError';
  readonly option: string;
  constructor(option: string, problem: string) {
    super(ErrorCode.invalidRequest, `${option}: ${problem}`, { field: option });
    this.option = option;
  }
}

export class NotFoundError extends ServiceError {
  override readonly name = 'NotFoundError';
  constructor(resource: string, id: string) {
    super(ErrorCode.notFound, `No ${resource} with id '${id}'`);
  }
}

/** The caller may see the resource but not change it (the avatar presets are read-only). */
export class ForbiddenError extends ServiceError {
  override readonly name = 'ForbiddenError';
  constructor(message: string) {
    super(ErrorCode.forbidden, message);
  }
}

export class UnauthorizedError extends ServiceError {
  override readonly name = 'UnauthorizedError';
  constructor(message = 'A valid API key is required: send Authorization: Bearer svc_…') {
    super(ErrorCode.unauthorized, message);
  }
}

/**
 * An AI or speech vendor failed. `isRetryable` tells retry loops whether another attempt may help
 * (429, 5xx, connection reset); the message helps an operator and never contains a credential.
 */
export class ProviderError extends ServiceError {
  override readonly name = 'ProviderError';
  readonly provider: string;
  readonly vendorStatus: number | undefined;
  constructor(
    provider: string,
    message: string,
    options: ServiceErrorOptions & { vendorStatus?: number } = {},
  ) {
    super(ErrorCode.providerError, `${provider}: ${message}`, options);
    this.provider = provider;
    this.vendorStatus = options.vendorStatus;
  }
}

export function isServiceError(error: unknown): error is ServiceError {
  return error instanceof ServiceError;
}

/** True when `error` is the rejection of an aborted signal. */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/** File-system failures that mean "no room or no working disk right now", not a bug. */
const STORAGE_UNAVAILABLE = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO', 'EMFILE', 'ENFILE']);

/**
 * A full or failing disk as 503 `unavailable` with a retry delay (the cause stays attached for the
 * operator); any other error is returned unchanged.
 */
export function asStorageError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !STORAGE_UNAVAILABLE.has(code)) return error;
  return new ServiceError(ErrorCode.unavailable, 'Storage is temporarily unavailable; try again later', { cause: error, retryAfterS: 30 });
}
