import type { Middleware } from 'koa';

/**
 * Headers every response carries: browsers must not guess a content type other than the one
 * sent (an uploaded or served file never runs as a script by accident), and pages linking
 * elsewhere do not leak the URL they came from.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export function securityHeaders(): Middleware {
  return (ctx, next) => {
    ctx.set(SECURITY_HEADERS);
    return next();
  };
}
