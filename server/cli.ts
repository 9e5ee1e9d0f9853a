#!/usr/bin/env node
import { parseArgs } from 'node:util';
import type { AvatarService, KeyMode, Tier } from '../core/index.js';
import { ServiceError, Tiers, isoTime } from '../core/index.js';
import { ConfigError, defaultDataDir, describeDataDir, loadConfig } from './config.js';
import { createServiceFromConfig, openScaleOut } from './create-service.js';
import { DEMO_EMAIL } from './dev-bootstrap.js';
import { presentApiKey } from './edge/present.js';
import { packagePaths } from './package-paths.js';
import { startServer } from './start-server.js';
import { startupNotes } from './startup-notes.js';

const usage = () => `Usage: avatar-service <command>

  serve                                             start the server
  migrate                                           apply database migrations and exit
  account create --email E --password P [--tier free|creator|pro|enterprise]
  keys create --email E --name N [--test]           create an API key (live unless --test)
  keys list --email E                               list an account's keys (no values)
  keys revoke --id key_…                            revoke a key
  token --email E                                   mint a one-hour account token (JWT)
  --version                                         print the version

Configured by environment variables (PORT, DATA_DIR, DATABASE_URL, …); see the README.
Server and CLI share one data folder: DATA_DIR, else ${'$'}{defaultDataDir()}.
keys and token work on existing data only; run them with the server's DATA_DIR.`;

class UsageError extends Error {}

const KNOWN_COMMANDS = ['migrate', 'account create', 'keys create', 'keys list', 'keys revoke', 'token'];
const NEEDS_EXISTING_DATA = ['keys create', 'keys list', 'keys revoke', 'token'];

/** The operator's CLI (docs/api.md, CLI): JSON on stdout for commands that create, one-line errors on stderr. */
async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      tier: { type: 'string' },
      name: { type: 'string' },
      id: { type: 'string' },
      test: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  if (values.version) {
    console.log(packagePaths().version);
    return 0;
  }
  const command = positionals.join(' ');
  if (values.help || command === '' || command === 'help') {
    console.log(usage());
    return 0;
  }
  if (command === 'serve') return serve(loadConfig());
  if (!KNOWN_COMMANDS.includes(command)) throw new UsageError(`Unknown command '${command}'. Run avatar-service --help`);
  // Keys and tokens only mean something to the server whose data they are in: never start empty data for them.
  const config = loadConfig(process.env, { data: NEEDS_EXISTING_DATA.includes(command) ? 'existing' : 'create' });

  // A revocation is broadcast to the running servers (through Redis, when they share one), so
  // their open connections with the key end at once.
  const redis = command === 'keys revoke' ? await openScaleOut(config) : undefined;
  const service = await createServiceFromConfig(config, redis && { redis });
  try {
    await service.store.migrate();
    const output = await run(service, command, values).catch((error: unknown) => {
      // "No account with email …" is only true of this folder: say which one, still on one line.
      if (error instanceof ServiceError) throw new UsageError(`${error.message} (${describeDataDir(config)})`);
      throw error;
    });
    console.log(JSON.stringify(output));
    console.error(`avatar-service: used the ${describeDataDir(config)}`);
    return 0;
  } finally {
    await service.close();
    await redis?.close();
  }
}

async function run(service: AvatarService, command: string, values: Record<string, string | boolean | undefined>): Promise<unknown> {
  const need = (name: string): string => {
    const value = values[name];
    if (typeof value !== 'string' || value === '') throw new UsageError(`${command}: --${name} is required`);
    return value;
  };
  switch (command) {
    case 'migrate':
      return { migrated: true };
    case 'account create': {
      const tier = (values.tier as string | undefined) ?? 'free';
      if (!(Tiers as readonly string[]).includes(tier)) throw new UsageError(`--tier must be one of ${Tiers.join(', ')}`);
      const account = await service.accounts.createAccount({ email: need('email'), password: need('password'), tier: tier as Tier });
      return { id: account.id, email: account.email, tier: account.tier, created_at: isoTime(account.createdAt) };
    }
    case 'keys create': {
      const account = await service.accounts.findAccountByEmail(need('email'));
      const mode: KeyMode = values.test ? 'test' : 'live';
      const { record, key } = await service.accounts.createApiKey(account.id, { name: need('name'), mode });
      return { id: record.id, name: record.name, mode: record.mode, key };
    }
    case 'keys list': {
      const account = await service.accounts.findAccountByEmail(need('email'));
      return { api_keys: (await service.accounts.listApiKeys(account.id)).map(presentApiKey) };
    }
    case 'keys revoke': {
      const id = need('id');
      const key = await service.accounts.findApiKeyById(id);
      await service.accounts.revokeApiKey(key.accountId, id);
      return { deleted: true };
    }
    case 'token': {
      const account = await service.accounts.findAccountByEmail(need('email'));
      const { token, expiresAt } = service.accounts.issueToken(account.id);
      return { token, expires_at: isoTime(expiresAt) };
    }
    default:
      throw new UsageError(`Unknown command '${command}'. Run avatar-service --help`);
  }
}

async function serve(config: ReturnType<typeof loadConfig>): Promise<number> {
  const running = await startServer(config);
  const { logger } = running;
  const lines = [
    config.devBootstrap
      ? `avatar-service listening on ${running.url} — open ${config.publicUrl}/ for the demo`
      : `avatar-service listening on ${running.url} — API at ${config.publicUrl}/v1 (the demo page needs DEV_BOOTSTRAP=true)`,
  ];
  lines.push(`Using the ${describeDataDir(config)}.`, ...startupNotes(config));
  if (running.bootstrap?.key) {
    lines.push(
      'Development bootstrap (DEV_BOOTSTRAP): created a demo account and a test API key.',
      `  account: ${DEMO_EMAIL}  password: ${running.bootstrap.password}`,
      `  API key: ${running.bootstrap.key}   (shown once; it is stored only as a hash)`,
      `  try: curl -H "Authorization: Bearer ${running.bootstrap.key}" -H "Content-Type: application/json" -d '{"avatar_id":"luna-001"}' ${config.publicUrl}/v1/conversations`,
    );
  } else if (running.bootstrap) {
    lines.push(`Demo account ${DEMO_EMAIL}; another test key: npx avatar-service keys create --email ${DEMO_EMAIL} --name dev --test`);
  }
  // Logs are JSON lines from the first: the banner is one line per sentence, in `msg`, with
  // "listening on" last, so whoever waits for it (a script, a test) has read all the others.
  for (const line of [...lines.slice(1), lines[0]!]) logger.info(line);
  return new Promise<number>(() => {
    const exit = (code: number, message: string) => {
      logger.error(message);
      process.exit(code);
    };
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      // A second signal, or a shutdown past SHUTDOWN_TIMEOUT_MS, exits at once with 1.
      if (stopping) return exit(1, `${signal} during shutdown: exiting without waiting`);
      stopping = true;
      logger.info({ signal, timeout_ms: config.shutdownTimeoutMs }, 'shutting down');
      const timer = setTimeout(() => exit(1, `shutdown took longer than SHUTDOWN_TIMEOUT_MS (${config.shutdownTimeoutMs} ms): exiting anyway`), config.shutdownTimeoutMs);
      timer.unref();
      running.close().then(
        () => {
          clearTimeout(timer);
          logger.info('stopped');
          // Nothing is left to wait for; a handle some library forgot must not keep the process up.
          process.exit(0);
        },
        (error: unknown) => exit(1, `shutdown failed: ${error instanceof Error ? error.message : String(error)}`),
      );
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof UsageError || error instanceof ServiceError) {
      console.error(`avatar-service: ${error.message}`);
    } else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      const { address, port } = error as { address?: string; port?: number };
      console.error(`avatar-service: PORT: ${address}:${port} is already in use (another server running?); set PORT to a free port`);
    } else if (error instanceof TypeError && /Unknown option|Unexpected argument/.test(error.message)) {
      // Node's parser explains how to pass a positional starting with '-'; name the option only.
      const option = /Unknown option '([^']+)'/.exec(error.message)?.[1];
      console.error(`avatar-service: ${option ? `unknown option ${option}` : error.message}. Run avatar-service --help`);
    } else {
      console.error(`avatar-service: ${error instanceof Error ? error.message : String(error)}`);
    }
    process.exitCode = 1;
  },
);
