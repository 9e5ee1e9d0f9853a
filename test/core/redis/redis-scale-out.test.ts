// The Redis engines of the core (rate limiter, connection leases, message bus) against a real
// redis-server, several "processes" being several connections with their own prefix-sharing objects.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import { Redis } from 'ioredis';
import type { RateRule, RedisScaleOut } from '../../../core/index.js';
import { ManualClock, MemoryRateLimiter, openRedis } from '../../../core/index.js';
import { startRedis } from '../../support/redis-engine.js';
import type { RedisEngine } from '../../support/redis-engine.js';
import { until } from '../../support/processes.js';

const MINUTE = 60_000;
let engine: RedisEngine;
let prefixes = 0;

before(async () => {
  engine = await startRedis();
});
after(async () => {
  await engine.stop();
});

/** `count` processes' worth of Redis wiring sharing one key prefix (one deployment), closed after the test. */
async function deployment(t: TestContext, count: number, options: { clock?: ManualClock; leaseTtlMs?: number } = {}): Promise<RedisScaleOut[]> {
  const prefix = `test${++prefixes}:`;
  const nodes = await Promise.all(Array.from({ length: count }, () => openRedis({ url: engine.url, prefix, ...options })));
  t.after(() => Promise.all(nodes.map((node) => node.close())));
  return nodes;
}

describe('RedisRateLimiter', () => {
  it('decides exactly as the in-memory limiter over windows, limits and keys', async (t) => {
    const clock = new ManualClock(10 * MINUTE);
    const [redis] = await deployment(t, 1, { clock });
    const memory = new MemoryRateLimiter(clock);
    const rules: RateRule[] = [
      { limit: 3, windowMs: MINUTE },
      { limit: 1, windowMs: 15 * MINUTE },
      { limit: 0, windowMs: MINUTE },
    ];
    for (let step = 0; step < 40; step++) {
      const rule = rules[step % rules.length]!;
      // One key per window length (as the service's keys are); limits 3 and 0 share one (a tier lowered mid-window).
      const key = `k${step % 2}:${rule.windowMs}`;
      assert.deepEqual(await redis!.rateLimiter.consume(key, rule), await memory.consume(key, rule), `step ${step}`);
      clock.advance(7_000);
    }
  });

  it('allows exactly the limit across processes asking at the same time', async (t) => {
    const nodes = await deployment(t, 3);
    const rule = { limit: 10, windowMs: MINUTE };
    const decisions = await Promise.all(Array.from({ length: 60 }, (_, i) => nodes[i % 3]!.rateLimiter.consume('acct:shared', rule)));
    assert.equal(decisions.filter((d) => d.allowed).length, 10);
    assert.deepEqual(
      decisions.filter((d) => d.allowed).map((d) => d.remaining).sort((a, b) => a - b),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    );
    assert.ok(decisions.filter((d) => !d.allowed).every((d) => d.remaining === 0));
  });

  it('lets a window key expire with its window', async (t) => {
    const clock = new ManualClock(10 * MINUTE);
    const [node] = await deployment(t, 1, { clock });
    await node!.rateLimiter.consume('k', { limit: 5, windowMs: MINUTE });
    const probe = new Redis(engine.url);
    t.after(() => probe.quit());
    const keys = await probe.keys(`test${prefixes}:rate:*`);
    assert.equal(keys.length, 1);
    const ttl = await probe.pttl(keys[0]!);
    assert.ok(ttl > 0 && ttl <= MINUTE + 5_000, `ttl ${ttl}`);
  });
});

describe('RedisConnectionCounter', () => {
  it('holds at most `max` slots across processes; a release frees one for any process', async (t) => {
    const [a, b] = await deployment(t, 2);
    const first = await a!.connectionCounter.acquire('conn:acct', 2);
    const second = await b!.connectionCounter.acquire('conn:acct', 2);
    assert.ok(first && second);
    assert.equal(await a!.connectionCounter.acquire('conn:acct', 2), undefined);
    assert.equal(await b!.connectionCounter.acquire('conn:acct', 2), undefined);
    assert.equal(await b!.connectionCounter.count('conn:acct'), 2);
    first.release();
    first.release(); // idempotent
    await until(async () => (await a!.connectionCounter.count('conn:acct')) === 1, 'the release');
    assert.ok(await b!.connectionCounter.acquire('conn:acct', 2));
    assert.equal(await a!.connectionCounter.count('other'), 0);
  });

  it('a heartbeat never brings back a lease that is gone (released, or expired while its process stalled)', async (t) => {
    const [node] = await deployment(t, 1);
    assert.ok(await node!.connectionCounter.acquire('conn:acct', 5));
    const probe = new Redis(engine.url);
    t.after(() => probe.quit());
    const key = `test${prefixes}:conn:conn:acct`;
    const [member] = await probe.zrange(key, 0, -1);
    await probe.zrem(key, member!); // as if it had expired
    await node!.connectionCounter.heartbeat();
    assert.equal(await node!.connectionCounter.count('conn:acct'), 0);
  });

  it('grants exactly `max` of many simultaneous requests', async (t) => {
    const nodes = await deployment(t, 3);
    const leases = await Promise.all(Array.from({ length: 30 }, (_, i) => nodes[i % 3]!.connectionCounter.acquire('conn:race', 4)));
    assert.equal(leases.filter(Boolean).length, 4);
  });

  it('keeps a live process’s leases past their lifetime (heartbeat) and frees a dead one’s when they expire', async (t) => {
    const leaseTtlMs = 1_000;
    const [alive] = await deployment(t, 1, { leaseTtlMs });
    // The crashed process: its connection drops without a word, its heartbeat stops.
    const crashed = await openRedis({ url: engine.url, prefix: `test${prefixes}:`, leaseTtlMs });
    assert.ok(await alive!.connectionCounter.acquire('conn:acct', 5));
    assert.ok(await crashed.connectionCounter.acquire('conn:acct', 5));
    assert.equal(await alive!.connectionCounter.count('conn:acct'), 2);
    await crashed.connectionCounter.close().catch(() => undefined); // stops the heartbeat …
    // … but `close` gives leases back; put the crashed one's lease back as a crash would leave it.
    const probe = new Redis(engine.url);
    t.after(() => probe.quit());
    const key = `test${prefixes}:conn:conn:acct`;
    const now = Number((await probe.time())[0]) * 1000;
    await probe.zadd(key, now + leaseTtlMs, 'crashed-process:1');
    await crashed.close();
    assert.equal(await alive!.connectionCounter.count('conn:acct'), 2);
    await until(async () => (await alive!.connectionCounter.count('conn:acct')) === 1, 'the dead lease to expire', 10_000);
    // Well past its lifetime, the live lease is still counted: the heartbeat kept it.
    await new Promise((resolve) => setTimeout(resolve, 2 * leaseTtlMs));
    assert.equal(await alive!.connectionCounter.count('conn:acct'), 1);
    assert.deepEqual(await probe.zrange(key, 0, -1).then((members) => members.some((m) => m.startsWith('crashed'))), false);
  });
});

describe('RedisMessageBus', () => {
  it('delivers to every subscribed process, the publisher included, in publishing order; closed subscriptions hear nothing', async (t) => {
    const [a, b] = await deployment(t, 2);
    const heard: Record<string, string[]> = { a: [], b: [], other: [] };
    const subA = a!.bus.subscribe('chan', (m) => heard.a!.push(m));
    const subB = b!.bus.subscribe('chan', (m) => heard.b!.push(m));
    const other = b!.bus.subscribe('other', (m) => heard.other!.push(m));
    await Promise.all([subA.ready, subB.ready, other.ready]);
    for (let i = 0; i < 20; i++) await a!.bus.publish('chan', `m${i}`);
    const expected = Array.from({ length: 20 }, (_, i) => `m${i}`);
    await until(() => heard.a!.length === 20 && heard.b!.length === 20, 'both to hear all');
    assert.deepEqual(heard.a, expected);
    assert.deepEqual(heard.b, expected);
    assert.deepEqual(heard.other, []);
    await subB.close();
    await b!.bus.publish('chan', 'after');
    await until(() => heard.a!.length === 21, 'a to hear the last');
    await b!.bus.publish('other', 'marker');
    await until(() => heard.other!.length === 1, 'the marker');
    assert.equal(heard.b!.length, 20);
  });

  it('keeps deployments with different prefixes apart', async (t) => {
    const [a] = await deployment(t, 1);
    const [b] = await deployment(t, 1);
    const heard: string[] = [];
    const sub = b!.bus.subscribe('chan', (m) => heard.push(m));
    await sub.ready;
    await a!.bus.publish('chan', 'not for b');
    await b!.bus.publish('chan', 'for b');
    await until(() => heard.length === 1, 'b to hear its own');
    assert.deepEqual(heard, ['for b']);
  });
});

describe('an unreachable Redis', () => {
  it('refuses rate-limited requests and connections with 503 unavailable and a retry delay, never lets them through', async () => {
    const own = await startRedis();
    const node = await openRedis({ url: own.url });
    try {
      await node.rateLimiter.consume('k', { limit: 5, windowMs: MINUTE });
      await own.stop();
      for (const attempt of [() => node.rateLimiter.consume('k', { limit: 5, windowMs: MINUTE }), () => node.connectionCounter.acquire('c', 5)]) {
        await assert.rejects(attempt(), (error: { code?: string; status?: number; retryAfterS?: number }) => {
          assert.equal(error.code, 'unavailable');
          assert.equal(error.status, 503);
          assert.ok((error.retryAfterS ?? 0) > 0);
          return true;
        });
      }
    } finally {
      await node.close();
      await own.stop();
    }
  });
});

describe('openRedis', () => {
  it('answers ping, and refuses to start on a Redis that does not answer, naming the address', async (t) => {
    const [node] = await deployment(t, 1);
    await node!.ping();
    const dead = new URL(engine.url);
    dead.port = String(Number(dead.port) === 1 ? 2 : 1);
    await assert.rejects(openRedis({ url: dead.toString() }), /did not answer/);
  });
});
