import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultBackoff } from '../../../core/vendor-http/http-settings.js';
import { backoffDelayMs, parseRetryAfter, parseRetryAfterValue } from '../../../core/vendor-http/retry-delay.js';

const now = Date.parse('2026-10-21T07:28:00Z');

describe('parseRetryAfter', () => {
  it('reads delay-seconds, fractional seconds and an HTTP date', () => {
    assert.equal(parseRetryAfter(new Headers({ 'retry-after': '7' }), now), 7_000);
    assert.equal(parseRetryAfter(new Headers({ 'retry-after': ' 1.5 ' }), now), 1_500);
    assert.equal(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 21 Oct 2026 07:28:30 GMT' }), now), 30_000);
  });

  it('prefers the precise retry-after-ms header', () => {
    assert.equal(parseRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '1' }), now), 250);
  });

  it('never returns a negative wait, and ignores what it cannot read', () => {
    assert.equal(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 21 Oct 2026 07:00:00 GMT' }), now), 0);
    assert.equal(parseRetryAfter(new Headers(), now), undefined);
    assert.equal(parseRetryAfterValue('soon', now), undefined);
    assert.equal(parseRetryAfterValue('-3', now), undefined);
    assert.equal(parseRetryAfterValue('12-1', now), undefined);
  });
});

describe('backoffDelayMs', () => {
  it('doubles from initialMs up to maxMs', () => {
    const delays = [0, 1, 2, 3, 4, 5, 6].map((retry) => backoffDelayMs(retry, defaultBackoff, () => 0));
    assert.deepEqual(delays, [500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
  });

  it('takes up to a quarter off at random, so failing clients do not retry in lock-step', () => {
    assert.equal(backoffDelayMs(1, defaultBackoff, () => 0.999999), 750);
    assert.equal(backoffDelayMs(1, defaultBackoff, () => 0.5), 875);
    assert.equal(backoffDelayMs(1, defaultBackoff, () => 7), 750, 'a bad random source is clamped');
  });
});
