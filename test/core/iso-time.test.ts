import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isoTime } from '../../core/clock.js';

const DAY = 86_400_000;

describe('isoTime', () => {
  it('writes what Date#toISOString writes, at the edges of seconds, days, months and years', () => {
    const edges = [0, 1, 9, 10, 99, 100, 999, 1000, 59_999, 60_000, 3_599_999, 3_600_000, DAY - 1, DAY, Date.UTC(2024, 1, 29, 23, 59, 59, 999), Date.UTC(2024, 2, 1), Date.UTC(9999, 11, 31, 23, 59, 59, 999)];
    for (const ms of edges) assert.equal(isoTime(ms), new Date(ms).toISOString(), String(ms));
  });

  it('agrees with Date#toISOString on a hundred thousand times, in order and out of order', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    let ms = Date.UTC(2026, 10, 26);
    for (let i = 0; i < 100_000; i++) {
      // Mostly close together (the messages of a conversation), now and then anywhere up to year 9999.
      ms = random() < 0.9 ? ms + Math.floor(random() * 90_000) : Math.floor(random() * Date.UTC(9999, 11, 31));
      assert.equal(isoTime(ms), new Date(ms).toISOString(), String(ms));
    }
  });

  it('leaves times outside 1970–9999 and fractions of a millisecond to Date, invalid ones included', () => {
    for (const ms of [-1, -DAY - 1, Date.UTC(10000, 0, 1), 8.64e15, 1_700_000_000_000.7]) assert.equal(isoTime(ms), new Date(ms).toISOString(), String(ms));
    for (const ms of [Number.NaN, Infinity, 8.64e15 + 1]) assert.throws(() => isoTime(ms), RangeError);
  });
});
