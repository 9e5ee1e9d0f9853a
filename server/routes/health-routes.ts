import { ServiceError } from '../../core/index.js';
import { defineRoute } from '../http/route.js';
import type { Route } from '../http/route.js';
import { healthSchema } from '../http/resource-schemas.js';

/**
 * `GET /health`: for load balancers and monitors. 503 `unavailable` (with `Retry-After`) when the
 * database does not answer or writes are failing for lack of storage (a full disk).
 */
export function healthRoute(version: string, startedAt: number): Route {
  return defineRoute({
    method: 'get',
    path: '/health',
    summary: 'Health check',
    tag: 'health',
    auth: 'none',
    response: healthSchema.json,
    async handle({ service }) {
      const problem = await service.store.problem();
      if (problem) throw new ServiceError('unavailable', `Storage is unavailable: ${problem}`, { retryAfterS: 30 });
      return { status: 'ok', version, uptime_s: Math.floor((Date.now() - startedAt) / 1000) };
    },
  });
}
