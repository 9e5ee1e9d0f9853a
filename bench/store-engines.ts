/**
 * The message path on PostgreSQL vs SQLite, measured in the same run: the same app (createApp on
 * the core, offline `local` AI provider, no speech so storage is not hidden behind synthesis) in
 * one child process per engine, loaded by autocannon in alternating rounds.
 *
 * - `send`: authenticated `POST /v1/conversations/:id/messages` (non-streaming): key lookup, rate
 *   limit, the conversation and its last 40 messages read, the user message and the reply
 *   written, usage counted — rotating over 500 conversations so no conversation has two replies
 *   at once;
 * - `read`: authenticated `GET /v1/conversations/:id` of a 6-message conversation.
 *
 * PostgreSQL is a throwaway local cluster (test/support/postgres-engine.ts: `fsync=off`,
 * `synchronous_commit=off`, like a tuned test server, not a durable production one; SQLite runs as
 * the app runs it, WAL with `synchronous=NORMAL`). Figures: req/s and p99 latency (medians of the
 * rounds) and the app process's CPU per request (PostgreSQL's own CPU is in its server processes,
 * not in this figure).
 *
 *   npm run build && node dist/bench/store-engines.js [--rounds 3] [--seconds 5] [--connections 20]
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { autocannon } from './support/autocannon.js';


const CONVERSATIONS = 500;

interface Ready {
  port: number;
  key: string;
  /** Paths of the conversations `send` rotates over. */
  conversations: string[];
  /** A 6-message conversation for `read`. */
  readPath: string;
}

/** In a child: the app on one engine, with an account, a key and the conversations. */
async function serveApp(engine: 'sqlite' | 'postgres', databaseUrl: string | undefined): Promise<void> {
  const { createAvatarService, FsBlobStore, createLocalProvider, createSqliteStore, createPostgresStore } = await import('../core/index.js');
  const { createApp, loadConfig } = await import('../server/index.js');
  const dataDir = await mkdtemp(join(tmpdir(), `avatar-bench-${engine}-`));
  process.once('disconnect', () => void rm(dataDir, { recursive: true, force: true }).then(() => process.exit(0)));
  const config = loadConfig({ DATA_DIR: dataDir, DEV_BOOTSTRAP: 'false' });
  const store = engine === 'sqlite' ? await createSqliteStore({ filename: join(dataDir, 'avatar.db') }) : await createPostgresStore({ url: databaseUrl! });
  const service = createAvatarService({
    store,
    blobs: new FsBlobStore(join(dataDir, 'audio')),
    jwtSecret: config.jwtSecret,
    aiProviders: [createLocalProvider()],
    speechProviders: [],
    defaultTtsProvider: 'browser',
  });
  await service.start();
  const created = await service.accounts.createAccount({ email: 'bench@example.com', password: 'benchmark' });
  // A limit far above what the load reaches: the limiter still runs on every request.
  const account = await service.accounts.setPlan(created.id, { tier: 'enterprise', requestsPerMinute: 100_000_000 });
  const { key } = await service.accounts.createApiKey(account.id, { name: 'bench', mode: 'test' });
  const owner = { accountId: account.id, mode: 'test' as const };
  const conversations: string[] = [];
  for (let i = 0; i < CONVERSATIONS; i++) conversations.push(`/v1/conversations/${(await service.conversations.create(owner, { avatarId: 'luna-001' })).id}/messages`);
  const read = await service.conversations.create(owner, { avatarId: 'luna-001' });
  for (const prompt of ['Hi, I am Sam.', 'What can you do?', 'Tell me a joke.']) await service.conversations.sendMessage(owner, read.id, prompt);
  const server = createServer(createApp({ service, config }).callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.on('message', (message) => {
    if (message === 'cpu') process.send!(process.cpuUsage());
  });
  const ready: Ready = { port: (server.address() as AddressInfo).port, key, conversations, readPath: `/v1/conversations/${read.id}` };
  process.send!(ready);
}

interface Child {
  child: ChildProcess;
  ready: Ready;
  cpuMicros(): Promise<number>;
}

function start(engine: string, databaseUrl?: string): Promise<Child> {
  // The app logs every reply autocannon cuts off at the end of a phase (a client that disconnects
  // cancels its reply); its stderr is kept and shown only if it fails to start.
  const child = fork(fileURLToPath(import.meta.url), ['serve', engine, ...(databaseUrl ? [databaseUrl] : [])], { stdio: ['ignore', 'inherit', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const cpuMicros = () =>
    new Promise<number>((resolve) => {
      child.once('message', (usage) => resolve((usage as NodeJS.CpuUsage).user + (usage as NodeJS.CpuUsage).system));
      child.send('cpu');
    });
  return new Promise((resolve, reject) => {
    child.once('message', (ready) => resolve({ child, ready: ready as Ready, cpuMicros }));
    child.once('exit', (code) => reject(new Error(`the ${engine} server exited with ${code}:\n${stderr}`)));
  });
}

interface Sample {
  rps: number;
  p99: number;
  /** App process CPU per request, µs. */
  cpu: number;
}

async function measure(name: string, target: Child, path: 'send' | 'read', seconds: number, connections: number): Promise<Sample> {
  const { port, key, conversations, readPath } = target.ready;
  let next = 0;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const requests =
    path === 'send'
      ? [{ method: 'POST', headers, body: '{"content":"Tell me something about the weather."}', setupRequest: (req: Record<string, unknown>) => ({ ...req, path: conversations[next++ % conversations.length] }) }]
      : [{ method: 'GET', path: readPath, headers }];
  const before = await target.cpuMicros();
  const result = await autocannon({ url: `http://127.0.0.1:${port}`, requests, duration: seconds, connections });
  const after = await target.cpuMicros();
  if (result.non2xx || result.errors) throw new Error(`${name} ${path} answered ${result.non2xx} non-2xx and ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99, cpu: (after - before) / result.requests.total };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  if (process.argv[2] === 'serve') return serveApp(process.argv[3] as 'sqlite' | 'postgres', process.argv[4]);
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '3' }, seconds: { type: 'string', default: '5' }, connections: { type: 'string', default: '20' } },
  });
  const rounds = Number(values.rounds);
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  const { startPostgres } = await import('../test/support/postgres-engine.js');
  const postgres = await startPostgres();
  const children: Child[] = [];
  try {
    const targets: Record<string, Child> = {
      sqlite: await start('sqlite'),
      postgres: await start('postgres', await postgres.createDatabase()),
    };
    children.push(...Object.values(targets));
    const cases = Object.keys(targets).flatMap((engine) => (['send', 'read'] as const).map((path) => ({ engine, path, name: `${engine}_${path}` })));
    for (const { engine, path, name } of cases) await measure(name, targets[engine]!, path, 1, connections); // warm-up
    const samples = Object.fromEntries(cases.map(({ name }) => [name, [] as Sample[]]));
    for (let round = 0; round < rounds; round++) {
      for (const { engine, path, name } of cases) samples[name]!.push(await measure(name, targets[engine]!, path, seconds, connections));
      console.error(`round ${round + 1}: ${Object.entries(samples).map(([name, list]) => `${name} ${list.at(-1)!.rps.toFixed(0)}/s`).join(', ')}`);
    }
    const rps = (name: string) => Math.round(median(samples[name]!.map((s) => s.rps)));
    const result = {
      benchmark: 'message path on PostgreSQL vs SQLite: POST /v1/conversations/:id/messages (local AI, no speech) and GET /v1/conversations/:id',
      rounds,
      seconds,
      connections,
      rps_median: Object.fromEntries(cases.map(({ name }) => [name, rps(name)])),
      p99_ms_median: Object.fromEntries(cases.map(({ name }) => [name, median(samples[name]!.map((s) => s.p99))])),
      app_cpu_us_per_request_median: Object.fromEntries(cases.map(({ name }) => [name, Math.round(median(samples[name]!.map((s) => s.cpu)))])),
      rps_ratios_postgres_vs_sqlite: {
        send: Number((rps('postgres_send') / rps('sqlite_send')).toFixed(3)),
        read: Number((rps('postgres_read') / rps('sqlite_read')).toFixed(3)),
      },
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    for (const { child } of children) child.disconnect();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await postgres.stop();
  }
}

await main();
