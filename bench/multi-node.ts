/**
 * Two nodes vs one on the same machine: the message path (authenticated, non-streaming
 * `POST /v1/conversations/:id/messages`, offline `local` AI, no speech) served by real
 * `dist/server/cli.js serve` processes sharing one PostgreSQL and one Redis, as a deployment runs
 * them. Cases, in alternating rounds:
 *
 * - `one_pg`: one node on PostgreSQL, no Redis (the limiter and counters in memory);
 * - `one_pg_redis`: one node on PostgreSQL with REDIS_URL (Redis rate limiter, socket.io adapter,
 *   broadcasts of conversation changes);
 * - `two_pg_redis`: two nodes on the same PostgreSQL and Redis, each loaded by its own autocannon
 *   with half the connections (a load balancer's even split), req/s summed.
 *
 * Figures: req/s and p99 (medians of the rounds) and the node processes' CPU per request
 * (/proc/<pid>/stat; PostgreSQL's and Redis's own CPU is not in it).
 *
 * Each node replies only to its own half of the conversations (one reply at a time per
 * conversation is a per-process rule). The machine's cores are shared by the nodes, PostgreSQL,
 * Redis and autocannon, so two nodes can only gain where one node leaves a core idle.
 *
 *   npm run build && node dist/bench/multi-node.js [--rounds 3] [--seconds 5] [--connections 20]
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { autocannon } from './support/autocannon.js';
import { freePort, startCli, killCli } from '../test/support/processes.js';
import type { Cli } from '../test/support/processes.js';
import { startPostgres } from '../test/support/postgres-engine.js';
import { startRedis } from '../test/support/redis-engine.js';
import { createServiceFromConfig, loadConfig } from '../server/index.js';


const CONVERSATIONS = 400;
const SECRET = 'multi-node-bench-secret-0123456789abcdef';

interface Node {
  url: string;
  cli: Cli;
}

/** The account (enterprise, a limit far above the load: the limiter still runs), its key and conversations. */
async function seed(env: Record<string, string>): Promise<{ key: string; paths: string[] }> {
  const service = await createServiceFromConfig(loadConfig(env));
  try {
    await service.store.migrate();
    const created = await service.accounts.createAccount({ email: 'bench@example.com', password: 'benchmark' });
    const account = await service.accounts.setPlan(created.id, { tier: 'enterprise', requestsPerMinute: 100_000_000 });
    const { key } = await service.accounts.createApiKey(account.id, { name: 'bench', mode: 'test' });
    const owner = { accountId: account.id, mode: 'test' as const };
    const paths: string[] = [];
    for (let i = 0; i < CONVERSATIONS; i++) {
      const conversation = await service.conversations.create(owner, { avatarId: 'luna-001', ttsProvider: 'browser' });
      paths.push(`/v1/conversations/${conversation.id}/messages`);
    }
    return { key, paths };
  } finally {
    await service.close();
  }
}

async function startNodes(count: number, env: Record<string, string>): Promise<Node[]> {
  const nodes: Node[] = [];
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    nodes.push({ url, cli: await startCli({ ...env, PORT: String(port), PUBLIC_URL: url }) });
  }
  return nodes;
}

/** CPU time (user + system) the node processes used so far, in ms: /proc/<pid>/stat, 100 ticks a second. */
function cpuMs(nodes: Node[]): number {
  return nodes.reduce((sum, node) => {
    const fields = readFileSync(`/proc/${node.cli.child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return sum + (Number(fields[11]) + Number(fields[12])) * 10;
  }, 0);
}

/** Where each node's rotation over its conversations is: runs continue it, so a conversation a cut-off run left replying is not asked again at once. */
const rotation = new Map<Node, number>();

/** Loads every node at once, each with its share of the connections and of the conversations; req/s summed. */
async function measure(nodes: Node[], key: string, paths: string[], seconds: number, connections: number): Promise<{ rps: number; p99: number; cpuUs: number }> {
  const cpuBefore = cpuMs(nodes);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const results = await Promise.all(
    nodes.map((node, n) => {
      const mine = paths.filter((_, i) => i % nodes.length === n);
      const next = () => {
        const at = (rotation.get(node) ?? 0) + 1;
        rotation.set(node, at);
        return at % mine.length;
      };
      return autocannon({
        url: node.url,
        duration: seconds,
        connections: Math.max(1, Math.round(connections / nodes.length)),
        requests: [{ method: 'POST', headers, body: '{"content":"Tell me something about the weather."}', setupRequest: (req: Record<string, unknown>) => ({ ...req, path: mine[next()] }) }],
      });
    }),
  );
  for (const result of results) if (result.non2xx || result.errors) throw new Error(`${result.non2xx} non-2xx answers and ${result.errors} errors`);
  const total = results.reduce((sum, r) => sum + r.requests.total, 0);
  return {
    rps: results.reduce((sum, r) => sum + r.requests.average, 0),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    cpuUs: ((cpuMs(nodes) - cpuBefore) * 1000) / total,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '3' }, seconds: { type: 'string', default: '5' }, connections: { type: 'string', default: '20' } },
  });
  const rounds = Number(values.rounds);
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  const loadBefore = loadavg()[0]!;
  const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  const dataDir = await mkdtemp(join(tmpdir(), 'avatar-bench-multi-'));
  const started: Node[] = [];
  try {
    const base = {
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: await postgres.createDatabase(),
      JWT_SECRET: SECRET,
      DEV_BOOTSTRAP: 'false',
      ACCESS_LOG: 'false',
      LOCAL_SPEECH_WORKERS: '1',
      DEFAULT_TTS_PROVIDER: 'browser',
    };
    const withRedis = { ...base, REDIS_URL: redis.url };
    const { key, paths } = await seed(withRedis);
    // Every case's processes run through the whole benchmark (an idle node costs nothing but a
    // once-a-second webhook poll and a lease heartbeat), warmed up once, so no round measures a
    // cold JIT; the cases are loaded in turn.
    const setups: [string, number, Record<string, string>][] = [
      ['one_pg', 1, base],
      ['one_pg_redis', 1, withRedis],
      ['two_pg_redis', 2, withRedis],
    ];
    const running: Record<string, Node[]> = {};
    for (const [name, count, env] of setups) {
      running[name] = await startNodes(count, env);
      started.push(...running[name]);
    }
    for (const [name] of setups) await measure(running[name]!, key, paths, 3, connections); // warm-up
    const samples: Record<string, { rps: number; p99: number; cpuUs: number }[]> = Object.fromEntries(setups.map(([name]) => [name, []]));
    for (let round = 0; round < rounds; round++) {
      // The order turns every round, so no case always follows the same one.
      const order = setups.map((_, i) => setups[(i + round) % setups.length]!);
      for (const [name] of order) samples[name]!.push(await measure(running[name]!, key, paths, seconds, connections));
      console.error(`round ${round + 1}: ${Object.entries(samples).map(([name, list]) => `${name} ${list.at(-1)!.rps.toFixed(0)}/s`).join(', ')}`);
    }
    const rps = (name: string) => Math.round(median(samples[name]!.map((s) => s.rps)));
    console.log(
      JSON.stringify(
        {
          benchmark: 'message path (POST /v1/conversations/:id/messages, local AI, no speech): one node vs two on PostgreSQL + Redis, CLI processes',
          cpus: availableParallelism(),
          // Other work on the machine (the one-minute load average) before and after: figures from a busy machine are noise.
          load_average: { before: Number(loadBefore.toFixed(1)), after: Number(loadavg()[0]!.toFixed(1)) },
          rounds,
          seconds,
          connections,
          rps_median: Object.fromEntries(Object.keys(samples).map((name) => [name, rps(name)])),
          p99_ms_median: Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, median(list.map((s) => s.p99))])),
          // CPU of the node processes (all of them) per request: steadier than req/s on a shared machine.
          node_cpu_us_per_request_median: Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, Math.round(median(list.map((s) => s.cpuUs)))])),
          ratios: {
            two_vs_one: Number((rps('two_pg_redis') / rps('one_pg_redis')).toFixed(3)),
            redis_vs_none_one_node: Number((rps('one_pg_redis') / rps('one_pg')).toFixed(3)),
          },
        },
        null,
        2,
      ),
    );
  } finally {
    for (const node of started) await killCli(node.cli);
    await Promise.all([postgres.stop(), redis.stop()]);
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
