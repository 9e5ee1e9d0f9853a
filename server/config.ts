import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { absoluteUrlProblem, retentionProblem, parseRetention, secretProblem } from '../core/index.js';

import type { ApiStyle } from './edge/serializer.js';
import { chatVendors, vendorVariables } from './vendors.js';

/** Bad configuration: the message is one line that names the variable and what to fix. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly variable: string, message: string) {
    super(`${variable}: ${message}`);
  }
}

export type { ApiStyle };

/** The levels `LOG_LEVEL` takes, most severe first (`silent` logs nothing). */
export const LogLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LogLevels)[number];

/** An OpenAI-compatible server registered under the operator's name (Groq, vLLM, LM Studio…). */
export interface CustomAiProviderConfig {
  id: string;
  baseUrl: string;
  apiKey?: string;
  model?: string;
}

export interface ServerConfig {
  port: number;
  host: string;
  publicUrl: string;
  /** Absolute path of the data folder (`DATA_DIR`, else {@link defaultDataDir}). */
  dataDir: string;
  /** Where `dataDir` came from, for the line that tells the operator which folder is used. */
  dataDirSource: 'DATA_DIR' | 'default';
  databaseUrl: string;
  /** PostgreSQL pool and timeouts (`DATABASE_POOL_MAX`, `DATABASE_STATEMENT_TIMEOUT`, `DATABASE_CONNECT_TIMEOUT`); SQLite ignores them. */
  database: { poolMax: number; statementTimeoutMs: number; connectTimeoutMs: number };
  /** Folder of audio and custom avatar files (`BLOB_DIR`, default `DATA_DIR/audio`); several processes may share it. */
  blobDir: string;
  redisUrl: string | undefined;
  /** With Redis: how long a connection slot outlives its process's last heartbeat (`CONNECTION_LEASE_TTL`). */
  connectionLeaseTtlMs: number;
  jwtSecret: string;
  apiStyle: ApiStyle;
  requireKeyForReads: boolean;
  /**
   * The in-process read caches (`READ_CACHES`, default on): API keys (the principal cache) and
   * conversation reads; `readCacheTtlMs` (`READ_CACHE_TTL`, default 5s) bounds how late they see
   * what another process changed (README, Caches).
   */
  readCaches: boolean;
  readCacheTtlMs: number;
  production: boolean;
  devBootstrap: boolean;
  /** One `request` log line per request when serving (`ACCESS_LOG`, default on). */
  accessLog: boolean;
  /** The least severe level logged (`LOG_LEVEL`, default info). */
  logLevel: LogLevel;
  /** JSON lines, or text for a terminal (`LOG_FORMAT`); unset: text when stdout is a terminal. */
  logFormat: 'json' | 'pretty' | undefined;
  /** Bearer token `/metrics` needs (`METRICS_TOKEN`); unset: loopback clients only. */
  metricsToken: string | undefined;
  /** Longest a graceful shutdown may take before the process exits anyway (`SHUTDOWN_TIMEOUT_MS`). */
  shutdownTimeoutMs: number;
  /** Reply audio older than this is deleted (`AUDIO_RETENTION`); undefined: kept. */
  audioRetentionMs: number | undefined;
  /** Conversations not updated for this long are deleted with their audio (`CONVERSATION_RETENTION`); undefined: kept. */
  conversationRetentionMs: number | undefined;
  conversationIdleTimeoutMs: number;
  defaultAiProvider: string | undefined;
  defaultTtsProvider: string | undefined;
  /** AI providers tried in order when the chosen one fails before answering. */
  aiFallback: readonly string[];
  /** Speech engines tried in order when the chosen one fails. */
  ttsFallback: readonly string[];
  /** Worker threads of the offline `local` speech engine (`LOCAL_SPEECH_WORKERS`; default: CPU count). */
  localSpeechWorkers: number;
  customAiProviders: readonly CustomAiProviderConfig[];
  /** Largest JSON body accepted, in bytes. */
  bodyLimitBytes: number;
  /** Largest custom avatar model (VRM file) accepted, in bytes (`AVATAR_MAX_BYTES`). */
  avatarMaxBytes: number;
  /** Open TCP connections one client address may hold (`MAX_CONNECTIONS_PER_ADDRESS`; 0: no cap). */
  maxConnectionsPerAddress: number;
  /** A connection must have sent a request's headers within this time (`HEADERS_TIMEOUT`). */
  headersTimeoutMs: number;
  /** The vendor variables of `server/vendors.ts` that are set (credentials and base URLs), by name. */
  vendors: Readonly<Record<string, string>>;
  /** Delays between webhook delivery attempts, in ms (`WEBHOOK_RETRY_SCHEDULE`). */
  webhookRetrySchedule: readonly number[];
  /** Time allowed for one webhook delivery attempt (`WEBHOOK_TIMEOUT`). */
  webhookTimeoutMs: number;
  /** `http://` and private / loopback receivers allowed (`ALLOW_INSECURE_WEBHOOKS`; off in production). */
  allowInsecureWebhooks: boolean;
  /** `smtp://` or `smtps://` server for e-mail; unset: `.eml` files under `DATA_DIR/mail/`. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The vendor moderation check of users' messages (`MODERATION_PROVIDER`); unset: word lists only. */
  moderationProvider: 'openai' | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

export interface LoadConfigOptions {
  /**
   * `create` (the default): make the data folder and its JWT secret when missing (`serve`,
   * `migrate`, `account create`). `existing`: the commands that only make sense on a server's
   * data refuse, naming the folder they looked in, instead of starting an empty one.
   */
  data?: 'create' | 'existing';
}

/**
 * The data folder when `DATA_DIR` is unset: `$XDG_DATA_HOME/avatar-service`, else
 * `~/.local/share/avatar-service` — the same for the server and the CLI whatever the current folder.
 */
export function defaultDataDir(env: Env = process.env): string {
  const base = env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith('/') ? env.XDG_DATA_HOME : join(env.HOME || homedir(), '.local', 'share');
  return join(base, 'avatar-service');
}

/** The data folder and where it came from, without touching the disk. */
export function dataDirOf(env: Env = process.env): { dataDir: string; dataDirSource: 'DATA_DIR' | 'default' } {
  return env.DATA_DIR ? { dataDir: resolve(env.DATA_DIR), dataDirSource: 'DATA_DIR' } : { dataDir: defaultDataDir(env), dataDirSource: 'default' };
}

/** The one line that tells which data folder a command uses. */
export function describeDataDir(config: Pick<ServerConfig, 'dataDir' | 'dataDirSource'>): string {
  return config.dataDirSource === 'DATA_DIR'
    ? `data folder ${config.dataDir} (DATA_DIR)`
    : `data folder ${config.dataDir} (the default; set DATA_DIR to use another)`;
}

/**
 * Reads the environment (docs/api.md, Configuration). The only place in the project that reads `process.env`;
 * everything else receives this object.
 */
export function loadConfig(env: Env = process.env, options: LoadConfigOptions = {}): ServerConfig {
  const production = env.NODE_ENV === 'production';
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const { dataDir, dataDirSource } = dataDirOf(env);
  const publicUrl = url(env, 'PUBLIC_URL') ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const databaseUrl = env.DATABASE_URL || `sqlite://${join(dataDir, 'avatar.db')}`;
  if (!/^(sqlite:|postgres(ql)?:)/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'must start with sqlite:// or postgres://');
  }
  const apiStyle = env.API_STYLE || 'flat';
  if (apiStyle !== 'flat' && apiStyle !== 'envelope') throw new ConfigError('API_STYLE', 'must be flat or envelope');
  const where = dataDirSource === 'DATA_DIR' ? `DATA_DIR is ${dataDir}` : `DATA_DIR is unset, so the default ${dataDir} is used`;
  if (options.data === 'existing') requireExistingData(dataDir, databaseUrl, where, !env.JWT_SECRET);
  else ensureWritableFolder(dataDir, where);
  return Object.freeze({
    port,
    host,
    publicUrl: publicUrl.replace(/\/+$/, ''),
    dataDir,
    dataDirSource,
    databaseUrl,
    database: {
      poolMax: integer(env, 'DATABASE_POOL_MAX', 10, 1, 1000),
      statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT === '0' ? 0 : duration(env, 'DATABASE_STATEMENT_TIMEOUT', 30_000),
      connectTimeoutMs: duration(env, 'DATABASE_CONNECT_TIMEOUT', 10_000),
    },
    blobDir: env.BLOB_DIR ? resolve(env.BLOB_DIR) : join(dataDir, 'audio'),
    redisUrl: redisUrl(env),
    connectionLeaseTtlMs: duration(env, 'CONNECTION_LEASE_TTL', 30_000),
    jwtSecret: jwtSecret(env) ?? persistedSecret(dataDir),
    apiStyle,
    requireKeyForReads: boolean(env, 'REQUIRE_KEY_FOR_READS', false),
    readCaches: boolean(env, 'READ_CACHES', true),
    readCacheTtlMs: duration(env, 'READ_CACHE_TTL', 5_000),
    production,
    devBootstrap: boolean(env, 'DEV_BOOTSTRAP', !production),
    accessLog: boolean(env, 'ACCESS_LOG', true),
    logLevel: logLevel(env),
    logFormat: logFormat(env),
    metricsToken: metricsToken(env),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 15_000, 100, 600_000),
    audioRetentionMs: retention(env, 'AUDIO_RETENTION'),
    conversationRetentionMs: retention(env, 'CONVERSATION_RETENTION'),
    conversationIdleTimeoutMs: duration(env, 'CONVERSATION_IDLE_TIMEOUT', 30 * 60_000),
    defaultAiProvider: env.DEFAULT_AI_PROVIDER || undefined,
    defaultTtsProvider: env.DEFAULT_TTS_PROVIDER || undefined,
    aiFallback: list(env, 'AI_FALLBACK'),
    ttsFallback: list(env, 'TTS_FALLBACK'),
    localSpeechWorkers: integer(env, 'LOCAL_SPEECH_WORKERS', availableParallelism(), 1, 64),
    customAiProviders: customProviders(env),
    bodyLimitBytes: 1024 * 1024,
    // An upload is held in memory while it is checked and stored: 512 MiB at most.
    avatarMaxBytes: integer(env, 'AVATAR_MAX_BYTES', 30 * 1024 * 1024, 1024, 512 * 1024 * 1024),
    maxConnectionsPerAddress: integer(env, 'MAX_CONNECTIONS_PER_ADDRESS', 256, 0, 1_000_000),
    headersTimeoutMs: duration(env, 'HEADERS_TIMEOUT', 10_000),
    vendors: vendorEnvironment(env),
    webhookRetrySchedule: durations(env, 'WEBHOOK_RETRY_SCHEDULE', [5_000, 30_000, 300_000, 3_600_000]),
    webhookTimeoutMs: duration(env, 'WEBHOOK_TIMEOUT', 10_000),
    allowInsecureWebhooks: boolean(env, 'ALLOW_INSECURE_WEBHOOKS', !production),
    smtpUrl: smtpUrl(env),
    mailFrom: mailFrom(env, publicUrl),
    moderationProvider: moderationProvider(env),
  });
}

function redisUrl(env: Env): string | undefined {
  const value = url(env, 'REDIS_URL');
  if (value !== undefined && !/^rediss?:\/\//.test(value)) throw new ConfigError('REDIS_URL', 'must start with redis:// or rediss://');
  return value;
}

function logLevel(env: Env): LogLevel {
  const value = env.LOG_LEVEL?.trim().toLowerCase() || 'info';
  if ((LogLevels as readonly string[]).includes(value)) return value as LogLevel;
  throw new ConfigError('LOG_LEVEL', `must be one of ${LogLevels.join(', ')}, got '${env.LOG_LEVEL}'`);
}

function logFormat(env: Env): 'json' | 'pretty' | undefined {
  const value = env.LOG_FORMAT?.trim().toLowerCase() || undefined;
  if (value === undefined || value === 'json' || value === 'pretty') return value;
  throw new ConfigError('LOG_FORMAT', `must be json or pretty, got '${env.LOG_FORMAT}'`);
}

function metricsToken(env: Env): string | undefined {
  const value = env.METRICS_TOKEN;
  if (value === undefined || value === '') return undefined;
  if (value.length < 16 || /\s/.test(value)) throw new ConfigError('METRICS_TOKEN', `must be at least 16 characters without spaces (got ${value.length}); e.g. openssl rand -hex 16`);
  return value;
}

/** `30d`, `12h`…, or unset / `off`: kept for ever (the core's rule, `retentionProblem`). */
function retention(env: Env, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '' || raw.trim().toLowerCase() === 'off') return undefined;
  const problem = retentionProblem(raw);
  if (problem !== undefined) throw new ConfigError(name, problem);
  return parseRetention(raw);
}

function moderationProvider(env: Env): 'openai' | undefined {
  const value = env.MODERATION_PROVIDER || undefined;
  if (value === undefined || value === 'openai') return value;
  throw new ConfigError('MODERATION_PROVIDER', `must be openai or unset, got '${value}'`);
}

/** `5s,30s,5m,1h`: the delays between attempts; an empty value means no retries. */
function durations(env: Env, name: string, fallback: readonly number[]): readonly number[] {
  const raw = env[name];
  if (raw === undefined) return Object.freeze([...fallback]);
  if (raw.trim() === '') return Object.freeze([]);
  const items = raw.split(',').map((item) => parseDuration(item));
  if (items.length > 10 || items.some((ms) => ms === undefined || ms <= 0 || ms > 7 * 24 * 3_600_000)) {
    throw new ConfigError(name, `must be up to 10 comma-separated durations like 5s,30s,5m,1h (each at most 168h), got '${raw}'`);
  }
  return Object.freeze(items as number[]);
}

function smtpUrl(env: Env): string | undefined {
  const value = url(env, 'SMTP_URL');
  if (value !== undefined && !/^smtps?:\/\//.test(value)) throw new ConfigError('SMTP_URL', 'must start with smtp:// or smtps://, e.g. smtp://user:password@mail.example.com:587');
  return value;
}

function mailFrom(env: Env, publicUrl: string): string {
  const value = env.MAIL_FROM?.trim();
  if (value) {
    if (/[\r\n]/.test(value) || !/@/.test(value)) throw new ConfigError('MAIL_FROM', `must be an address such as "Avatars <noreply@example.com>", got '${value}'`);
    return value;
  }
  return `avatar-service <noreply@${new URL(publicUrl).hostname.replace(/^\[|\]$/g, '') || 'localhost'}>`;
}

/** The vendor rows' variables that are set; base URLs must be absolute. */
function vendorEnvironment(env: Env): Readonly<Record<string, string>> {
  const { keys, urls } = vendorVariables();
  const set: Record<string, string> = {};
  for (const name of keys) if (env[name]) set[name] = env[name]!;
  for (const name of urls) {
    const value = url(env, name);
    if (value !== undefined) set[name] = value;
  }
  return Object.freeze(set);
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}, got '${raw}'`);
  }
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, got '${env[name]}'`);
}

function url(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const problem = absoluteUrlProblem(raw);
  if (problem !== undefined) throw new ConfigError(name, problem);
  return raw.replace(/\/+$/, '');
}

function list(env: Env, name: string): readonly string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [];
  const items = raw.split(',').map((item) => item.trim());
  if (items.some((item) => !/^[a-z][a-z0-9_-]*$/.test(item))) {
    throw new ConfigError(name, `must be a comma-separated list of provider ids such as openai,local, got '${raw}'`);
  }
  return Object.freeze(items);
}

/**
 * `CUSTOM_AI_PROVIDERS=groq=https://api.groq.com/openai/v1,lmstudio=http://127.0.0.1:1234/v1`;
 * each name's key and default model come from `<NAME>_API_KEY` and `<NAME>_MODEL`.
 */
function customProviders(env: Env): readonly CustomAiProviderConfig[] {
  const raw = env.CUSTOM_AI_PROVIDERS;
  if (raw === undefined || raw.trim() === '') return [];
  return Object.freeze(
    raw.split(',').map((entry) => {
      const match = /^\s*([a-z][a-z0-9_-]*)=(\S+)\s*$/.exec(entry);
      if (!match) throw new ConfigError('CUSTOM_AI_PROVIDERS', `each entry must be name=baseUrl (e.g. groq=https://api.groq.com/openai/v1), got '${entry}'`);
      const [, id, baseUrl] = match as unknown as [string, string, string];
      if (id === 'local' || chatVendors.some((row) => row.id === id)) {
        throw new ConfigError('CUSTOM_AI_PROVIDERS', `'${id}' is a built-in provider; pick another name`);
      }
      try {
        new URL(baseUrl);
      } catch {
        throw new ConfigError('CUSTOM_AI_PROVIDERS', `the URL of '${id}' must be absolute, got '${baseUrl}'`);
      }
      const prefix = id.toUpperCase().replace(/-/g, '_');
      return Object.freeze({
        id,
        baseUrl: baseUrl.replace(/\/+$/, ''),
        ...(env[`${prefix}_API_KEY`] && { apiKey: env[`${prefix}_API_KEY`] }),
        ...(env[`${prefix}_MODEL`] && { model: env[`${prefix}_MODEL`] }),
      });
    }),
  );
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses `250ms`, `5s`, `30m`, `1h`. */
export function parseDuration(raw: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(raw.trim());
  return match ? Number(match[1]) * UNIT_MS[match[2]!]! : undefined;
}

function duration(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const ms = parseDuration(raw);
  if (ms === undefined || ms <= 0) throw new ConfigError(name, `must be a duration like 30s, 5m or 1h, got '${raw}'`);
  return ms;
}

/** `JWT_SECRET` when set: long enough that it cannot be guessed offline from a token. */
function jwtSecret(env: Record<string, string | undefined>): string | undefined {
  const value = env.JWT_SECRET;
  if (!value) return undefined;
  const problem = secretProblem(value);
  if (problem !== undefined) throw new ConfigError('JWT_SECRET', problem);
  return value;
}

/** The data folder exists (or is made) and this process may write in it; otherwise one line naming DATA_DIR. */
function ensureWritableFolder(dataDir: string, where: string): void {
  if (existsSync(dataDir) && !statSync(dataDir).isDirectory()) throw new ConfigError('DATA_DIR', `${dataDir} is a file, not a folder (${where}); set DATA_DIR to a folder`);
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    throw new ConfigError('DATA_DIR', `cannot create the data folder (${where}): ${fsReason(error)}; set DATA_DIR to a folder this user can write`);
  }
  try {
    accessSync(dataDir, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new ConfigError('DATA_DIR', `the data folder is not writable (${where}): ${fsReason(error)}; set DATA_DIR to a folder this user can write`);
  }
}

/**
 * For commands that read a server's data (`keys`, `token`): the folder, its SQLite database and
 * (without JWT_SECRET) its JWT secret must already be there. Creating them would hand out keys
 * and tokens that the running server has never heard of.
 */
function requireExistingData(dataDir: string, databaseUrl: string, where: string, needsSecretFile: boolean): void {
  const hint = 'start the server once (npm start) or set DATA_DIR to the data folder the server uses';
  if (!existsSync(dataDir)) throw new ConfigError('DATA_DIR', `no data folder at ${dataDir} (${where}); ${hint}`);
  if (!statSync(dataDir).isDirectory()) throw new ConfigError('DATA_DIR', `${dataDir} is a file, not a folder (${where}); set DATA_DIR to a folder`);
  if (databaseUrl.startsWith('sqlite:')) {
    const file = resolve(databaseUrl.replace(/^sqlite:(\/\/)?/, ''));
    if (!existsSync(file)) throw new ConfigError('DATA_DIR', `no database at ${file} (${where}); ${hint}`);
  }
  if (needsSecretFile && !existsSync(join(dataDir, 'jwt-secret'))) {
    throw new ConfigError('DATA_DIR', `no jwt-secret in ${dataDir} (${where}) and JWT_SECRET is unset; use the server's JWT_SECRET or its DATA_DIR`);
  }
}

/** `EACCES: permission denied, mkdir '/x'` → `permission denied (EACCES)`. */
function fsReason(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  const text = /^\w+: ([^,]+)/.exec(message)?.[1] ?? message;
  return code ? `${text} (${code})` : text;
}

/** A JWT secret generated on first start and kept in the data folder, so tokens survive restarts. */
function persistedSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}
