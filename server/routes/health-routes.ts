import { defineRoute } from '../http/route.js';
import type { Route } from '../http/route.js';
import { healthSchema } from '../http/resource-schemas.js';

/** `GET /health`: for load balancers and monitors; checks the database answers. */
export function healthRoute(version: string, startedAt: number): Route {
  return defineRoute({
    method: 'get',
    path: '/health',
    summary: 'Health check',
    tag: 'health',
    auth: 'none',
    response: healthSchema.json,
    async handle({ service }) {
      await service.store.accounts.count();
      return { status: 'ok', version, uptime_s: Math.floor((Date.now() - startedAt) / 1000) };
    },
  });
}
