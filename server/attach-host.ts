import type { Server as HttpServer } from 'node:http';
import type Koa from 'koa';
import { createApp } from './app.js';
import type { AppOptions } from './app.js';
import { ConnectionGate } from './edge/connection-gate.js';
import { guardConnections } from './http/connection-guard.js';
import { createSerializer } from './edge/serializer.js';
import { createUrlBuilder } from './edge/urls.js';
import { attachRealtime } from './realtime/realtime.js';
import type { Realtime } from './realtime/realtime.js';
import type { SocketIoAdapter } from './realtime/redis-adapter.js';
import type { ReconnectHint } from './edge/connection-gate.js';
import { Lifecycle } from './observability/health.js';

/** Everything the service answers on one HTTP server. */
export interface Host {
  app: Koa;
  /** Long-lived connections (SSE, socket.io, WebSocket) and their credentials. */
  connections: ConnectionGate;
  realtime: Realtime;
  /** Whether the server is stopping, as `/health/ready` reports it. */
  lifecycle: Lifecycle;
  /**
   * The first step of a graceful shutdown: readiness fails, new long-lived connections are
   * refused, and every open one (SSE, socket.io, WebSocket) gets the `reconnect` hint and is closed.
   */
  shutdown(hint: ReconnectHint): void;
  /** Closes realtime connections and stops watching credentials (the HTTP server is the caller's). */
  close(): Promise<void>;
}

/**
 * Serves the REST app, both realtime transports and the connection protections on `server`: the
 * one way to host the service, used by `serve`, the tests and the benchmarks alike. With
 * `socketIoAdapter` (`socketIoRedisAdapter`) socket.io rooms span every process; wait for
 * `realtime.ready` before serving.
 */
export function attachHost(server: HttpServer, options: Omit<AppOptions, 'connections'> & { socketIoAdapter?: SocketIoAdapter }): Host {
  const { service, config, socketIoAdapter, ...appOptions } = options;
  const connections = new ConnectionGate(service);
  const lifecycle = options.lifecycle ?? new Lifecycle();
  const serializer = createSerializer(config.apiStyle);
  guardConnections(server, {
    maxPerAddress: config.maxConnectionsPerAddress,
    headersTimeoutMs: config.headersTimeoutMs,
    serializer,
    ids: service.ids,
  });
  const app = createApp({ ...appOptions, service, config, connections, lifecycle });
  server.on('request', app.callback());
  const realtime = attachRealtime(server, service, connections, serializer, createUrlBuilder(config.publicUrl), socketIoAdapter);
  return {
    app,
    connections,
    realtime,
    lifecycle,
    shutdown(hint) {
      lifecycle.stop();
      connections.shutdown(hint);
    },
    async close() {
      await realtime.close();
      connections.close();
    },
  };
}
