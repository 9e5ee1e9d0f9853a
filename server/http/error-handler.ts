import type { Middleware } from 'koa';
import { asStorageError, isServiceError } from '../../core/index.js';
import type { IdGenerator } from '../../core/index.js';
import type { Serializer } from '../edge/serializer.js';
import type { Logger } from '../observability/logger.js';
import { errorFields } from '../observability/logger.js';

export interface ErrorHandlerOptions {
  serializer: Serializer;
  ids: IdGenerator;
  /** Where unexpected errors are reported (with the request id); their details never reach the client. */
  logger: Logger;
}

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
}

/**
 * The first middleware: gives every response an `X-Request-Id`, answers unknown routes with a JSON
 * 404 and known paths called with another method with a JSON 405, and is the only place that
 * turns errors into HTTP responses. Core errors carry their own status; body-parser errors (too
 * large, bad JSON) are mapped here; anything else is a 500 with no detail.
 */
export function errorHandler({ serializer, ids, logger }: ErrorHandlerOptions): Middleware {
  return async (ctx, next) => {
    const requestId = ids.next('req');
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = serializer.error('not_found', `No route for ${ctx.method} ${ctx.path}`, requestId);
      } else if (ctx.status === 405 && ctx.body === undefined) {
        ctx.status = 405;
        ctx.body = serializer.error('method_not_allowed', `${ctx.path} does not take ${ctx.method}; it takes ${ctx.response.get('Allow')}`, requestId);
      }
    } catch (error) {
      const { status, code, message, retryAfterS } = describe(error);
      if (code === 'internal_error') logger.error({ req_id: requestId, ...errorFields(error) }, `${ctx.method} ${ctx.path} failed`);
      // The client hears "try again later"; the operator needs the cause (a full disk).
      else if (code === 'unavailable') {
        logger.warn({ req_id: requestId, ...errorFields(error instanceof Error ? (error.cause ?? error) : error) }, `${ctx.method} ${ctx.path} unavailable`);
      }
      if (ctx.headerSent || !ctx.writable) return;
      ctx.status = status;
      if (retryAfterS !== undefined) ctx.set('Retry-After', String(Math.max(1, Math.ceil(retryAfterS))));
      ctx.body = serializer.error(code, message, requestId);
    }
  };
}

function describe(thrown: unknown): { status: number; code: string; message: string; retryAfterS?: number } {
  // Any store's full disk is "try again later", not a 500.
  const error = asStorageError(thrown);
  if (isServiceError(error)) {
    return {
      status: error.status,
      code: error.code,
      message: error.message,
      ...(error.retryAfterS !== undefined && { retryAfterS: error.retryAfterS }),
    };
  }
  const http = (error ?? {}) as HttpLikeError;
  const status = http.status ?? http.statusCode;
  if (status === 413) return { status, code: 'payload_too_large', message: 'The request body is larger than the limit of 1 MiB' };
  if (status === 415) return { status, code: 'unsupported_media_type', message: 'Send the body as JSON with Content-Type: application/json' };
  if (status === 400 || (http.type === 'entity.parse.failed')) {
    return { status: 400, code: 'invalid_request', message: bodyParseMessage(error) };
  }
  if (status && status >= 400 && status < 500 && http.expose) {
    return { status, code: 'invalid_request', message: error instanceof Error ? error.message : 'Bad request' };
  }
  return { status: 500, code: 'internal_error', message: 'Something went wrong on our side; the request id identifies it in the logs' };
}

/** What was wrong with a body the JSON parser refused, in the client's terms. */
function bodyParseMessage(error: unknown): string {
  const reason = error instanceof Error ? error.message : '';
  if (reason.includes('only supports object and array')) return 'The request body must be a JSON object';
  if (reason.includes('forbidden prototype property')) return 'The request body must not contain a "__proto__" key';
  return 'The request body is not valid JSON';
}
