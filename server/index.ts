/** avatar-service/server: the Koa host, for self-hosting or mounting in your own server. */
export { createApp } from './app.js';
export type { AppOptions } from './app.js';
export { loadConfig, ConfigError, parseDuration } from './config.js';
export type { ServerConfig, ApiStyle } from './config.js';
export { createServiceFromConfig, idsFor, mailerFor, moderationOptionsFor, openStore, providerOptionsFor, webhookOptionsFor } from './create-service.js';
export { startServer } from './start-server.js';
export type { RunningServer } from './start-server.js';
export { attachHost } from './attach-host.js';
export type { Host } from './attach-host.js';
export type { Realtime } from './realtime/realtime.js';
export { ConnectionGate } from './edge/connection-gate.js';
