import coBody from 'co-body';
import type { Context, Middleware, Next } from 'koa';

/** The methods whose JSON bodies are read; a body on any other method is left unread. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The body parser of a JSON route: an `application/json` body of POST, PUT or PATCH, decoded as
 * its `Content-Encoding` says (gzip, deflate, br) and read up to `limitBytes`, becomes
 * `ctx.state.body`. Strict JSON: the top level must be an object or an array. A body over the
 * limit is 413, malformed JSON 400 (co-body's errors carry these statuses, the error handler maps
 * them); anything else leaves `ctx.state.body` unset.
 */
export function jsonBody(limitBytes: number): Middleware {
  return async (ctx: Context, next: Next) => {
    if (BODY_METHODS.has(ctx.method) && ctx.is('application/json')) {
      ctx.state.body = (await coBody.json(ctx, { encoding: 'utf-8', limit: limitBytes, strict: true })) as unknown;
    }
    await next();
  };
}
