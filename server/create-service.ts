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
  createOpenAICompatibleProvider,
  createOpenAIModeration,
  unknownIdProblem,
  EmlFileMailer,
  SmtpMailer,
} from '../core/index.js';
import type { Mailer } from '../core/index.js';
import type { ServerConfig } from './config.js';
import { ConfigError } from './config.js';
import { chatVendors, createVendor, isVendorConfigured, speechVendors } from './vendors.js';

/** Opens the store named by DATABASE_URL. */
export async function openStore(config: ServerConfig): Promise<Store> {
  const url = config.databaseUrl;
  if (url.startsWith('sqlite:')) {
    const filename = url.replace(/^sqlite:(\/\/)?/, '');
    if (!filename) throw new ConfigError('DATABASE_URL', 'sqlite:// needs a file path, e.g. sqlite:///var/lib/avatar-service/avatar.db');
    return createSqliteStore({ filename });
  }
  throw new ConfigError('DATABASE_URL', 'this version stores data in SQLite only; use sqlite://<file> or leave it unset');
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

/** The composition root: turns configuration into a running core. */
export async function createServiceFromConfig(config: ServerConfig): Promise<AvatarService> {
  const providers = providerOptionsFor(config);
  const store = await openStore(config);
  return createAvatarService({
    store,
    blobs: new FsBlobStore(join(config.dataDir, 'audio')),
    jwtSecret: config.jwtSecret,
    ...(config.externalJwt && { externalTokens: config.externalJwt }),
    ...providers,
    onFallback: ({ kind, failed, next, error }) =>
      console.warn(`${kind} provider '${failed}' failed (${error instanceof Error ? error.message : String(error)}); '${next}' takes over`),
    conversationIdleTimeoutMs: config.conversationIdleTimeoutMs,
    avatarMaxBytes: config.avatarMaxBytes,
    ids: idsFor(config),
    ...webhookOptionsFor(config),
    ...moderationOptionsFor(config),
    onBackgroundError: (message, error) => console.error(`${message}: ${error instanceof Error ? error.message : String(error ?? '')}`),
  });
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
