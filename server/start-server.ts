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

export interface RunningServer {
  url: string;
  server: Server;
  service: AvatarService;
  bootstrap: BootstrapResult | undefined;
  realtime: Realtime;
  /** Stops accepting connections, ends streams, closes the service. */
  close(): Promise<void>;
}

/** Starts the HTTP server on the configured address with a service built from the config. */
export async function startServer(config: ServerConfig, service?: AvatarService): Promise<RunningServer> {
  const svc = service ?? (await createServiceFromConfig(config));
  await svc.start();
  const bootstrap = config.devBootstrap ? await devBootstrap(svc) : undefined;
  const server = createServer();
  const hosted = attachHost(server, { service: svc, config, ...(config.accessLog && { accessLog: (line: string) => void process.stdout.write(`${line}\n`) }) });
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
    async close() {
      await svc.conversations.close();
      await hosted.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await svc.close();
    },
  };
}
