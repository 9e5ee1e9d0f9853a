import { join } from 'node:path';
import type { AIProvider, AvatarService, AvatarServiceOptions, SpeechProvider, Store } from '../core/index.js';
import {
  FsBlobStore,
  createAvatarService,
  createIdGenerator,
  systemClock,
  createLocalProvider,
  createLocalSpeechProvider,
  createSqliteStore,
  createPostgresStore,
  createOpenAICompatibleProvider,
  createOpenAIModeration,
  unknownIdProblem,
  EmlFileMailer,
  SmtpMailer,
  openRedis,
  MissingOptionalPackageError,
} from '../core/index.js';
import type { Mailer, RedisScaleOut, RetentionOptions, Telemetry } from '../core/index.js';
import { pino } from 'pino';
import { createLogger, errorFields } from './observability/logger.js';
import type { Logger } from './observability/logger.js';
import type { ServerConfig } from './config.js';
import { ConfigError } from './config.js';
import { chatVendors, createVendor, isVendorConfigured, speechVendors } from './vendors.js';

/** Opens the store named by DATABASE_URL: `sqlite://<file>` or `postgres://…` (the `pg` driver is loaded only then). */
export async function openStore(config: Pick<ServerConfig, 'databaseUrl' | 'database'>): Promise<Store> {
  const url = config.databaseUrl;
  if (url.startsWith('sqlite:')) {
    const filename = url.replace(/^sqlite:(\/\/)?/, '');
    if (!filename) throw new ConfigError('DATABASE_URL', 'sqlite:// needs a file path, e.g. sqlite:///var/lib/avatar-service/avatar.db');
    return createSqliteStore({ filename });
  }
  return createPostgresStore({ url, ...config.database });
}

const defined = <T extends object>(settings: T) =>
  Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };

/**
 * AI providers: the offline engine and every vendor, configured or not (`/v1/models` lists them
 * all and says which are configured), plus the operator's OpenAI-compatible servers.
 */
export function aiProvidersFor(config: ServerConfig): AIProvider[] {
  return [
    createLocalProvider(),
    ...chatVendors.map((row) => createVendor(row, config.vendors)),
    ...config.customAiProviders.map((custom) =>
      createOpenAICompatibleProvider(defined({ id: custom.id, baseUrl: custom.baseUrl, apiKey: custom.apiKey, defaultModel: custom.model })),
    ),
  ];
}

/**
 * Speech engines: the offline engine and every vendor (available once its key is set). The
 * offline engine's workers all start when it is first asked whether it is available (a
 * conversation choosing its voice), so replies wait for none of them.
 */
export function speechProvidersFor(config: ServerConfig): SpeechProvider[] {
  return [createLocalSpeechProvider({ poolSize: config.localSpeechWorkers, warm: true }), ...speechVendors.map((row) => createVendor(row, config.vendors))];
}

/** The default speech engine: the one asked for, else the first configured vendor, else `local`. */
function defaultSpeechId(config: ServerConfig): string {
  return config.defaultTtsProvider ?? speechVendors.find((row) => isVendorConfigured(row, config.vendors))?.id ?? 'local';
}

/** The providers part of the core's options, from configuration, checked. */
export function providerOptionsFor(
  config: ServerConfig,
): Pick<AvatarServiceOptions, 'aiProviders' | 'speechProviders' | 'defaultAiProvider' | 'defaultTtsProvider' | 'aiFallback' | 'ttsFallback'> {
  const aiProviders = aiProvidersFor(config);
  const speechProviders = speechProvidersFor(config);
  const aiIds = aiProviders.map((p) => p.id);
  const speechIds = speechProviders.map((p) => p.id);
  for (const [variable, ids, known] of [
    ['DEFAULT_AI_PROVIDER', [config.defaultAiProvider], aiIds],
    ['DEFAULT_TTS_PROVIDER', [config.defaultTtsProvider], [...speechIds, 'browser']],
    ['AI_FALLBACK', config.aiFallback, aiIds],
    ['TTS_FALLBACK', config.ttsFallback, speechIds],
  ] as const) {
    for (const id of ids) {
      const problem = id === undefined ? undefined : unknownIdProblem(id, known);
      if (problem !== undefined) throw new ConfigError(variable, problem);
    }
  }
  const defaultAi = config.defaultAiProvider && aiProviders.find((p) => p.id === config.defaultAiProvider);
  if (defaultAi && !defaultAi.configured) {
    throw new ConfigError('DEFAULT_AI_PROVIDER', `'${defaultAi.id}' is not configured: set its API key or URL`);
  }
  return {
    aiProviders,
    speechProviders,
    ...(config.defaultAiProvider && { defaultAiProvider: config.defaultAiProvider }),
    defaultTtsProvider: defaultSpeechId(config),
    aiFallback: config.aiFallback,
    ttsFallback: config.ttsFallback,
  };
}

/**
 * Redis when `REDIS_URL` is set (several processes share rate limits, connection slots and
 * broadcasts); nothing otherwise, and then the Redis client is never loaded.
 */
export async function openScaleOut(config: ServerConfig): Promise<RedisScaleOut | undefined> {
  if (config.redisUrl === undefined) return undefined;
  try {
    return await openRedis({ url: config.redisUrl, leaseTtlMs: config.connectionLeaseTtlMs });
  } catch (error) {
    if (error instanceof MissingOptionalPackageError) throw error; // already one line naming REDIS_URL
    throw new ConfigError('REDIS_URL', error instanceof Error ? error.message : String(error));
  }
}

/** What the server hands the core besides configuration. */
export interface ServiceHooks {
  /** Metrics of vendor calls, reply timings and webhook attempts. */
  telemetry?: Telemetry;
  /** Where fallbacks and background failures are logged; stderr lines when absent (the CLI's one-shot commands). */
  logger?: Logger;
  /** Redis (`openScaleOut`): the rate limiter, connection leases and message bus of several processes. */
  redis?: RedisScaleOut;
}

/** The composition root: turns configuration (and the Redis of `openScaleOut`, if any) into a running core. */
export async function createServiceFromConfig(config: ServerConfig, hooks: ServiceHooks = {}): Promise<AvatarService> {
  const logger = hooks.logger ?? createLogger(config.logLevel, pino.destination(2));
  const providers = providerOptionsFor(config);
  const store = await openStore(config);
  return createAvatarService({
    ...(hooks.redis && { rateLimiter: hooks.redis.rateLimiter, connectionCounter: hooks.redis.connectionCounter, bus: hooks.redis.bus }),
    store,
    blobs: new FsBlobStore(config.blobDir),
    jwtSecret: config.jwtSecret,
    ...(config.externalJwt && { externalTokens: config.externalJwt }),
    ...providers,
    onFallback: ({ kind, failed, next, error }) =>
      logger.warn({ kind, failed, next, ...errorFields(error) }, `${kind} provider '${failed}' failed; '${next}' takes over`),
    conversationIdleTimeoutMs: config.conversationIdleTimeoutMs,
    avatarMaxBytes: config.avatarMaxBytes,
    keyCache: config.readCaches && { ttlMs: config.readCacheTtlMs },
    ids: idsFor(config),
    ...webhookOptionsFor(config),
    ...moderationOptionsFor(config),
    onBackgroundError: (message, error) => logger.error(errorFields(error), message),
    ...(hooks.telemetry && { telemetry: hooks.telemetry }),
    retention: retentionOptionsFor(config),
  });
}

/** `AUDIO_RETENTION` and `CONVERSATION_RETENTION` (unset: kept for ever). */
export function retentionOptionsFor(config: ServerConfig): RetentionOptions {
  return {
    ...(config.audioRetentionMs !== undefined && { audioMs: config.audioRetentionMs }),
    ...(config.conversationRetentionMs !== undefined && { conversationsMs: config.conversationRetentionMs }),
  };
}

/** Webhook delivery and the mailer that tells owners of failing webhooks, from configuration. */
export function webhookOptionsFor(config: ServerConfig): Pick<AvatarServiceOptions, 'webhooks' | 'mailer'> {
  return {
    webhooks: { allowInsecure: config.allowInsecureWebhooks, retrySchedule: config.webhookRetrySchedule, timeoutMs: config.webhookTimeoutMs },
    mailer: mailerFor(config),
  };
}

/** OpenAI's moderation endpoint when `MODERATION_PROVIDER=openai`, with the OpenAI chat provider's key and base URL. */
export function moderationOptionsFor(config: ServerConfig): Pick<AvatarServiceOptions, 'moderation'> {
  if (config.moderationProvider !== 'openai') return {};
  const apiKey = config.vendors['OPENAI_API_KEY'];
  const baseUrl = config.vendors['OPENAI_BASE_URL'];
  if (apiKey === undefined && baseUrl === undefined) {
    throw new ConfigError('MODERATION_PROVIDER', 'openai needs OPENAI_API_KEY (or OPENAI_BASE_URL for a compatible server)');
  }
  return { moderation: createOpenAIModeration(defined({ apiKey, baseUrl })) };
}

/** SMTP when `SMTP_URL` is set, else `.eml` files in the data folder (docs/webhooks.md, E-mail). */
export function mailerFor(config: ServerConfig): Mailer {
  return config.smtpUrl
    ? new SmtpMailer({ url: config.smtpUrl, from: config.mailFrom })
    : new EmlFileMailer({ directory: join(config.dataDir, 'mail'), from: config.mailFrom });
}

/** The envelope style identifies conversations and messages by UUID (docs/api.md, Identifiers). */
export function idsFor(config: ServerConfig) {
  return createIdGenerator(systemClock, config.apiStyle === 'envelope' ? { uuidFor: ['conv', 'msg'] } : {});
}
