import type { Middleware } from 'koa';

/**
 * Headers every response carries: browsers must not guess a content type other than the one
 * sent (an uploaded or served file never runs as a script by accident), and pages linking
 * elsewhere do not leak the URL they came from.
 */
export function securityHeaders(): Middleware {
  return (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    return next();
  };
}
