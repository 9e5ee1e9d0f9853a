import type { Context } from 'koa';

/** A signal that aborts when the client goes away before the response is complete. */
export function requestSignal(ctx: Context): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort(new Error('client disconnected'));
  });
  return controller.signal;
}
