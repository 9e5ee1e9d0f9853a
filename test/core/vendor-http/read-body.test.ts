import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProviderError } from '../../../core/errors.js';
import { readBody, readBodyText } from '../../../core/vendor-http/read-body.js';
import { fakeSchedule, settle } from './fake-timers.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A body the test feeds by hand, recording whether the reader cancelled it. */
function controllableBody() {
  let source!: ReadableStreamDefaultController<Uint8Array>;
  const state = { cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      source = controller;
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { body, source, state };
}

function options(schedule = fakeSchedule().schedule, controller = new AbortController()) {
  return { provider: 'acme', idleMs: 1_000, schedule, controller, secrets: ['secret-key-1'] };
}

describe('readBody', () => {
  it('yields the chunks, arming the idle timer only while waiting and disarming it after each read', async () => {
    const { body, source } = controllableBody();
    const timers = fakeSchedule();
    source.enqueue(encode('a'));
    source.enqueue(encode('b'));
    source.close();
    const chunks: string[] = [];
    for await (const chunk of readBody(body, options(timers.schedule))) chunks.push(new TextDecoder().decode(chunk));
    assert.deepEqual(chunks, ['a', 'b']);
    assert.equal(timers.timers.length, 3, 'one timer per read');
    assert.deepEqual(timers.active(), [], 'none left running');
    assert.ok(timers.timers.every((t) => t.ms === 1_000));
  });

  it('fails with a retryable idle timeout and cancels the body when the vendor goes silent', async () => {
    const { body, source, state } = controllableBody();
    const timers = fakeSchedule();
    const reader = readBody(body, options(timers.schedule));
    source.enqueue(encode('a'));
    assert.equal((await reader.next()).done, false);
    const pending = reader.next();
    await settle();
    timers.active()[0]!.fire();
    await assert.rejects(pending, (error: unknown) => {
      assert.ok(error instanceof ProviderError);
      assert.equal(error.message, 'acme: no data for 1000 ms while streaming (idle timeout)');
      assert.equal(error.isRetryable, true);
      return true;
    });
    assert.equal(state.cancelled, true);
  });

  it('throws an AbortError and cancels the body when the attempt is aborted', async () => {
    const { body, state } = controllableBody();
    const controller = new AbortController();
    const reader = readBody(body, options(undefined, controller));
    const pending = reader.next();
    await settle();
    controller.abort();
    await assert.rejects(pending, { name: 'AbortError' });
    assert.equal(state.cancelled, true);
  });

  it('turns a dropped connection into a retryable network error without the key', async () => {
    const { body, source } = controllableBody();
    const reader = readBody(body, options());
    const pending = reader.next();
    await settle();
    source.error(new TypeError('terminated', { cause: Object.assign(new Error('other side closed secret-key-1'), { code: 'UND_ERR_SOCKET' }) }));
    await assert.rejects(pending, (error: unknown) => {
      assert.ok(error instanceof ProviderError);
      assert.equal(error.message, 'acme: connection lost while streaming: terminated: other side closed [redacted] (UND_ERR_SOCKET)');
      assert.equal(error.isRetryable, true);
      assert.equal(error.cause, undefined, 'a cause quoting the key is not kept');
      return true;
    });
  });

  it('yields nothing for a missing body', async () => {
    const chunks: Uint8Array[] = [];
    for await (const chunk of readBody(null, options())) chunks.push(chunk);
    assert.deepEqual(chunks, []);
  });
});

describe('readBodyText', () => {
  it('decodes the body, keeping at most maxBytes', async () => {
    const { body, source } = controllableBody();
    source.enqueue(encode('{"error":'));
    source.enqueue(encode('"café"}'));
    source.close();
    assert.equal(await readBodyText(body, options()), '{"error":"café"}');

    const long = controllableBody();
    long.source.enqueue(encode('0123456789'));
    long.source.enqueue(encode('abcdef'));
    assert.equal(await readBodyText(long.body, options(), 12), '0123456789ab');
    assert.equal(long.state.cancelled, true, 'the rest is not downloaded');
  });
});
