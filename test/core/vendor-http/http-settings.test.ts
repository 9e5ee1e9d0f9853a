import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidationError } from '../../../core/errors.js';
import { defaultBackoff, defaultTimeouts, resolveHttpSettings } from '../../../core/vendor-http/http-settings.js';
import { sleep as realSleep } from '../../../core/util/sleep.js';

describe('resolveHttpSettings', () => {
  it('applies the defaults and freezes the result', () => {
    const http = resolveHttpSettings();
    assert.deepEqual(http.timeouts, defaultTimeouts);
    assert.deepEqual(http.backoff, defaultBackoff);
    assert.equal(http.maxRetries, 2);
    assert.ok(Object.isFrozen(http) && Object.isFrozen(http.timeouts) && Object.isFrozen(http.backoff));
  });

  it('merges partial overrides; an explicit undefined means "default"', () => {
    const http = resolveHttpSettings({ timeouts: { idleMs: 5, connectMs: undefined }, backoff: { initialMs: 10 }, maxRetries: 0 });
    assert.deepEqual(http.timeouts, { connectMs: defaultTimeouts.connectMs, idleMs: 5 });
    assert.equal(http.backoff.initialMs, 10);
    assert.equal(http.backoff.maxMs, defaultBackoff.maxMs);
    assert.equal(http.maxRetries, 0);
  });

  it("takes a vendor's own default timeouts, which the operator's settings still override", () => {
    assert.deepEqual(resolveHttpSettings({}, { connectMs: 120_000 }).timeouts, { connectMs: 120_000, idleMs: defaultTimeouts.idleMs });
    assert.equal(resolveHttpSettings({ timeouts: { connectMs: 5 } }, { connectMs: 120_000 }).timeouts.connectMs, 5);
  });

  it('rejects impossible numbers when the provider is built', () => {
    assert.throws(() => resolveHttpSettings({ timeouts: { connectMs: 0 } }), ValidationError);
    assert.throws(() => resolveHttpSettings({ timeouts: { idleMs: Number.NaN } }), ValidationError);
    assert.throws(() => resolveHttpSettings({ backoff: { maxMs: -1 } }), ValidationError);
    assert.throws(() => resolveHttpSettings({ maxRetries: 1.5 }), ValidationError);
  });
});

describe('sleep', () => {
  it('ends early when its signal aborts, and at once when already aborted', async () => {
    const controller = new AbortController();
    const sleeping = realSleep(60_000, controller.signal);
    controller.abort();
    await sleeping; // would keep the test waiting a minute if the abort were ignored
    await realSleep(60_000, AbortSignal.abort());
  });
});
