import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AIProvider, AvatarService, BlobStore, SpeechProvider } from '../../core/index.js';
import {
  FsBlobStore,
  createAvatarService,
  createLocalProvider,
  createLocalSpeechProvider,
  createSqliteStore,
} from '../../core/index.js';
import { attachHost, createLogger, idsFor, loadConfig, moderationOptionsFor, providerOptionsFor, webhookOptionsFor } from '../../server/index.js';
import type { Host, Metrics, ServerConfig } from '../../server/index.js';

export interface TestServer {
  url: string;
  service: AvatarService;
  config: ServerConfig;
  dataDir: string;
  /** A test key of account A. */
  key: string;
  /** A live key of account A (separate data from `key`). */
  liveKey: string;
  /** A test key of account B. */
  otherKey: string;
  accountId: string;
  request(path: string, init?: RequestInit & { json?: unknown; auth?: string | null }): Promise<Response>;
  /** The hosted app: its gate, realtime transports, and `shutdown` (the first step of a graceful stop). */
  host: Host;
  close(): Promise<void>;
}

export interface TestServerOptions {
  env?: Record<string, string>;
  aiProviders?: AIProvider[];
  speechProviders?: SpeechProvider[];
  /**
   * Build the providers from `env` exactly as `npm start` does (vendor keys, base URLs, fallbacks);
   * `aiProviders`, when also given, replace the AI part.
   */
  providersFromConfig?: boolean;
  /** Receives what the app logs besides request lines (unexpected errors, as `Error`s with their stacks); discarded unless given. */
  log?: (message: string, error?: unknown) => void;
  /** Receives each request line of the log, as parsed JSON; off unless given. */
  accessLog?: (line: Record<string, unknown>) => void;
  /** Caps the SQLite file at this many 4 KiB pages: a disk that fills up. */
  maxPageCount?: number;
  /** Where audio goes; a folder of the data directory unless given. */
  blobs?: BlobStore;
  /** The metrics, also the core's telemetry; a fresh registry of the app's own unless given. */
  metrics?: Metrics;
}

/**
 * A real server on an ephemeral port over a fresh SQLite file, with two accounts and keys.
 * `request` defaults to account A's test key; pass `auth: null` for none.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'avatar-api-'));
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', PUBLIC_URL: url, DEV_BOOTSTRAP: 'false', ...options.env });
  const service = createAvatarService({
    store: await createSqliteStore({ filename: join(dataDir, 'avatar.db'), ...(options.maxPageCount !== undefined && { maxPageCount: options.maxPageCount }) }),
    blobs: options.blobs ?? new FsBlobStore(join(dataDir, 'audio')),
    ids: idsFor(config),
    jwtSecret: config.jwtSecret,
    avatarMaxBytes: config.avatarMaxBytes,
    ...webhookOptionsFor(config),
    ...moderationOptionsFor(config),
    ...(options.metrics && { telemetry: options.metrics }),
    ...(options.providersFromConfig
      ? { ...providerOptionsFor(config), ...(options.aiProviders && { aiProviders: options.aiProviders }) }
      : {
          aiProviders: options.aiProviders ?? [createLocalProvider()],
          speechProviders: options.speechProviders ?? [createLocalSpeechProvider()],
        }),
  });
  await service.start();
  const a = await service.accounts.createAccount({ email: 'a@example.com', password: 'password-a', tier: 'pro' });
  const b = await service.accounts.createAccount({ email: 'b@example.com', password: 'password-b' });
  const key = (await service.accounts.createApiKey(a.id, { name: 'test A', mode: 'test' })).key;
  const liveKey = (await service.accounts.createApiKey(a.id, { name: 'live A', mode: 'live' })).key;
  const otherKey = (await service.accounts.createApiKey(b.id, { name: 'test B', mode: 'test' })).key;

  const host = attachHost(server, {
    service,
    config,
    logger: testLogger(options),
    accessLog: options.accessLog !== undefined,
    ...(options.metrics && { metrics: options.metrics }),
  });

  return {
    url,
    service,
    config,
    dataDir,
    key,
    liveKey,
    otherKey,
    accountId: a.id,
    host,
    request(path, init = {}) {
      const { json, auth, ...rest } = init;
      const headers = new Headers(rest.headers);
      const credential = auth === undefined ? key : auth;
      if (credential !== null) headers.set('authorization', `Bearer ${credential}`);
      if (json !== undefined) headers.set('content-type', 'application/json');
      return fetch(url + path, { ...rest, headers, ...(json !== undefined && { body: JSON.stringify(json) }) });
    },
    async close() {
      await service.conversations.close();
      await host.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await service.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The app's JSON log, parsed line by line and handed to the test's `log` and `accessLog`. */
function testLogger({ log, accessLog }: Pick<TestServerOptions, 'log' | 'accessLog'>) {
  return createLogger('info', {
    write(text: string) {
      const line = JSON.parse(text) as Record<string, unknown> & { msg: string; err?: { message: string; stack?: string } };
      if (line.msg === 'request') accessLog?.(line);
      else log?.(line.msg, line.err && Object.assign(new Error(line.err.message), { stack: line.err.stack }));
    },
  });
}
