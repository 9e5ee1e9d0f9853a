import type { Middleware } from 'koa';

/**
 * One line per request once its response is finished (for a stream: when it ends):
 * `2026-11-23T13:40:00.123Z GET /v1/conversations/conv_… 200 3.2ms req_…`. The path only, never
 * the query string, so credentials passed there stay out of logs.
 */
export function accessLog(write: (line: string) => void): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    const { method, path } = ctx;
    let logged = false;
    const log = () => {
      if (logged) return;
      logged = true;
      const ms = (performance.now() - started).toFixed(1);
      const status = ctx.res.writableFinished ? ctx.status : `${ctx.status} (closed early)`;
      write(`${new Date().toISOString()} ${method} ${path} ${status} ${ms}ms ${String(ctx.state.requestId ?? '-')}`);
    };
    ctx.res.once('finish', log);
    ctx.res.once('close', log);
    await next();
  };
}
