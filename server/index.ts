/** avatar-service/server: the Koa host, for self-hosting or mounting in your own server. */
export { createApp } from './app.js';
export type { AppOptions } from './app.js';
export { loadConfig, ConfigError, parseDuration } from './config.js';
export type { ServerConfig, ApiStyle } from './config.js';
export { createServiceFromConfig, idsFor, mailerFor, moderationOptionsFor, openStore, providerOptionsFor, retentionOptionsFor, webhookOptionsFor } from './create-service.js';
export { startServer } from './start-server.js';
export type { RunningServer, StartOptions } from './start-server.js';
export { attachHost } from './attach-host.js';
export type { Host } from './attach-host.js';
export type { Realtime } from './realtime/realtime.js';
export { ConnectionGate } from './edge/connection-gate.js';
export type { ConnectionEnds, ReconnectHint, Transport } from './edge/connection-gate.js';
export { createLogger, jsonDestination, prettyDestination } from './observability/logger.js';
export type { Logger } from './observability/logger.js';
export { Metrics } from './observability/metrics.js';
export type { MetricSources } from './observability/metrics.js';
export { HealthChecks, Lifecycle, blobStoreCheck, databaseCheck } from './observability/health.js';
export type { DependencyCheck, DependencyStatus, HealthReport } from './observability/health.js';
