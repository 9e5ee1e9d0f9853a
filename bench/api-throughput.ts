/**
 * Requests/s of authenticated `GET /v1/conversations/:id` (API key lookup + conversation + its
 * messages from SQLite, serialized) as a ratio to a bare Koa hello world, both measured in the
 * same run. Each server runs in its own child process; autocannon runs in this one. Rounds
 * alternate between the two so machine noise hits both alike; the ratio of medians is reported.
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

async function serveBareKoa(): Promise<Ready> {
  const app = new Koa();
  app.use((ctx) => {
    ctx.body = 'hello world';
  });
  return listen(app.callback(), '/', {});
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
    publicUrl: 'http://127.0.0.1',
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

function start(role: string): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = fork(fileURLToPath(import.meta.url), [role], { stdio: 'inherit' });
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
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '5' }, seconds: { type: 'string', default: '5' }, connections: { type: 'string', default: '50' } },
  });
  const rounds = Number(values.rounds);
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  const koa = await start('serve-koa');
  const app = await start('serve-app');
  try {
    await measure(koa.ready, 1, connections); // warm-up
    await measure(app.ready, 1, connections);
    const koaRps: number[] = [];
    const appRps: number[] = [];
    const appP99: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const k = await measure(koa.ready, seconds, connections);
      const a = await measure(app.ready, seconds, connections);
      if (a.non2xx || a.errors) throw new Error(`app answered ${a.non2xx} non-2xx and ${a.errors} errors`);
      koaRps.push(k.requests.average);
      appRps.push(a.requests.average);
      appP99.push(a.latency.p99);
      console.error(`round ${round + 1}: bare koa ${k.requests.average.toFixed(0)} req/s, app ${a.requests.average.toFixed(0)} req/s`);
    }
    const result = {
      benchmark: 'authenticated GET /v1/conversations/:id vs bare Koa hello world',
      rounds,
      seconds,
      connections,
      bare_koa_rps_median: Math.round(median(koaRps)),
      app_rps_median: Math.round(median(appRps)),
      app_p99_ms_median: median(appP99),
      ratio: Number((median(appRps) / median(koaRps)).toFixed(3)),
      target: '>= 0.75',
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    koa.child.kill();
    app.child.disconnect();
  }
}

await main();
