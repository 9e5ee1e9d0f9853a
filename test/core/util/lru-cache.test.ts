import assert from 'node:assert/strict';
import { it } from 'node:test';
import { LruCache } from '../../../core/index.js';

it('forgets the least recently used entry when full', () => {
  const cache = new LruCache<string, number>({ maxEntries: 4 });
  for (const [i, key] of ['a', 'b', 'c', 'd'].entries()) cache.set(key, i);
  assert.equal(cache.get('a'), 0, 'a, in the older half, is now the most recently used');
  cache.set('e', 4);
  assert.equal(cache.get('b'), undefined);
  for (const key of ['a', 'c', 'd', 'e']) assert.notEqual(cache.get(key), undefined, key);
  assert.equal(cache.size, 4);
});

it('keeps a read entry for at least half its size of further insertions', () => {
  const cache = new LruCache<number, number>({ maxEntries: 100 });
  for (let i = 0; i < 100; i++) cache.set(i, i);
  for (let round = 0; round < 10; round++) {
    assert.equal(cache.get(0), 0, `round ${round}`);
    for (let i = 0; i < 49; i++) cache.set(1_000 + round * 100 + i, i);
  }
  assert.equal(cache.size, 100);
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
