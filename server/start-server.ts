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

export interface RunningServer {
  url: string;
  server: Server;
  service: AvatarService;
  bootstrap: BootstrapResult | undefined;
  realtime: Realtime;
  /** Redis, when `REDIS_URL` is set (its `ping()` tells whether it answers). */
  redis: RedisScaleOut | undefined;
  /** Stops accepting connections, ends streams, closes the service. */
  close(): Promise<void>;
}

/**
 * Starts the HTTP server on the configured address with a service built from the config (and
 * Redis when `REDIS_URL` is set). A caller passing its own `service` passes the Redis it was
 * built with, if any.
 */
export async function startServer(config: ServerConfig, service?: AvatarService, scaleOut?: RedisScaleOut): Promise<RunningServer> {
  const redis = service ? scaleOut : await openScaleOut(config);
  try {
    return await serve(config, service ?? (await createServiceFromConfig(config, redis)), redis);
  } catch (error) {
    // Open connections (Redis, a database pool) would keep a failed process alive.
    await redis?.close().catch(() => undefined);
    throw error;
  }
}

async function serve(config: ServerConfig, svc: AvatarService, redis: RedisScaleOut | undefined): Promise<RunningServer> {
  await svc.start();
  const bootstrap = config.devBootstrap ? await devBootstrap(svc) : undefined;
  const server = createServer();
  const hosted = attachHost(server, {
    service: svc,
    config,
    ...(config.accessLog && { accessLog: (line: string) => void process.stdout.write(`${line}\n`) }),
    ...(redis && { socketIoAdapter: await socketIoRedisAdapter(redis) }),
  });
  await hosted.realtime.ready;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${port}`,
    server,
    service: svc,
    bootstrap,
    realtime: hosted.realtime,
    redis,
    async close() {
      await svc.conversations.close();
      await hosted.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await svc.close();
      await redis?.close();
    },
  };
}
