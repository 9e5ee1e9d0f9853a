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
});
