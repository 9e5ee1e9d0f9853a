// One conformance suite for the ConnectionCounter port, run against every implementation: in
// memory (one process) and Redis leases (several).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ConnectionCounter } from '../../../core/index.js';
import { MemoryConnectionCounter, openRedis } from '../../../core/index.js';
import type { RedisScaleOut } from '../../../core/index.js';
import { startRedis } from '../../support/redis-engine.js';
import type { RedisEngine } from '../../support/redis-engine.js';
import { until } from '../../support/processes.js';

let engine: RedisEngine;
const opened: RedisScaleOut[] = [];
before(async () => {
  engine = await startRedis();
});
after(async () => {
  for (const redis of opened) await redis.close();
  await engine.stop();
});

let deployments = 0;
const implementations: [string, () => Promise<ConnectionCounter>][] = [
  ['MemoryConnectionCounter', async () => new MemoryConnectionCounter()],
  [
    'RedisConnectionCounter',
    async () => {
      const redis = await openRedis({ url: engine.url, prefix: `counter${++deployments}:` });
      opened.push(redis);
      return redis.connectionCounter;
    },
  ],
];

for (const [name, make] of implementations) {
  describe(`ConnectionCounter conformance: ${name}`, () => {
    it('grants up to `max` leases per key, refuses more, and counts them', async () => {
      const counter = await make();
      const leases = [await counter.acquire('a', 3), await counter.acquire('a', 3), await counter.acquire('a', 3)];
      assert.ok(leases.every(Boolean));
      assert.equal(await counter.acquire('a', 3), undefined);
      assert.equal(await counter.count('a'), 3);
      assert.ok(await counter.acquire('b', 3), 'keys are independent');
      assert.equal(await counter.count('b'), 1);
      assert.equal(await counter.count('never'), 0);
    });

    it('a release frees one slot, once, however often it is called', async () => {
      const counter = await make();
      const first = (await counter.acquire('a', 2))!;
      await counter.acquire('a', 2);
      first.release();
      first.release();
      await until(async () => (await counter.count('a')) === 1, 'the release');
      assert.ok(await counter.acquire('a', 2));
      assert.equal(await counter.acquire('a', 2), undefined, 'a second release gave back no second slot');
    });

    it('a max of 0 grants nothing', async () => {
      const counter = await make();
      assert.equal(await counter.acquire('a', 0), undefined);
      assert.equal(await counter.count('a'), 0);
    });
  });
}
