import Koa from 'koa';
import type { AvatarService } from '../core/index.js';
import { FsBlobStore } from '../core/index.js';
import type { ServerConfig } from './config.js';
import { accessLog } from './http/access-log.js';
import { ConnectionGate } from './edge/connection-gate.js';
import { compression } from './http/compression.js';
import { cors } from './http/cors.js';
import { errorHandler } from './http/error-handler.js';
import { mountRoutes } from './http/mount-routes.js';
import { securityHeaders } from './http/security-headers.js';
import { defineRoute } from './http/route.js';
import type { Route } from './http/route.js';
import { createSerializer } from './edge/serializer.js';
import { createUrlBuilder } from './edge/urls.js';
import { buildOpenApi } from './openapi.js';
import { buildAsyncApi } from './asyncapi.js';
import { docsRoutes } from './routes/docs-routes.js';
import { packagePaths } from './package-paths.js';
import { accountRoutes } from './routes/account-routes.js';
import { aiRoutes } from './routes/ai-routes.js';
import { ttsRoutes } from './routes/tts-routes.js';
import { avatarRoutes } from './routes/avatar-routes.js';
import { conversationRoutes } from './routes/conversation-routes.js';
import { conversationListRoutes } from './routes/conversation-list-routes.js';
import { demoRoutes } from './routes/demo-routes.js';
import { dashboardRoutes } from './routes/dashboard-routes.js';
import { audioRoute, avatarAssetRoute, avatarFileRoute } from './routes/file-routes.js';
import { healthRoute } from './routes/health-routes.js';
import { personaRoutes } from './routes/persona-routes.js';
import { demoSessionRoute, sessionRoutes } from './routes/session-routes.js';
import { usageRoutes } from './routes/usage-routes.js';
import { webhookRoutes } from './routes/webhook-routes.js';

export interface AppOptions {
  service: AvatarService;
  config: ServerConfig;
  log?: (message: string, error?: unknown) => void;
  /** Receives one access-log line per request; none when absent. */
  accessLog?: (line: string) => void;
  /** The door of long-lived connections, shared with the realtime transports; a new one when absent. */
  connections?: ConnectionGate;
}

/**
 * The Koa application: translation between HTTP and the core, nothing more. `attachHost` serves
 * it with the realtime transports and connection protections on an HTTP server.
 */
export function createApp({ service, config, log = defaultLog, accessLog: writeAccessLog, connections = new ConnectionGate(service) }: AppOptions): Koa {
  const paths = packagePaths();
  const startedAt = Date.now();
  const serializer = createSerializer(config.apiStyle);
  const urls = createUrlBuilder(config.publicUrl);
  const health = healthRoute(paths.version, startedAt);

  const v1: Route[] = [
    health,
    ...avatarRoutes(paths.avatarAssets, urls, config.avatarMaxBytes),
    ...personaRoutes(),
    ...conversationRoutes(service, urls),
    ...sessionRoutes(service),
    ...usageRoutes(),
    ...conversationListRoutes(),
    ...aiRoutes(service),
    ...ttsRoutes(service, urls),
    ...accountRoutes(),
    ...webhookRoutes(),
    audioRoute(),
    avatarFileRoute(),
  ];
  const root: Route[] = [
    health,
    avatarAssetRoute(new FsBlobStore(paths.avatarAssets)),
    ...demoRoutes(paths),
    ...dashboardRoutes(paths),
    ...docsRoutes(paths.docsRenderer),
    ...(config.devBootstrap ? [demoSessionRoute(service)] : []),
  ];
  const mounted = () => [...v1.map((route) => ({ prefix: '/v1', route })), ...root.map((route) => ({ prefix: '', route }))];
  const documents: Route[] = [
    defineRoute({
      method: 'get',
      path: '/openapi.json',
      summary: 'This API as an OpenAPI 3.1 document',
      tag: 'meta',
      auth: 'none',
      async handle({ ctx }) {
        ctx.body = openapi;
        return undefined;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/asyncapi.json',
      summary: 'The realtime transports (socket.io, WebSocket) as an AsyncAPI 3.0 document',
      tag: 'meta',
      auth: 'none',
      async handle({ ctx }) {
        ctx.body = asyncapi;
        return undefined;
      },
    }),
  ];
  // The documents and the reference page describe the API; they are not part of it.
  const openapi = buildOpenApi(mounted().filter(({ route }) => route.tag !== 'demo' && !route.path.startsWith('/docs')), {
    version: paths.version,
    serverUrl: config.publicUrl,
    serializer,
  });
  const asyncapi = buildAsyncApi({ version: paths.version, serverUrl: config.publicUrl });
  v1.push(...documents);

  const app = new Koa();
  // Koa reports errors that happen after the response started (e.g. a stream whose client left).
  // A client going away is normal for streams; anything else is logged.
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE' || error.code === 'ECONNRESET' || error.code === 'EPIPE') return;
    log('unhandled server error', error);
  });
  if (writeAccessLog) app.use(accessLog(writeAccessLog));
  // Outside the error handler, so error bodies are compressed like any JSON.
  app.use(compression());
  app.use(errorHandler({ serializer, ids: service.ids, log }));
  app.use(securityHeaders());
  app.use(cors());
  const router = mountRoutes(mounted(), { service, config, serializer, connections });
  app.use(router.routes());
  // An API path called with another method: 405 with `Allow` (the error handler gives it a body).
  // Only under /v1: at the root, `/demo/:file` would turn an absent `/demo/session` into a 405.
  const allowedMethods = router.allowedMethods() as Koa.Middleware;
  app.use((ctx, next) => (ctx.path.startsWith('/v1/') ? allowedMethods(ctx, next) : next()));
  return app;
}

function defaultLog(message: string, error?: unknown): void {
  console.error(message, error instanceof Error ? error.stack : (error ?? ''));
}
