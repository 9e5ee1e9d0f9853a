import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AvatarService, RedisScaleOut } from '../core/index.js';
import { attachHost } from './attach-host.js';
import type { ServerConfig } from './config.js';
import { createServiceFromConfig, openScaleOut } from './create-service.js';
import { socketIoRedisAdapter } from './realtime/redis-adapter.js';
import { devBootstrap } from './dev-bootstrap.js';
import type { Realtime } from './realtime/realtime.js';
import type { BootstrapResult } from './dev-bootstrap.js';
import { createLogger, prettyDestination } from './observability/logger.js';
import type { Logger } from './observability/logger.js';
import { Metrics } from './observability/metrics.js';
import { redisCheck } from './observability/health.js';
import type { DependencyCheck } from './observability/health.js';

export interface RunningServer {
  url: string;
  server: Server;
  service: AvatarService;
  bootstrap: BootstrapResult | undefined;
  realtime: Realtime;
  /** Redis, when `REDIS_URL` is set (its `ping()` tells whether it answers; `/health` reports it). */
  redis: RedisScaleOut | undefined;
  /** The server's log (on stdout at `LOG_LEVEL`: JSON lines, or text for a terminal, `LOG_FORMAT`). */
  logger: Logger;
  metrics: Metrics;
  /**
   * A graceful shutdown: readiness fails and the listening socket closes; open streams and
   * sockets get the `reconnect` hint and are closed; running replies stop (kept as interrupted);
   * requests in progress finish; webhook attempts in flight finish and claimed ones not started
   * are handed back; the store closes, then Redis. Bound it with a timer (`SHUTDOWN_TIMEOUT_MS`, as `serve` does).
   */
  close(): Promise<void>;
}

/** How long clients told to reconnect should wait: enough for a load balancer to see this node leave. */
const RECONNECT_AFTER_MS = 1_000;

/** What a host adds to `serve`'s server besides configuration. */
export interface StartOptions {
  /** Checks `/health` runs besides the database, the blob store and Redis (when configured). */
  dependencies?: readonly DependencyCheck[];
  /** The Redis a caller's own `service` was built with (`openScaleOut`); without a `service` it is opened from `REDIS_URL`. */
  redis?: RedisScaleOut;
}

/**
 * Starts the HTTP server on the configured address with a service built from the config (and
 * Redis when `REDIS_URL` is set). A caller passing its own `service` passes the Redis it was
 * built with, if any, in `options.redis`.
 */
export async function startServer(config: ServerConfig, service?: AvatarService, options: StartOptions = {}): Promise<RunningServer> {
  const pretty = (config.logFormat ?? (process.stdout.isTTY ? 'pretty' : 'json')) === 'pretty';
  const logger = createLogger(config.logLevel, pretty ? prettyDestination(process.stdout) : undefined);
  const metrics = new Metrics();
  const redis = service ? options.redis : await openScaleOut(config);
  try {
    const svc = service ?? (await createServiceFromConfig(config, { telemetry: metrics, logger: logger.child({ component: 'core' }), ...(redis && { redis }) }));
    return await serve(config, svc, redis, logger, metrics, options.dependencies ?? []);
  } catch (error) {
    // Open connections (Redis, a database pool) would keep a failed process alive.
    await redis?.close().catch(() => undefined);
    throw error;
  }
}

async function serve(
  config: ServerConfig,
  svc: AvatarService,
  redis: RedisScaleOut | undefined,
  logger: Logger,
  metrics: Metrics,
  dependencies: readonly DependencyCheck[],
): Promise<RunningServer> {
  await svc.start();
  const bootstrap = config.devBootstrap ? await devBootstrap(svc) : undefined;
  const server = createServer();
  const hosted = attachHost(server, {
    service: svc,
    config,
    logger,
    accessLog: config.accessLog,
    metrics,
    dependencies: [...(redis ? [redisCheck(redis)] : []), ...dependencies],
    ...(redis && { socketIoAdapter: await socketIoRedisAdapter(redis) }),
  });
  await hosted.realtime.ready;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    server,
    service: svc,
    bootstrap,
    realtime: hosted.realtime,
    redis,
    logger,
    metrics,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        hosted.shutdown({ reason: 'shutdown', retry_after_ms: RECONNECT_AFTER_MS });
        await svc.conversations.close();
        await hosted.close();
        // Keep-alive connections become idle as their last responses end: close them as they do.
        const idle = setInterval(() => server.closeIdleConnections(), 50);
        server.closeIdleConnections();
        await closed.finally(() => clearInterval(idle));
        await svc.close();
        await redis?.close();
      })();
      return closing;
    },
  };
}
