/**
 * Authenticated `GET /v1/conversations/:id` (API key lookup + conversation + its messages from
 * SQLite, serialized) against three yardsticks measured in the same run, each in its own child
 * process:
 *
 * - bare Koa answering "hello world";
 * - the framework floor: Koa + @koa/router with the one route answering a copy of the app's
 *   response from memory (no authentication, no database, no serialization);
 * - the hand-written reference (bench/support/reference-conversation-read.ts): the shortest correct
 *   code for the route on this stack, reading the app's own SQLite file through better-sqlite3
 *   prepared statements returning arrays; its body is checked to be byte for byte the app's.
 *
 * The app and the reference are measured on a 6-message and a 200-message conversation, and the
 * app also on a page of 20 of the 200 (`GET /v1/conversations/:id/messages`). Each
 * figure is the server's CPU per request (process.cpuUsage of the server process over a load
 * phase ÷ the requests autocannon completed in it: steadier than req/s on a shared machine, where
 * the load generator competes for the same cores) and req/s. Rounds alternate between the
 * targets so machine noise hits all alike; ratios are given both as the ratio of medians and as
 * the median of each round's ratio (a pair measured back to back).
 *
 *   npm run build && node dist/bench/api-throughput.js [--rounds 9] [--seconds 3] [--connections 50]
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
import Router from '@koa/router';
import Koa from 'koa';
import { autocannon } from './support/autocannon.js';


type Ready = { port: number; path: string; headers: Record<string, string> };
/** The app also says where its data is, for the reference to read the same file. */
type AppReady = Ready & { longPath: string; filename: string; publicUrl: string };
/** A response of the app, copied byte for byte by the floor server. */
type Snapshot = { path: string; body: string; headers: Record<string, string> };
/** What the reference server needs: the app's database and public URL, and the headers to copy. */
type ReferenceSetup = { filename: string; publicUrl: string; headers: Record<string, string> };

/** Messages of the short and the long conversation (user message + reply per turn). */
const SHORT_TURNS = 3;
const LONG_TURNS = 100;
/** Headers of the app's response that the floor and the reference copy (the rest Koa sets alike). */
const COPIED_HEADERS = ['content-type', 'x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

async function serveBareKoa(): Promise<Ready> {
  const app = new Koa();
  app.use((ctx) => {
    ctx.body = 'hello world';
  });
  return listen(app.callback(), '/', {});
}

/** Koa + @koa/router, one route, answering the app's response from memory. */
async function serveFloor(snapshot: Snapshot): Promise<Ready> {
  const app = new Koa();
  const router = new Router();
  router.get('/v1/conversations/:id', (ctx) => {
    ctx.set(snapshot.headers);
    ctx.body = snapshot.body;
  });
  app.use(router.routes());
  return listen(app.callback(), snapshot.path, {});
}

async function serveReference(setup: ReferenceSetup): Promise<Ready> {
  const { createReferenceApp } = await import('./support/reference-conversation-read.js');
  const app = await createReferenceApp(setup);
  return listen(app.callback(), '/', {});
}

/** The app's answer to a request, with the headers it sets itself. */
async function snapshotOf(port: number, path: string, headers: Record<string, string>): Promise<Snapshot> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return { path, body: await response.text(), headers: Object.fromEntries(COPIED_HEADERS.map((name) => [name, response.headers.get(name) ?? ''])) };
}

/** The app; `cached`: with its read caches (principal cache, conversation bodies) on, as by default; else off (READ_CACHES=false). */
async function serveApp(cached: boolean): Promise<AppReady> {
  const { createAvatarService, FsBlobStore, createLocalProvider, createSqliteStore } = await import('../core/index.js');
  const { createApp, createLogger, jsonDestination, loadConfig } = await import('../server/index.js');
  const dataDir = await mkdtemp(join(tmpdir(), 'avatar-bench-'));
  process.once('disconnect', () => void rm(dataDir, { recursive: true, force: true }).then(() => process.exit(0)));
  const config = loadConfig({ DATA_DIR: dataDir, DEV_BOOTSTRAP: 'false', READ_CACHES: String(cached) });
  const filename = join(dataDir, 'avatar.db');
  const service = createAvatarService({
    store: await createSqliteStore({ filename }),
    blobs: new FsBlobStore(join(dataDir, 'audio')),
    jwtSecret: config.jwtSecret,
    aiProviders: [createLocalProvider()],
    speechProviders: [],
    defaultTtsProvider: 'browser',
    keyCache: config.readCaches && { ttlMs: config.readCacheTtlMs },
  });
  await service.start();
  const created = await service.accounts.createAccount({ email: 'bench@example.com', password: 'benchmark' });
  // An enterprise plan with a limit far above what the load reaches: the limiter still runs on every request.
  const account = await service.accounts.setPlan(created.id, { tier: 'enterprise', requestsPerMinute: 100_000_000 });
  const { key } = await service.accounts.createApiKey(account.id, { name: 'bench', mode: 'test' });
  const owner = { accountId: account.id, mode: 'test' as const };
  const conversationWith = async (turns: number) => {
    const conversation = await service.conversations.create(owner, { avatarId: 'luna-001' });
    const prompts = ['Hi, I am Sam.', 'What can you do?', 'Tell me a joke.'];
    for (let i = 0; i < turns; i++) await service.conversations.sendMessage(owner, conversation.id, prompts[i % prompts.length]!);
    return `/v1/conversations/${conversation.id}`;
  };
  const path = await conversationWith(SHORT_TURNS);
  const longPath = await conversationWith(LONG_TURNS);
  // As served: metrics on (the app's own registry) and a request line per request, at info, written
  // as the server writes its log, to /dev/null; BENCH_REQUEST_LOG=off leaves the log out (metrics alone).
  const logger = process.env.BENCH_REQUEST_LOG === 'off' ? undefined : createLogger('info', jsonDestination('/dev/null'));
  const ready = await listen(createApp({ service, config, ...(logger && { logger }) }).callback(), path, { authorization: `Bearer ${key}` });
  return { ...ready, longPath, filename, publicUrl: config.publicUrl };
}

async function listen(handler: Parameters<typeof createServer>[1], path: string, headers: Record<string, string>): Promise<Ready> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, path, headers };
}

/** A child serving one target; it answers `cpu` with its process.cpuUsage(). */
interface Child<R extends Ready = Ready> {
  child: ChildProcess;
  ready: R;
  cpuMicros(): Promise<number>;
}

function start<R extends Ready = Ready>(role: string, setup?: unknown): Promise<Child<R>> {
  const child = fork(fileURLToPath(import.meta.url), role.split(' '), { stdio: 'inherit', execArgv: [...process.execArgv, ...profileArgs(role)] });
  if (setup !== undefined) child.send(setup as object);
  const cpuMicros = () =>
    new Promise<number>((resolve) => {
      child.once('message', (usage) => resolve((usage as NodeJS.CpuUsage).user + (usage as NodeJS.CpuUsage).system));
      child.send('cpu');
    });
  return new Promise((resolve, reject) => {
    child.once('message', (ready) => resolve({ child, ready: ready as R, cpuMicros }));
    child.once('exit', (code) => reject(new Error(`${role} exited with ${code}`)));
  });
}

/** `--profile <dir>`: the app children run under `node --cpu-prof`, their profiles written to `<dir>` when the run ends. */
let profileDir: string | undefined;
const profileArgs = (role: string) => (profileDir && role.startsWith('serve-app') ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []);

/** In a server child: report readiness, then answer every `cpu` request. */
function serveChild(ready: Ready): void {
  process.on('message', (message) => {
    if (message === 'cpu') process.send!(process.cpuUsage());
  });
  process.send!(ready);
}

interface Target {
  server: Child;
  path: string;
  headers: Record<string, string>;
}

interface Sample {
  rps: number;
  /** Server CPU per request, µs. */
  cpu: number;
  p99: number;
}

async function measure(name: string, target: Target, seconds: number, connections: number): Promise<Sample> {
  const before = await target.server.cpuMicros();
  const result = await autocannon({ url: `http://127.0.0.1:${target.server.ready.port}${target.path}`, headers: target.headers, duration: seconds, connections });
  const after = await target.server.cpuMicros();
  if (result.non2xx || result.errors) throw new Error(`${name} answered ${result.non2xx} non-2xx and ${result.errors} errors`);
  return { rps: result.requests.average, cpu: (after - before) / result.requests.total, p99: result.latency.p99 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round1 = (value: number) => Math.round(value * 10) / 10;
const ratio = (value: number) => Number(value.toFixed(3));

async function main(): Promise<void> {
  const role = process.argv[2];
  if (role === 'serve-koa') return serveChild(await serveBareKoa());
  if (role === 'serve-app') return serveChild(await serveApp(process.argv[3] === 'cached'));
  if (role === 'serve-floor' || role === 'serve-reference') {
    process.once('message', (setup) => {
      const serving = role === 'serve-floor' ? serveFloor(setup as Snapshot) : serveReference(setup as ReferenceSetup);
      void serving.then(serveChild);
    });
    return;
  }
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '9' },
      seconds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '50' },
      profile: { type: 'string' },
    },
  });
  profileDir = values.profile;
  const rounds = Number(values.rounds);
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  const koa = await start('serve-koa');
  const app = await start<AppReady>('serve-app uncached');
  const cachedApp = await start<AppReady>('serve-app cached');
  const { path, longPath, headers, port } = app.ready;
  const short = await snapshotOf(port, path, headers);
  const long = await snapshotOf(port, longPath, headers);
  // A page of 20 from the middle of the long conversation, through the paged history route.
  const middle = (JSON.parse(long.body) as { messages: { id: string }[] }).messages[99]!.id;
  const pagePath = `${longPath}/messages?limit=20&starting_after=${middle}`;
  const floor = await start('serve-floor', short);
  const reference = await start('serve-reference', { filename: app.ready.filename, publicUrl: app.ready.publicUrl, headers: short.headers });
  try {
    // The reference must answer the very bytes the app does, or it measures something else.
    for (const snapshot of [short, long]) {
      const answer = await snapshotOf(reference.ready.port, snapshot.path, headers);
      if (answer.body !== snapshot.body) throw new Error(`the reference's body differs from the app's for ${snapshot.path}:\n${answer.body.slice(0, 400)}\n${snapshot.body.slice(0, 400)}`);
    }
    // The cached app answers its own conversations (same shapes, other ids); its caches must not change a byte.
    const cached = cachedApp.ready;
    for (const conversationPath of [cached.path, cached.longPath]) {
      const first = await snapshotOf(cached.port, conversationPath, cached.headers);
      const again = await snapshotOf(cached.port, conversationPath, cached.headers);
      if (first.body !== again.body || first.body.length === 0) throw new Error(`the cached app answered ${conversationPath} differently from the cache`);
    }
    // In this order, each pair a target ratio compares is measured back to back (bare Koa and the
    // cached app, the cached app and its 200-message read, the reference and the app), and every
    // other round runs the list backwards: a slow phase of the machine, which lasts seconds, falls
    // on both sides of a pair and on each side first as often.
    const targets: Record<string, Target> = {
      floor: { server: floor, path, headers: {} },
      koa: { server: koa, path: '/', headers: {} },
      app_cached: { server: cachedApp, path: cached.path, headers: cached.headers },
      app_cached_200: { server: cachedApp, path: cached.longPath, headers: cached.headers },
      reference: { server: reference, path, headers },
      app: { server: app, path, headers },
      app_page_20_of_200: { server: app, path: pagePath, headers },
      app_200: { server: app, path: longPath, headers },
      reference_200: { server: reference, path: longPath, headers },
    };
    for (const [name, target] of Object.entries(targets)) await measure(name, target, 1, connections); // warm-up
    const samples = Object.fromEntries(Object.keys(targets).map((name) => [name, [] as Sample[]]));
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? Object.entries(targets) : Object.entries(targets).reverse();
      for (const [name, target] of order) samples[name]!.push(await measure(name, target, seconds, connections));
      console.error(`round ${round + 1}: ${Object.entries(samples).map(([name, list]) => `${name} ${list.at(-1)!.cpu.toFixed(1)} µs ${list.at(-1)!.rps.toFixed(0)}/s`).join(', ')}`);
    }
    const cpu = (name: string) => median(samples[name]!.map((s) => s.cpu));
    const rps = (name: string) => median(samples[name]!.map((s) => s.rps));
    const perRound = (numerator: string, denominator: string) =>
      ratio(median(samples[numerator]!.map((sample, round) => sample.cpu / samples[denominator]![round]!.cpu)));
    const messages = (body: string) => (JSON.parse(body) as { messages: unknown[] }).messages.length;
    const result = {
      benchmark: 'authenticated GET /v1/conversations/:id: app (read caches off, and on) vs hand-written reference, Koa + router floor and bare Koa',
      rounds,
      seconds,
      connections,
      messages: { short: messages(short.body), long: messages(long.body) },
      server_cpu_us_per_request_median: Object.fromEntries(Object.keys(targets).map((name) => [name, round1(cpu(name))])),
      rps_median: Object.fromEntries(Object.keys(targets).map((name) => [name, Math.round(rps(name))])),
      app_p99_ms_median: median(samples.app!.map((s) => s.p99)),
      // CPU ratios are speed ratios: the cheaper per request, the higher (bare Koa's CPU ÷ the app's is app ÷ bare Koa).
      cpu_ratios: {
        app_vs_reference: ratio(cpu('reference') / cpu('app')),
        app_vs_bare_koa: ratio(cpu('koa') / cpu('app')),
        app_cached_vs_bare_koa: ratio(cpu('koa') / cpu('app_cached')),
        app_cached_vs_reference: ratio(cpu('reference') / cpu('app_cached')),
        app_cached_200_vs_app_cached_6: ratio(cpu('app_cached_200') / cpu('app_cached')),
        floor_vs_bare_koa: ratio(cpu('koa') / cpu('floor')),
        reference_vs_bare_koa: ratio(cpu('koa') / cpu('reference')),
        app_200_vs_app_6: ratio(cpu('app_200') / cpu('app')),
        reference_200_vs_reference_6: ratio(cpu('reference_200') / cpu('reference')),
        app_200_vs_reference_200: ratio(cpu('reference_200') / cpu('app_200')),
        app_page_20_of_200_vs_app_6: ratio(cpu('app_page_20_of_200') / cpu('app')),
      },
      per_extra_message_us: {
        app: round1((cpu('app_200') - cpu('app')) / (messages(long.body) - messages(short.body))),
        reference: round1((cpu('reference_200') - cpu('reference')) / (messages(long.body) - messages(short.body))),
      },
      // The same ratios taken in each round (its targets measured back to back), then the median:
      // a slow phase of the machine weighs on both sides of a round's ratio alike.
      cpu_ratios_median_of_rounds: {
        app_vs_reference: perRound('reference', 'app'),
        app_cached_vs_bare_koa: perRound('koa', 'app_cached'),
        app_cached_200_vs_app_cached_6: perRound('app_cached_200', 'app_cached'),
        floor_vs_bare_koa: perRound('koa', 'floor'),
      },
      rps_ratios: {
        app_vs_reference: ratio(rps('app') / rps('reference')),
        app_vs_bare_koa: ratio(rps('app') / rps('koa')),
        app_cached_vs_bare_koa: ratio(rps('app_cached') / rps('koa')),
        floor_vs_bare_koa: ratio(rps('floor') / rps('koa')),
      },
      targets: 'issue 18: app ÷ reference >= 0.85 uncached; app_cached ÷ bare Koa >= 0.50; 200-message read <= 3 × the 6-message one (CPU per request)',
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    koa.child.kill();
    floor.child.kill();
    reference.child.kill();
    app.child.disconnect();
    cachedApp.child.disconnect();
  }
}

await main();
