import type { Middleware } from 'koa';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';

export interface RequestObserverOptions {
  metrics: Metrics;
  /** Receives one `request` line per request at `info`; none when absent (`ACCESS_LOG=false`). */
  logger: Logger | undefined;
}

/**
 * The outermost middleware: once a response is finished (a stream: when it ends, or its client
 * leaves), counts it by route template — `/v1/conversations/:id`, never the raw path, so the
 * number of series stays bounded; `unmatched` for paths no route has — and status, and logs one
 * line: `{"level":"info","req_id":"req_…","method":"GET","path":"/v1/…","route":"/v1/…","status":200,"ms":3.2,"msg":"request"}`.
 * The path only, never the query string, so credentials passed there stay out of logs.
 */
export function observeRequests({ metrics, logger }: RequestObserverOptions): Middleware {
  const log = logger?.isLevelEnabled('info') ? logger : undefined;
  return async (ctx, next) => {
    const started = performance.now();
    const observe = () => {
      const ms = performance.now() - started;
      const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      metrics.request(ctx.method, route, ctx.status, ms / 1000);
      if (!log) return;
      const line = { req_id: ctx.state.requestId as string | undefined, method: ctx.method, path: ctx.path, route, status: ctx.status, ms: Math.round(ms * 10) / 10 };
      if (ctx.res.writableFinished) log.info(line, 'request');
      else log.info({ ...line, closed_early: true }, 'request');
    };
    // `close` follows `finish`, or comes alone when the client leaves first: one listener serves both.
    ctx.res.once('close', observe);
    await next();
  };
}
