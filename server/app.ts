import Koa from 'koa';
import type { AvatarService } from '../core/index.js';
import { FsBlobStore } from '../core/index.js';
import type { ServerConfig } from './config.js';
import { ConnectionGate } from './edge/connection-gate.js';
import { compression } from './http/compression.js';
import { cors } from './http/cors.js';
import { errorHandler } from './http/error-handler.js';
import { mountRoutes } from './http/mount-routes.js';
import { hotReads } from './http/hot-reads.js';
import { securityHeaders } from './http/security-headers.js';
import { defineRoute } from './http/route.js';
import type { Route } from './http/route.js';
import { createSerializer } from './edge/serializer.js';
import { ConversationReadCache } from './edge/representation.js';
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
import { healthRoute, probeRoutes } from './routes/health-routes.js';
import { metricsRoute } from './routes/metrics-routes.js';
import { observeRequests } from './observability/request-observer.js';
import { Metrics } from './observability/metrics.js';
import { createLogger, errorFields } from './observability/logger.js';
import type { Logger } from './observability/logger.js';
import { HealthChecks, Lifecycle, blobStoreCheck, databaseCheck } from './observability/health.js';
import type { DependencyCheck } from './observability/health.js';
import { personaRoutes } from './routes/persona-routes.js';
import { demoSessionRoute, sessionRoutes } from './routes/session-routes.js';
import { usageRoutes } from './routes/usage-routes.js';
import { webhookRoutes } from './routes/webhook-routes.js';

export interface AppOptions {
  service: AvatarService;
  config: ServerConfig;
  /** The server's log (JSON lines); when absent, warnings and errors as JSON lines on stdout (no request lines). */
  logger?: Logger;
  /** One `request` line per request in the log (`ACCESS_LOG`); default true. */
  accessLog?: boolean;
  /** The Prometheus metrics, also the core's telemetry when the service was built with it; a new registry when absent. */
  metrics?: Metrics;
  /** The door of long-lived connections, shared with the realtime transports; a new one when absent. */
  connections?: ConnectionGate;
  /** Whether the server is stopping (readiness fails); a running one when absent. */
  lifecycle?: Lifecycle;
  /** Dependencies `/health` checks besides the database and the blob store (e.g. Redis). */
  dependencies?: readonly DependencyCheck[];
}

/**
 * The Koa application: translation between HTTP and the core, nothing more. `attachHost` serves
 * it with the realtime transports and connection protections on an HTTP server.
 */
export function createApp({
  service,
  config,
  logger = createLogger('warn'),
  accessLog = true,
  metrics = new Metrics(),
  connections = new ConnectionGate(service),
  lifecycle = new Lifecycle(),
  dependencies = [],
}: AppOptions): Koa {
  const paths = packagePaths();
  const startedAt = Date.now();
  const serializer = createSerializer(config.apiStyle);
  const urls = createUrlBuilder(config.publicUrl);
  const healthSources = {
    checks: new HealthChecks([databaseCheck(service), blobStoreCheck(service.blobs), ...dependencies]),
    lifecycle,
    version: paths.version,
    startedAt,
  };
  const health = healthRoute(healthSources);
  metrics.watch({ webhookQueue: () => service.store.webhookDeliveries.countQueued(), connections: () => connections.countByTransport() });

  const v1: Route[] = [
    health,
    ...avatarRoutes(paths.avatarAssets, urls, config.avatarMaxBytes),
    ...personaRoutes(),
    ...conversationRoutes(service, urls, {
      serializer,
      ...(config.readCaches && {
        cache: new ConversationReadCache({ serializer, versionOf: (id) => service.conversationVersions.of(id), ttlMs: config.readCacheTtlMs }),
      }),
    }),
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
    ...probeRoutes(healthSources),
    metricsRoute(metrics, config.metricsToken),
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
    logger.error(errorFields(error), 'unhandled server error');
  });
  app.use(observeRequests({ metrics, logger: accessLog ? logger : undefined }));
  const lane = hotReads(mounted(), { service, config, serializer, connections });
  if (lane) app.use(lane);
  // Outside the error handler, so error bodies are compressed like any JSON.
  app.use(compression());
  app.use(errorHandler({ serializer, ids: service.ids, logger }));
  app.use(securityHeaders());
  app.use(cors());
  // An API path called with another method gets 405 with `Allow` (the error handler gives it a
  // body); only under /v1: at the root, `/demo/:file` would turn an absent `/demo/session` into a 405.
  app.use(mountRoutes(mounted(), { service, config, serializer, connections }));
  return app;
}
