import type { Middleware } from 'koa';

const EXPOSED = ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Content-Range', 'ETag'].join(', ');

/** The CORS headers of an answer (not a preflight) to a request from `origin`; `Vary: Origin` goes with them. */
export function corsHeaders(origin: string): Record<string, string> {
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': EXPOSED };
}

/**
 * CORS for browsers calling the API from other sites (the widget). Credentials travel in the
 * Authorization header, never in cookies, so any origin may call; a key that lists allowed
 * origins is enforced when the request is authenticated (a refused origin gets 401, which the
 * browser also hides from the page). Preflights are answered here.
 */
export function cors(): Middleware {
  return async (ctx, next) => {
    const origin = ctx.get('origin');
    if (!origin) return next();
    ctx.vary('Origin');
    if (ctx.method === 'OPTIONS' && ctx.get('access-control-request-method')) {
      ctx.set({
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': 'GET, HEAD, POST, PATCH, DELETE',
        'Access-Control-Allow-Headers': 'Authorization, Content-Type, Range, If-None-Match',
        'Access-Control-Max-Age': '600',
      });
      ctx.status = 204;
      return;
    }
    ctx.set(corsHeaders(origin));
    await next();
  };
}
