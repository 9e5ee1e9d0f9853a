import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock, createIdGenerator } from '../../core/index.js';

describe('createIdGenerator', () => {
  it('makes ids that sort in the order they were made, within one millisecond too', () => {
    const clock = new ManualClock();
    const ids = createIdGenerator(clock);
    const made: string[] = [];
    for (let i = 0; i < 1000; i++) {
      made.push(ids.next('msg'));
      if (i % 100 === 99) clock.advance(1);
    }
    assert.deepEqual([...made].sort(), made);
    assert.equal(new Set(made).size, made.length);
    for (const id of made) assert.match(id, /^msg_[0-9a-hjkmnp-tv-z]{26}$/);
  });

  it('keeps capability ids (audio names) wholly random, whatever was made in the same millisecond', () => {
    const ids = createIdGenerator(new ManualClock());
    const audio = [ids.next('aud'), ids.next('req'), ids.next('aud'), ids.next('aud')];
    const randomParts = audio.filter((id) => id.startsWith('aud_')).map((id) => id.slice(14));
    // Consecutive would differ only in their last characters; random ones differ early too.
    for (let i = 1; i < randomParts.length; i++) assert.notEqual(randomParts[i]!.slice(0, 10), randomParts[i - 1]!.slice(0, 10));
  });

  it('starts each millisecond from fresh randomness', () => {
    const clock = new ManualClock();
    const ids = createIdGenerator(clock);
    const first = ids.next('conv');
    clock.advance(1);
    const second = ids.next('conv');
    assert.notEqual(first.slice(15), second.slice(15), 'the random parts differ');
  });

  it('writes the millisecond of the clock in the first ten characters, for every prefix', () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 26, 16, 31, 15, 42));
    const ids = createIdGenerator(clock);
    const decode = (id: string) => [...id.slice(id.indexOf('_') + 1, id.indexOf('_') + 11)].reduce((time, c) => time * 32 + '0123456789abcdefghjkmnpqrstvwxyz'.indexOf(c), 0);
    for (const step of [0, 0, 1, 31, 1024, 86_400_000]) {
      clock.advance(step);
      for (const prefix of ['conv', 'req', 'aud'] as const) assert.equal(decode(ids.next(prefix)), clock.now(), `${prefix} at ${clock.now()}`);
    }
  });
});
