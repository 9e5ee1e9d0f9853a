/**
 * Requests/s of authenticated `GET /v1/conversations/:id` (API key lookup + conversation + its
 * messages from SQLite, serialized) as a ratio to a bare Koa hello world, both measured in the
 * same run. A third server measures the floor the framework sets: Koa + @koa/router with the same
 * one route answering a precomputed copy of the app's response (same body, same headers), no
 * authentication, no database, no serialization. No implementation of this route on Koa +
 * @koa/router can be faster than that floor.
 *
 * Each server runs in its own child process; autocannon runs in this one. Rounds alternate
 * between the servers so machine noise hits all alike; ratios are of medians.
 *
 *   npm run build && node dist/bench/api-throughput.js [--rounds 5] [--seconds 5] [--connections 50]
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
// autocannon ships no types; this is the part used here.
import autocannonUntyped from 'autocannon';

interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
const autocannon = autocannonUntyped as unknown as (options: Record<string, unknown>) => Promise<AutocannonResult>;

type Ready = { port: number; path: string; headers: Record<string, string> };
/** A response of the app, copied byte for byte by the floor server. */
type Snapshot = { path: string; body: string; headers: Record<string, string> };

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

/** The app's answer to the measured request, with the headers it sets itself. */
async function snapshotOf(ready: Ready): Promise<Snapshot> {
  const response = await fetch(`http://127.0.0.1:${ready.port}${ready.path}`, { headers: ready.headers });
  if (!response.ok) throw new Error(`app answered ${response.status}`);
  const copied = ['content-type', 'x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
  const headers = Object.fromEntries(copied.map((name) => [name, response.headers.get(name) ?? '']));
  return { path: ready.path, body: await response.text(), headers };
}

async function serveApp(): Promise<Ready> {
  const { createAvatarService, FsBlobStore, createLocalProvider, createSqliteStore } = await import('../core/index.js');
  const { createApp, loadConfig } = await import('../server/index.js');
  const dataDir = await mkdtemp(join(tmpdir(), 'avatar-bench-'));
  process.once('disconnect', () => void rm(dataDir, { recursive: true, force: true }).then(() => process.exit(0)));
  const config = loadConfig({ DATA_DIR: dataDir, DEV_BOOTSTRAP: 'false' });
  const service = createAvatarService({
    store: await createSqliteStore({ filename: join(dataDir, 'avatar.db') }),
    blobs: new FsBlobStore(join(dataDir, 'audio')),
    jwtSecret: config.jwtSecret,
    aiProviders: [createLocalProvider()],
    speechProviders: [],
    defaultTtsProvider: 'browser',
  });
  await service.start();
  const created = await service.accounts.createAccount({ email: 'bench@example.com', password: 'benchmark' });
  // An enterprise plan with a limit far above what the load reaches: the limiter still runs on every request.
  const account = await service.accounts.setPlan(created.id, { tier: 'enterprise', requestsPerMinute: 100_000_000 });
  const { key } = await service.accounts.createApiKey(account.id, { name: 'bench', mode: 'test' });
  const owner = { accountId: account.id, mode: 'test' as const };
  const conversation = await service.conversations.create(owner, { avatarId: 'luna-001' });
  for (const content of ['Hi, I am Sam.', 'What can you do?', 'Tell me a joke.']) {
    await service.conversations.sendMessage(owner, conversation.id, content);
  }
  return listen(createApp({ service, config }).callback(), `/v1/conversations/${conversation.id}`, { authorization: `Bearer ${key}` });
}

async function listen(handler: Parameters<typeof createServer>[1], path: string, headers: Record<string, string>): Promise<Ready> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, path, headers };
}

function start(role: string, snapshot?: Snapshot): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = fork(fileURLToPath(import.meta.url), [role], { stdio: 'inherit' });
  if (snapshot) child.send(snapshot);
  return new Promise((resolve, reject) => {
    child.once('message', (ready) => resolve({ child, ready: ready as Ready }));
    child.once('exit', (code) => reject(new Error(`${role} exited with ${code}`)));
  });
}

async function measure(ready: Ready, seconds: number, connections: number): Promise<AutocannonResult> {
  return autocannon({ url: `http://127.0.0.1:${ready.port}${ready.path}`, headers: ready.headers, duration: seconds, connections });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const role = process.argv[2];
  if (role === 'serve-koa' || role === 'serve-app') {
    const ready = role === 'serve-koa' ? await serveBareKoa() : await serveApp();
    process.send!(ready);
    return;
  }
  if (role === 'serve-floor') {
    process.once('message', (snapshot) => void serveFloor(snapshot as Snapshot).then((ready) => process.send!(ready)));
    return;
  }
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '5' }, seconds: { type: 'string', default: '5' }, connections: { type: 'string', default: '50' } },
  });
  const rounds = Number(values.rounds);
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  const koa = await start('serve-koa');
  const app = await start('serve-app');
  const floor = await start('serve-floor', await snapshotOf(app.ready));
  try {
    const servers = { koa, floor, app };
    for (const { ready } of Object.values(servers)) await measure(ready, 1, connections); // warm-up
    const rps = { koa: [] as number[], floor: [] as number[], app: [] as number[] };
    const appP99: number[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const [name, { ready }] of Object.entries(servers) as [keyof typeof servers, { ready: Ready }][]) {
        const result = await measure(ready, seconds, connections);
        if (result.non2xx || result.errors) throw new Error(`${name} answered ${result.non2xx} non-2xx and ${result.errors} errors`);
        rps[name].push(result.requests.average);
        if (name === 'app') appP99.push(result.latency.p99);
      }
      console.error(`round ${round + 1}: bare koa ${rps.koa.at(-1)!.toFixed(0)}, floor ${rps.floor.at(-1)!.toFixed(0)}, app ${rps.app.at(-1)!.toFixed(0)} req/s`);
    }
    const koaRps = median(rps.koa);
    const result = {
      benchmark: 'authenticated GET /v1/conversations/:id vs bare Koa hello world',
      rounds,
      seconds,
      connections,
      bare_koa_rps_median: Math.round(koaRps),
      floor_rps_median: Math.round(median(rps.floor)),
      app_rps_median: Math.round(median(rps.app)),
      app_p99_ms_median: median(appP99),
      floor_ratio: Number((median(rps.floor) / koaRps).toFixed(3)),
      ratio: Number((median(rps.app) / koaRps).toFixed(3)),
      target: '>= 0.75',
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    koa.child.kill();
    floor.child.kill();
    app.child.disconnect();
  }
}

await main();
