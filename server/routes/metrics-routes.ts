import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { ServiceError, UnauthorizedError } from '../../core/index.js';
import { parseBearer } from '../edge/credentials.js';
import { defineRoute } from '../http/route.js';
import type { Route } from '../http/route.js';
import type { Metrics } from '../observability/metrics.js';

const LOOPBACK = /^(?:127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `GET /metrics`: the Prometheus text exposition (README, Operations). With `METRICS_TOKEN` set it
 * needs `Authorization: Bearer <METRICS_TOKEN>` from anywhere; without it, only clients on this
 * machine that came through no proxy (loopback, no `Forwarded` / `X-Forwarded-For` header) may
 * read it, so metrics never leak through a public port or a reverse proxy by default.
 */
export function metricsRoute(metrics: Metrics, token: string | undefined): Route {
  const expected = token === undefined ? undefined : digest(token);
  return defineRoute({
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics (METRICS_TOKEN bearer; without it, loopback only)',
    tag: 'meta',
    auth: 'none',
    produces: ['text/plain'],
    async handle({ ctx }) {
      admit(ctx, expected);
      const { contentType, text } = await metrics.expose();
      ctx.type = contentType;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = text;
      return undefined;
    },
  });
}

function admit(ctx: Context, expected: Buffer | undefined): void {
  if (expected === undefined) {
    const direct = LOOPBACK.test(ctx.req.socket.remoteAddress ?? '') && !ctx.get('forwarded') && !ctx.get('x-forwarded-for');
    if (!direct) throw new ServiceError('forbidden', 'Metrics are served to this machine only; set METRICS_TOKEN to scrape them from elsewhere');
    return;
  }
  const presented = parseBearer(ctx.get('authorization'));
  if (!presented || !timingSafeEqual(digest(presented), expected)) throw new UnauthorizedError('Metrics need Authorization: Bearer <METRICS_TOKEN>');
}
