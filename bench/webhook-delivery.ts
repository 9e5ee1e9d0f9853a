/**
 * Webhook delivery, two measurements, each against a baseline from the same run:
 *
 * 1. Signed deliveries per second from the outbox to loopback receivers, `WebhookDispatcher.drain()`
 *    over N events already stored, ÷ a raw node:http keep-alive client posting the same bodies
 *    with the same headers (HMAC computed per request) to the same receivers at the same
 *    concurrency: 1 webhook (8 in flight, the per-webhook cap) and 8 webhooks on 8 receiver ports
 *    (64 in flight; the total cap, 256, does not bind). The dispatcher's real peak in flight is
 *    counted and reported beside it. The receivers run in a child process
 *    (bench/support/webhook-bench-receiver.ts) that verifies every signature in constant time;
 *    any failed signature, missing or duplicate event, or delivery row not `succeeded` fails the run.
 * 2. The outbox's cost on the message path: ms per `conversations.sendMessage` turn (instant
 *    scripted AI, no speech; 2 × message.created per turn) with a webhook subscribed to every
 *    event ÷ with none: with its dispatcher delivering as it goes (the clock stops once the last
 *    delivery is done), and with the dispatcher closed (only the outbox writes). The floor: the
 *    no-webhook service plus two raw signed posts per turn, sent as each turn ends — what any
 *    in-process delivery costs at least. Three services on three SQLite files; rounds rotate.
 * 3. The same over HTTP, where users meet it: `POST /v1/conversations/:id/messages` on three real
 *    servers (no webhook; webhook with the dispatcher closed; webhook delivering as it goes).
 *
 *   npm run build && node dist/bench/webhook-delivery.js [--events 5000] [--rounds 5] [--turns 300]
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { AvatarService, Owner, WebhookRecord, WebhookSender } from '../core/index.js';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE, FsBlobStore, WebhookDispatcher, WebhookEventTypes, WebhookOutbox, WebhookPoster } from '../core/index.js';
import { createAvatarService, createSqliteStore } from '../core/index.js';
import { isoTime } from '../core/clock.js';
import { sampleEventData } from '../core/webhooks/webhook-events.js';
import { scriptedProvider } from '../test/support/scripted-provider.js';
import type { ReceiverReport } from './support/webhook-bench-receiver.js';
import { instantProvider, startBenchServer } from './support/bench-server.js';
import type { BenchServer } from './support/bench-server.js';

const SECRET = 'bench-webhook-secret-0123456789';
const PORTS = 8;
const PER_WEBHOOK = 8; // the dispatcher's defaults: 8 in flight per webhook, 256 in all
const MAX_IN_FLIGHT = 256;

interface Receiver {
  child: ChildProcess;
  ports: number[];
  ask(message: 'reset' | 'report'): Promise<ReceiverReport>;
}

async function startReceiver(): Promise<Receiver> {
  const script = fileURLToPath(new URL('./support/webhook-bench-receiver.js', import.meta.url));
  const child = fork(script, [SECRET, String(PORTS)], { stdio: 'inherit' });
  const { ports } = await new Promise<{ ports: number[] }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { ports: number[] }));
    child.once('exit', (code) => reject(new Error(`receiver exited with ${code}`)));
  });
  const ask = (message: 'reset' | 'report') =>
    new Promise<ReceiverReport>((resolve) => {
      child.once('message', (answer) => resolve(answer as ReceiverReport));
      child.send(message);
    });
  return { child, ports, ask };
}

/** Webhook i posts to `/hooks/<i>` on receiver port i mod 8, signed with `<SECRET>-<i>`. */
const target = (receiver: Receiver, i: number) => ({ port: receiver.ports[i % PORTS]!, path: `/hooks/${i}`, secret: `${SECRET}-${i}` });

async function expectReceived(receiver: Receiver, expected: number, what: string): Promise<void> {
  const report = await receiver.ask('report');
  if (report.failed !== 0 || report.verified !== expected || report.distinct !== expected) {
    throw new Error(`${what}: expected ${expected} verified distinct events, got ${JSON.stringify(report)}`);
  }
}

/** Every delivery row of `hook` has `status` and there are `expected` of them. */
async function expectRows(service: AvatarService, hook: WebhookRecord, expected: number, status: string): Promise<void> {
  while ((await service.store.transaction((tx) => tx.webhookDeliveries.relayOutbox(10_000))) > 0); // what waits in the outbox counts
  let total = 0;
  let before: string | undefined;
  for (;;) {
    const rows = await service.store.webhookDeliveries.listByWebhook(hook.id, { limit: 1000, ...(before !== undefined && { before }) });
    const wrong = rows.find((row) => row.status !== status);
    if (wrong) throw new Error(`delivery ${wrong.id} of ${hook.id} is ${wrong.status}, expected ${status}: ${wrong.lastError}`);
    total += rows.length;
    if (rows.length < 1000) break;
    before = rows.at(-1)!.id;
  }
  if (total !== expected) throw new Error(`${hook.id} has ${total} deliveries, expected ${expected}`);
}

async function openService(dir: string, name: string): Promise<{ service: AvatarService; owner: Owner }> {
  const service = createAvatarService({
    store: await createSqliteStore({ filename: join(dir, `${name}.db`) }),
    blobs: new FsBlobStore(join(dir, `${name}-audio`)),
    jwtSecret: 'bench-webhook-delivery-jwt-secret-0123456789',
    aiProviders: [scriptedProvider({ reply: 'Hi! Nice to meet you.' })],
    speechProviders: [],
    defaultTtsProvider: 'browser',
    webhooks: { allowInsecure: true },
    onBackgroundError: (message, error) => {
      console.error(message, error);
      process.exitCode = 1;
    },
  });
  await service.start();
  const account = await service.accounts.createAccount({ email: `${name}@example.com`, password: 'benchmark' });
  return { service, owner: { accountId: account.id, mode: 'test' } };
}

function createHook(service: AvatarService, owner: Owner, receiver: Receiver, i: number, events: readonly string[]): Promise<WebhookRecord> {
  const { port, path, secret } = target(receiver, i);
  return service.webhooks.create(owner, { url: `http://127.0.0.1:${port}${path}`, events, secret });
}

/** What the poster sends, from a plain keep-alive agent: the baseline. */
function rawPost(agent: http.Agent, to: ReturnType<typeof target>, event: { id: string; body: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    const body = Buffer.from(event.body, 'utf8');
    const request = http.request(
      {
        host: '127.0.0.1',
        port: to.port,
        path: to.path,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          'user-agent': 'avatar-service-webhooks',
          'x-service-signature': createHmac('sha256', to.secret).update(event.body, 'utf8').digest('hex'),
          'x-service-event-id': event.id,
          'x-service-event-type': 'message.created',
          'x-service-delivery-attempt': '1',
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`raw client got ${response.statusCode}`))));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** Part 1 for `k` webhooks (numbered from `first`): deliveries/s of the dispatcher and of the raw client, per round. */
async function deliveryCase(ctx: { service: AvatarService; owner: Owner }, receiver: Receiver, k: number, first: number, events: number, rounds: number) {
  const { service, owner } = ctx;
  const hooks: WebhookRecord[] = [];
  for (let i = 0; i < k; i++) hooks.push(await createHook(service, owner, receiver, first + i, ['message.created']));
  // The poster createAvatarService makes, counting the attempts in flight.
  const poster = new WebhookPoster({ policy: { allowInsecure: true }, timeoutMs: 10_000, connectTimeoutMs: 5_000 });
  let inFlight = 0;
  let peakInFlight = 0;
  const sender: WebhookSender = {
    async post(request) {
      peakInFlight = Math.max(peakInFlight, ++inFlight);
      return poster.post(request).finally(() => inFlight--);
    },
    close: () => poster.close(),
  };
  const dispatcher = new WebhookDispatcher({
    store: service.store,
    clock: service.clock,
    outbox: new WebhookOutbox({ clock: service.clock, ids: service.ids }),
    sender,
    mailer: undefined,
    retrySchedule: DEFAULT_WEBHOOK_RETRY_SCHEDULE,
    leaseMs: 21_000, // as createAvatarService sets it for the default 10 s timeout
  });
  const agent = new http.Agent({ keepAlive: true });
  let delivered = 0;
  const viaDispatcher = async (n: number) => {
    for (let i = 0; i < n; i++) await service.webhooks.sendTest(owner, { event: 'message.created', webhookId: hooks[i % k]!.id });
    await receiver.ask('reset');
    const started = performance.now();
    await dispatcher.drain();
    const rate = n / ((performance.now() - started) / 1000);
    await expectReceived(receiver, n, `dispatcher, ${k} webhook(s)`);
    delivered += n;
    for (const hook of hooks) await expectRows(service, hook, delivered / k, 'succeeded');
    return rate;
  };
  const viaRaw = async (n: number) => {
    // The same bodies as the outbox stores, one queue per receiver.
    const queues = hooks.map(() => [] as { id: string; body: string }[]);
    eventBodies(service, n).forEach((event, i) => queues[i % k]!.push(event));
    await receiver.ask('reset');
    const started = performance.now();
    await Promise.all(
      queues.flatMap((queue, h) => {
        let next = 0;
        return Array.from({ length: Math.min(PER_WEBHOOK, MAX_IN_FLIGHT / k) }, async () => {
          while (next < queue.length) await rawPost(agent, target(receiver, first + h), queue[next++]!);
        });
      }),
    );
    const rate = n / ((performance.now() - started) / 1000);
    await expectReceived(receiver, n, `raw client, ${k} receiver(s)`);
    return rate;
  };
  await viaDispatcher(Math.min(events, 500 * k)); // warm-up: connections, statement caches, JIT
  await viaRaw(Math.min(events, 500 * k));
  const dispatcherRates: number[] = [];
  const rawRates: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const n = events - (events % k);
    dispatcherRates.push(await viaDispatcher(n));
    rawRates.push(await viaRaw(n));
    console.error(`${k} webhook(s), round ${round + 1}: dispatcher ${dispatcherRates.at(-1)!.toFixed(0)}/s, raw ${rawRates.at(-1)!.toFixed(0)}/s`);
  }
  await dispatcher.close();
  agent.destroy();
  return {
    webhooks: k,
    raw_in_flight: k * Math.min(PER_WEBHOOK, MAX_IN_FLIGHT / k),
    dispatcher_peak_in_flight: peakInFlight,
    dispatcher_per_s: summary(dispatcherRates),
    raw_per_s: summary(rawRates),
    ratio: round3(median(dispatcherRates) / median(rawRates)),
  };
}

/** Part 2: ms per turn with webhooks off, the outbox only, a live dispatcher, and the floor (off + 2 raw posts per turn). */
async function messagePath(dir: string, receiver: Receiver, turns: number, rounds: number) {
  const off = await openService(dir, 'off');
  const live = await openService(dir, 'live');
  const outboxOnly = await openService(dir, 'outbox-only');
  await outboxOnly.service.webhookDispatcher.close();
  const liveHook = await createHook(live.service, live.owner, receiver, 100, WebhookEventTypes);
  const parkedHook = await createHook(outboxOnly.service, outboxOnly.owner, receiver, 101, WebhookEventTypes);
  const agent = new http.Agent({ keepAlive: true });
  const floorTarget = target(receiver, 102);
  const conversationOf = async (ctx: { service: AvatarService; owner: Owner }) => (await ctx.service.conversations.create(ctx.owner, { avatarId: 'luna-001' })).id;
  const offConversation = await conversationOf(off);
  const cases = [
    { name: 'off', ...off, conversation: offConversation, ms: [] as number[] },
    { name: 'outbox_only', ...outboxOnly, conversation: await conversationOf(outboxOnly), ms: [] as number[] },
    { name: 'live', ...live, conversation: await conversationOf(live), ms: [] as number[] },
    { name: 'floor', ...off, conversation: offConversation, ms: [] as number[] },
  ];
  const run = async (c: (typeof cases)[number], n: number) => {
    const posts: Promise<void>[] = [];
    const started = performance.now();
    for (let i = 0; i < n; i++) {
      const message = await c.service.conversations.sendMessage(c.owner, c.conversation, 'Hello there');
      // The floor: what delivering this turn's two events costs at least, sent as they happen.
      if (c.name === 'floor') for (const event of eventBodies(c.service, 2, message.id)) posts.push(rawPost(agent, floorTarget, event));
    }
    if (c.name === 'live') await c.service.webhookDispatcher.drain(); // the last turns' deliveries count too
    await Promise.all(posts);
    return (performance.now() - started) / n;
  };
  const warmUp = 50;
  await receiver.ask('reset');
  for (const c of cases) await run(c, warmUp);
  for (let round = 0; round < rounds; round++) {
    for (const c of cases.map((_, i) => cases[(i + round) % cases.length]!)) {
      await receiver.ask('reset');
      c.ms.push(await run(c, turns));
      await expectReceived(receiver, c.name === 'live' || c.name === 'floor' ? 2 * turns : 0, `message path, ${c.name}`);
    }
    console.error(`message path, round ${round + 1}: ${cases.map((c) => `${c.name} ${c.ms.at(-1)!.toFixed(3)} ms`).join(', ')}`);
  }
  const total = 1 + 2 * (warmUp + turns * rounds); // conversation.started + 2 message.created per turn
  await expectRows(live.service, liveHook, total, 'succeeded');
  await expectRows(outboxOnly.service, parkedHook, total, 'pending');
  for (const { service } of [off, live, outboxOnly]) await service.close();
  agent.destroy();
  const offMs = cases[0]!.ms;
  const result: Record<string, unknown> = { turns_per_round: turns };
  for (const c of cases) {
    result[c.name] = {
      ms_per_turn: summary(c.ms, 3),
      ...(c.name !== 'off' && { ratio: round3(median(c.ms) / median(offMs)), round_ratios: summary(c.ms.map((ms, i) => ms / offMs[i]!), 3) }),
    };
  }
  return result;
}

/**
 * The same comparison where users meet it: `POST /v1/conversations/:id/messages` over HTTP (auth,
 * rate limit, validation, serialization), on real servers with a webhook subscribed to every
 * event, delivering as they go (`live`) or with the dispatcher closed (`outbox_only`), ÷ a server
 * without webhooks. One keep-alive client, one turn at a time; rounds rotate the servers.
 */
async function httpMessagePath(receiver: Receiver, turns: number, rounds: number) {
  const open = () => startBenchServer({ aiProviders: [instantProvider(() => ['Hi! ', 'Nice to meet you.'])], speechProviders: [], defaultTtsProvider: 'browser', webhooks: { allowInsecure: true } });
  const servers: Record<'off' | 'outbox_only' | 'live', BenchServer> = { off: await open(), outbox_only: await open(), live: await open() };
  await servers.outbox_only.service.webhookDispatcher.close();
  const cases = await Promise.all(
    (Object.entries(servers) as [keyof typeof servers, BenchServer][]).map(async ([name, server], i) => {
      const call = (path: string, body: unknown) =>
        fetch(server.url + path, { method: 'POST', headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (res) => {
          if (!res.ok) throw new Error(`${name}: ${path} answered ${res.status} ${await res.text()}`);
          return res.json() as Promise<{ id: string }>;
        });
      if (name !== 'off') {
        const { port, path, secret } = target(receiver, 200 + i);
        await call('/v1/webhooks', { url: `http://127.0.0.1:${port}${path}`, events: WebhookEventTypes, secret });
      }
      const conversation = (await call('/v1/conversations', { avatar_id: 'luna-001' })).id;
      return { name, server, turn: () => call(`/v1/conversations/${conversation}/messages`, { content: 'Hello there' }), ms: [] as number[] };
    }),
  );
  const run = async (c: (typeof cases)[number], n: number) => {
    const started = performance.now();
    for (let i = 0; i < n; i++) await c.turn();
    if (c.name === 'live') await c.server.service.webhookDispatcher.drain();
    return (performance.now() - started) / n;
  };
  for (const c of cases) await run(c, 50);
  for (let round = 0; round < rounds; round++) {
    for (const c of cases.map((_, i) => cases[(i + round) % cases.length]!)) c.ms.push(await run(c, turns));
    console.error(`HTTP message path, round ${round + 1}: ${cases.map((c) => `${c.name} ${c.ms.at(-1)!.toFixed(3)} ms`).join(', ')}`);
  }
  for (const { server } of cases) await server.close();
  const offMs = cases[0]!.ms;
  return Object.fromEntries(
    cases.map((c) => [
      c.name,
      { ms_per_turn: summary(c.ms, 3), ...(c.name !== 'off' && { ratio: round3(median(c.ms) / median(offMs)), round_ratios: summary(c.ms.map((ms, i) => ms / offMs[i]!), 3) }) },
    ]),
  );
}

/** `n` message.created bodies as the outbox stores them (sendTest's sample data), with fresh ids. */
function eventBodies(service: AvatarService, n: number, messageId?: string): { id: string; body: string }[] {
  return Array.from({ length: n }, () => {
    const id = service.ids.next('evt');
    const data = sampleEventData('message.created', { conversationId: service.ids.next('conv'), messageId: messageId ?? service.ids.next('msg') });
    return { id, body: JSON.stringify({ id, type: 'message.created', timestamp: isoTime(service.clock.now()), data }) };
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round3 = (value: number) => Number(value.toFixed(3));
const summary = (values: number[], digits = 0) => {
  const fix = (value: number) => Number(value.toFixed(digits));
  return { median: fix(median(values)), min: fix(Math.min(...values)), max: fix(Math.max(...values)) };
};

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { events: { type: 'string', default: '5000' }, rounds: { type: 'string', default: '5' }, turns: { type: 'string', default: '300' } } });
  const events = Number(values.events);
  const rounds = Number(values.rounds);
  const turns = Number(values.turns);
  const dir = await mkdtemp(join(tmpdir(), 'avatar-bench-webhooks-'));
  const receiver = await startReceiver();
  try {
    const delivery = await openService(dir, 'delivery');
    // This benchmark runs its own dispatchers, only after the events are stored.
    await delivery.service.webhookDispatcher.close();
    const one = await deliveryCase(delivery, receiver, 1, 0, events, rounds);
    const eight = await deliveryCase(delivery, receiver, 8, 1, events, rounds);
    await delivery.service.close();
    const path = await messagePath(dir, receiver, turns, rounds);
    const overHttp = await httpMessagePath(receiver, turns, rounds);
    const result = {
      benchmark: 'webhook delivery: dispatcher vs raw node:http client; sendMessage with vs without webhooks',
      events,
      rounds,
      deliveries: [one, eight],
      delivery_target: '>= 1000 deliveries/s',
      message_path: path,
      http_message_path: overHttp,
      message_path_target: '<= 1.10x',
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    receiver.child.disconnect();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
