/**
 * What metrics and the request log add to one request, measured in process where a loaded
 * machine disturbs it least: the request observer's work for one finished request — a counter
 * and a histogram sample by route template, and one JSON `request` line through pino into
 * /dev/null, written as the server writes stdout (`jsonDestination`: the lines of an event-loop
 * turn in one write; here a turn every 20 requests, in both loops) — repeated N times, CPU time
 * per request
 * (process.cpuUsage, user + system). The same loop with the log off gives metrics alone.
 * Compare with the app's CPU per request in api-throughput.
 *
 *   npm run build && node dist/bench/observability-cost.js [--requests 200000] [--rounds 5]
 */
import { parseArgs } from 'node:util';
import { createLogger, jsonDestination, Metrics } from '../server/index.js';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '200000' }, rounds: { type: 'string', default: '5' } } });
const requests = Number(values.requests);
const rounds = Number(values.rounds);

const ROUTES = ['/v1/conversations/:id', '/v1/conversations/:id/messages', '/v1/avatars', '/v1/health'];
const metrics = new Metrics();
const logger = createLogger('info', jsonDestination('/dev/null'));

/** The observer's work for request `i` (request-observer.ts, minus Koa's event listener). */
function observe(i: number, log: boolean): void {
  const route = ROUTES[i % ROUTES.length]!;
  const ms = 0.5 + (i % 100) / 10;
  metrics.request('GET', route, 200, ms / 1000);
  if (log) logger.info({ req_id: 'req_01m8bt9x5tczgq6a7tr68vn2m2', method: 'GET', path: route.replace(':id', 'conv_01m8bt9x5tczgq6a7tr68vn2m2'), route, status: 200, ms }, 'request');
}

async function cpuMicrosPerRequest(log: boolean): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < requests; i++) {
    observe(i, log);
    // A turn of the event loop every 20 requests, as a busy server answers them: the log's
    // lines are written when each turn ends.
    if (i % 20 === 19) await new Promise(setImmediate);
  }
  await new Promise(setImmediate);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / requests;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
await cpuMicrosPerRequest(true); // warm-up
const withLog: number[] = [];
const metricsOnly: number[] = [];
for (let r = 0; r < rounds; r++) {
  withLog.push(await cpuMicrosPerRequest(true));
  metricsOnly.push(await cpuMicrosPerRequest(false));
}
const round = (x: number) => Math.round(x * 100) / 100;
console.log(
  JSON.stringify(
    {
      requests_per_round: requests,
      rounds,
      cpu_us_per_request: { metrics_and_log: round(median(withLog)), metrics_only: round(median(metricsOnly)), log_alone: round(median(withLog) - median(metricsOnly)) },
      per_round: { metrics_and_log: withLog.map(round), metrics_only: metricsOnly.map(round) },
    },
    null,
    2,
  ),
);
