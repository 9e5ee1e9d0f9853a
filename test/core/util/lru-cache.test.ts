import assert from 'node:assert/strict';
import { it } from 'node:test';
import { LruCache } from '../../../core/index.js';

it('forgets the least recently used entry when full', () => {
  const cache = new LruCache<string, number>({ maxEntries: 2 });
  cache.set('a', 1);
  cache.set('b', 2);
  assert.equal(cache.get('a'), 1, 'a is now the most recently used');
  cache.set('c', 3);
  assert.equal(cache.get('b'), undefined);
  assert.equal(cache.get('a'), 1);
  assert.equal(cache.get('c'), 3);
  assert.equal(cache.size, 2);
});

it('forgets entries older than the time to live', () => {
  let now = 1_000;
  const cache = new LruCache<string, number>({ maxEntries: 10, ttlMs: 100, now: () => now });
  cache.set('a', 1);
  now += 99;
  assert.equal(cache.get('a'), 1);
  now += 1;
  assert.equal(cache.get('a'), undefined);
  assert.equal(cache.size, 0);
});

it('refuses a size that is not a positive integer', () => {
  assert.throws(() => new LruCache({ maxEntries: 0 }), RangeError);
});
