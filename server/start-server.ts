import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AvatarService } from '../core/index.js';
import { attachHost } from './attach-host.js';
import type { ServerConfig } from './config.js';
import { createServiceFromConfig } from './create-service.js';
import { devBootstrap } from './dev-bootstrap.js';
import type { Realtime } from './realtime/realtime.js';
import type { BootstrapResult } from './dev-bootstrap.js';
import { createLogger, prettyDestination } from './observability/logger.js';
import type { Logger } from './observability/logger.js';
import { Metrics } from './observability/metrics.js';
import type { DependencyCheck } from './observability/health.js';

export interface RunningServer {
  url: string;
  server: Server;
  service: AvatarService;
  bootstrap: BootstrapResult | undefined;
  realtime: Realtime;
  /** The server's log (on stdout at `LOG_LEVEL`: JSON lines, or text for a terminal, `LOG_FORMAT`). */
  logger: Logger;
  metrics: Metrics;
  /**
   * A graceful shutdown: readiness fails and the listening socket closes; open streams and
   * sockets get the `reconnect` hint and are closed; running replies stop (kept as interrupted);
   * requests in progress finish; webhook attempts in flight finish and claimed ones not started
   * are handed back; the store closes. Bound it with a timer (`SHUTDOWN_TIMEOUT_MS`, as `serve` does).
   */
  close(): Promise<void>;
}

/** How long clients told to reconnect should wait: enough for a load balancer to see this node leave. */
const RECONNECT_AFTER_MS = 1_000;

/** What a host adds to `serve`'s server besides configuration. */
export interface StartOptions {
  /** Checks `/health` runs besides the database and the blob store (e.g. Redis). */
  dependencies?: readonly DependencyCheck[];
}

/** Starts the HTTP server on the configured address with a service built from the config. */
export async function startServer(config: ServerConfig, service?: AvatarService, options: StartOptions = {}): Promise<RunningServer> {
  const pretty = (config.logFormat ?? (process.stdout.isTTY ? 'pretty' : 'json')) === 'pretty';
  const logger = createLogger(config.logLevel, pretty ? prettyDestination(process.stdout) : undefined);
  const metrics = new Metrics();
  const svc = service ?? (await createServiceFromConfig(config, { telemetry: metrics, logger: logger.child({ component: 'core' }) }));
  await svc.start();
  const bootstrap = config.devBootstrap ? await devBootstrap(svc) : undefined;
  const server = createServer();
  const hosted = attachHost(server, { service: svc, config, logger, accessLog: config.accessLog, metrics, ...(options.dependencies && { dependencies: options.dependencies }) });
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
      })();
      return closing;
    },
  };
}
