import { join } from 'node:path';
import type { AIProvider, AvatarService, SpeechProvider, Store } from '../core/index.js';
import {
  FsBlobStore,
  createAvatarService,
  createIdGenerator,
  systemClock,
  createLocalProvider,
  createLocalSpeechProvider,
  createSqliteStore,
} from '../core/index.js';
import type { ServerConfig } from './config.js';
import { ConfigError } from './config.js';

/** Opens the store named by DATABASE_URL. */
export async function openStore(config: ServerConfig): Promise<Store> {
  const url = config.databaseUrl;
  if (url.startsWith('sqlite:')) {
    const filename = url.replace(/^sqlite:(\/\/)?/, '');
    if (!filename) throw new ConfigError('DATABASE_URL', 'sqlite:// needs a file path, e.g. sqlite://./data/avatar.db');
    return createSqliteStore({ filename });
  }
  throw new ConfigError('DATABASE_URL', 'this version stores data in SQLite only; use sqlite://<file> or leave it unset');
}

/** AI providers from configuration: the offline engine always, vendors when configured. */
export function aiProvidersFor(_config: ServerConfig): AIProvider[] {
  return [createLocalProvider()];
}

export function speechProvidersFor(_config: ServerConfig): SpeechProvider[] {
  return [createLocalSpeechProvider()];
}

/** The composition root: turns configuration into a running core. */
export async function createServiceFromConfig(config: ServerConfig): Promise<AvatarService> {
  const aiProviders = aiProvidersFor(config);
  const speechProviders = speechProvidersFor(config);
  for (const [variable, id, known] of [
    ['DEFAULT_AI_PROVIDER', config.defaultAiProvider, aiProviders.map((p) => p.id)],
    ['DEFAULT_TTS_PROVIDER', config.defaultTtsProvider, [...speechProviders.map((p) => p.id), 'browser']],
  ] as const) {
    if (id !== undefined && !known.includes(id)) throw new ConfigError(variable, `must be one of ${known.join(', ')}`);
  }
  const store = await openStore(config);
  return createAvatarService({
    store,
    blobs: new FsBlobStore(join(config.dataDir, 'audio')),
    publicUrl: config.publicUrl,
    jwtSecret: config.jwtSecret,
    aiProviders,
    speechProviders,
    ...(config.defaultAiProvider && { defaultAiProvider: config.defaultAiProvider }),
    ...(config.defaultTtsProvider && { defaultTtsProvider: config.defaultTtsProvider }),
    conversationIdleTimeoutMs: config.conversationIdleTimeoutMs,
    ids: idsFor(config),
  });
}

/** The envelope style identifies conversations and messages by UUID (DESIGN.md §6). */
export function idsFor(config: ServerConfig) {
  return createIdGenerator(systemClock, config.apiStyle === 'envelope' ? { uuidFor: ['conv', 'msg'] } : {});
}
