import { ServiceError } from '../../core/index.js';
import { defineRoute } from '../http/route.js';
import type { Route } from '../http/route.js';
import { healthReportSchema, healthSchema, liveSchema } from '../http/resource-schemas.js';
import type { HealthChecks, HealthReport, Lifecycle } from '../observability/health.js';

/** What the health routes read: the checks of every dependency and whether the server is stopping. */
export interface HealthSources {
  checks: HealthChecks;
  lifecycle: Lifecycle;
  version: string;
  startedAt: number;
}

const uptime = (startedAt: number) => Math.floor((Date.now() - startedAt) / 1000);

function problemOf(report: HealthReport, lifecycle: Lifecycle): string | undefined {
  if (lifecycle.stopping) return 'The server is shutting down';
  const failing = Object.entries(report.checks).filter(([, result]) => result.status !== 'ok');
  if (failing.length === 0) return undefined;
  return failing.map(([name, result]) => `${name}: ${result.problem ?? 'failing'}`).join('; ');
}

/**
 * `GET /health` (also under `/v1`): for monitors, as it always was — 200 with the version, or
 * 503 `unavailable` (with `Retry-After`) when a dependency fails or the server is stopping; the
 * 200 now also carries each dependency's check.
 */
export function healthRoute({ checks, lifecycle, version, startedAt }: HealthSources): Route {
  return defineRoute({
    method: 'get',
    path: '/health',
    summary: 'Health check: every dependency answers',
    tag: 'health',
    auth: 'none',
    response: healthSchema.json,
    async handle() {
      const report = await checks.run();
      const problem = problemOf(report, lifecycle);
      if (problem) throw new ServiceError('unavailable', `Unavailable: ${problem}`, { retryAfterS: lifecycle.stopping ? 1 : 30 });
      return { status: 'ok', version, uptime_s: uptime(startedAt), checks: report.checks };
    },
  });
}

/**
 * `GET /health/live` and `GET /health/ready`, for orchestrators and load balancers. Live: the
 * process answers (restart it when not). Ready: it should get traffic — every dependency answers
 * and it is not shutting down; 503 otherwise, with the same report, so a node that is stopping
 * leaves the balancer's rotation before its connections are closed.
 */
export function probeRoutes({ checks, lifecycle, version, startedAt }: HealthSources): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/health/live',
      summary: 'Liveness: the process is up',
      tag: 'health',
      auth: 'none',
      response: liveSchema.json,
      async handle() {
        return { status: 'ok', uptime_s: uptime(startedAt) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/health/ready',
      summary: 'Readiness: dependencies answer and the server is not shutting down (503 otherwise)',
      tag: 'health',
      auth: 'none',
      response: healthReportSchema.json,
      async handle({ ctx }) {
        const report = await checks.run();
        const problem = problemOf(report, lifecycle);
        const status = lifecycle.stopping ? 'shutting_down' : problem ? 'unavailable' : 'ok';
        if (problem) {
          // A report, not an error: the body says which dependency fails.
          ctx.status = 503;
          ctx.set('Retry-After', lifecycle.stopping ? '1' : '30');
          ctx.body = { status, version, uptime_s: uptime(startedAt), checks: report.checks };
          return undefined;
        }
        return { status, version, uptime_s: uptime(startedAt), checks: report.checks };
      },
    }),
  ];
}
