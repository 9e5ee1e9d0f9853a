import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatStreamPart } from '../../../core/providers/chat-model.js';
import { ProviderError } from '../../../core/errors.js';
import type { VendorHttpSettings } from '../../../core/vendor-http/http-settings.js';
import { resolveHttpSettings } from '../../../core/vendor-http/http-settings.js';
import { retryingChatStream } from '../../../core/providers/retrying-chat-stream.js';
import { retryDelayMs } from '../../../core/vendor-http/retry-delay.js';
import { collect, errorOf, fakeSleep, finishOf, textOf } from './vendor-chat-conformance.js';

type Step = ChatStreamPart | Error;
const delta = (text: string): ChatStreamPart => ({ type: 'text-delta', delta: text });
const finish: ChatStreamPart = { type: 'finish', finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 2 } };
const retryable = (message = 'HTTP 503', extra: { retryAfterS?: number } = {}) =>
  new ProviderError('acme', message, { isRetryable: true, ...extra });

/** Attempts scripted step by step; an Error step is thrown. Records each attempt's controller. */
function scripted(attempts: readonly (readonly Step[])[], settings: VendorHttpSettings = {}, signal?: AbortSignal) {
  const controllers: AbortController[] = [];
  const sleeper = fakeSleep();
  const stream = retryingChatStream({
    provider: 'acme',
    http: resolveHttpSettings({ sleep: sleeper.sleep, random: () => 0, ...settings }),
    signal,
    async *attempt(controller) {
      controllers.push(controller);
      for (const step of attempts[Math.min(controllers.length - 1, attempts.length - 1)] ?? []) {
        if (step instanceof Error) throw step;
        yield step;
      }
    },
    usageOnAbort: (text) => ({ inputTokens: 10, outputTokens: text.length }),
  });
  return { stream, controllers, delays: sleeper.delays };
}

describe('retryingChatStream', () => {
  it('passes a successful attempt through', async () => {
    const { stream, controllers } = scripted([[delta('Hi'), delta(' there'), finish]]);
    const parts = await collect(stream);
    assert.deepEqual(parts, [delta('Hi'), delta(' there'), finish]);
    assert.equal(controllers.length, 1);
    assert.equal(controllers[0]!.signal.aborted, true, 'the attempt is released when done');
  });

  it('retries retryable failures before the first delta, with backoff', async () => {
    const { stream, delays } = scripted([[retryable()], [{ type: 'error', error: retryable() }], [delta('ok'), finish]]);
    const parts = await collect(stream);
    assert.equal(textOf(parts), 'ok');
    assert.deepEqual(delays, [500, 1_000]);
  });

  it('waits what the vendor asked for (Retry-After), and surfaces a wait longer than the cap', async () => {
    const honoured = scripted([[retryable('429', { retryAfterS: 12 })], [finish]]);
    await collect(honoured.stream);
    assert.deepEqual(honoured.delays, [12_000]);

    const tooLong = scripted([[retryable('429', { retryAfterS: 3_600 })], [finish]]);
    const error = errorOf(await collect(tooLong.stream));
    assert.equal(error.retryAfterS, 3_600);
    assert.deepEqual(tooLong.delays, []);
  });

  it('never retries after a delta: the text would be heard twice', async () => {
    const { stream, controllers } = scripted([[delta('Hel'), retryable('connection lost')], [delta('Hello'), finish]]);
    const parts = await collect(stream);
    assert.equal(textOf(parts), 'Hel');
    assert.equal(errorOf(parts).message, 'acme: connection lost');
    assert.equal(controllers.length, 1);
  });

  it('ignores empty deltas when deciding whether text was sent', async () => {
    const { stream } = scripted([[delta(''), retryable()], [delta('ok'), finish]]);
    const parts = await collect(stream);
    assert.deepEqual(parts, [delta('ok'), finish]);
  });

  it('stops after maxRetries, and never retries a non-retryable error', async () => {
    const spent = scripted([[retryable()]], { maxRetries: 1 });
    assert.equal(errorOf(await collect(spent.stream)).message, 'acme: HTTP 503');
    assert.equal(spent.controllers.length, 2);

    const fatal = scripted([[new ProviderError('acme', 'HTTP 400')], [finish]]);
    assert.equal(errorOf(await collect(fatal.stream)).message, 'acme: HTTP 400');
    assert.equal(fatal.controllers.length, 1);
  });

  it('treats an attempt that ends without a finish as a retryable truncation', async () => {
    const { stream, controllers } = scripted([[], [finish]]);
    finishOf(await collect(stream));
    assert.equal(controllers.length, 2);
  });

  it('wraps an unexpected throw as a non-retryable provider error', async () => {
    const { stream } = scripted([[new TypeError('cannot read properties of undefined')], [finish]]);
    const error = errorOf(await collect(stream));
    assert.equal(error.message, 'acme: unexpected failure: cannot read properties of undefined');
    assert.equal(error.isRetryable, false);
  });

  it("forwards the caller's abort to the running attempt", async () => {
    const caller = new AbortController();
    const { stream, controllers } = scripted([[delta('Hi'), delta(' there'), finish]], {}, caller.signal);
    const parts: ChatStreamPart[] = [];
    for await (const part of stream) {
      parts.push(part);
      if (part.type === 'text-delta') caller.abort();
    }
    // The attempt noticed nothing (it is scripted), so it finished; a real one would throw AbortError.
    assert.equal(controllers[0]!.signal.aborted, true, 'the abort reached the attempt');
    assert.ok(parts.length >= 1);
  });

  it('reports an abort that lands while the attempt is failing, instead of the failure', async () => {
    const caller = new AbortController();
    const controllers: AbortController[] = [];
    const stream = retryingChatStream({
      provider: 'acme',
      http: resolveHttpSettings({ sleep: fakeSleep().sleep }),
      signal: caller.signal,
      async *attempt(controller) {
        controllers.push(controller);
        yield delta('Hi');
        caller.abort();
        throw new DOMException('aborted', 'AbortError');
      },
      usageOnAbort: (text) => ({ inputTokens: 10, outputTokens: text.length }),
    });
    const parts = await collect(stream);
    assert.equal(textOf(parts), 'Hi');
    const end = finishOf(parts);
    assert.equal(end.finishReason, 'aborted');
    assert.deepEqual(end.usage, { inputTokens: 10, outputTokens: 2 });
  });

  it('ends with finish "aborted" when the caller aborts during the wait between attempts', async () => {
    const caller = new AbortController();
    const http = resolveHttpSettings({
      sleep: async (_ms, signal) => {
        caller.abort();
        assert.equal(signal?.aborted, true, 'the wait sees the abort');
      },
    });
    let attempts = 0;
    const parts = await collect(
      retryingChatStream({
        provider: 'acme',
        http,
        signal: caller.signal,
        async *attempt() {
          attempts++;
          throw retryable();
        },
        usageOnAbort: () => ({ inputTokens: 10, outputTokens: 0 }),
      }),
    );
    assert.deepEqual(parts, [{ type: 'finish', finishReason: 'aborted', usage: { inputTokens: 10, outputTokens: 0 } }]);
    assert.equal(attempts, 1);
  });

  it('survives an injected sleep that rejects on abort', async () => {
    const caller = new AbortController();
    const http = resolveHttpSettings({
      sleep: async () => {
        caller.abort();
        throw new DOMException('aborted', 'AbortError');
      },
    });
    const parts = await collect(
      retryingChatStream({
        provider: 'acme',
        http,
        signal: caller.signal,
        async *attempt() {
          throw retryable();
        },
        usageOnAbort: () => ({ inputTokens: 1, outputTokens: 0 }),
      }),
    );
    assert.equal(finishOf(parts).finishReason, 'aborted');
  });

  it('reports zero usage when aborted before any request went out', async () => {
    const { stream, controllers } = scripted([[finish]], {}, AbortSignal.abort());
    assert.deepEqual(await collect(stream), [{ type: 'finish', finishReason: 'aborted', usage: { inputTokens: 0, outputTokens: 0 } }]);
    assert.equal(controllers.length, 0);
  });

  it('releases the attempt when the consumer stops reading early', async () => {
    const { stream, controllers } = scripted([[delta('a'), delta('b'), finish]]);
    for await (const part of stream) {
      assert.equal(part.type, 'text-delta');
      break;
    }
    assert.equal(controllers[0]!.signal.aborted, true);
  });
});

describe('retryDelayMs', () => {
  it('is undefined for non-retryable errors and once retries are spent', () => {
    const http = resolveHttpSettings({ random: () => 0, maxRetries: 2 });
    assert.equal(retryDelayMs(new ProviderError('acme', 'x'), 0, http), undefined);
    assert.equal(retryDelayMs(retryable(), 2, http), undefined);
    assert.equal(retryDelayMs(retryable(), 1, http), 1_000);
    assert.equal(retryDelayMs(retryable('x', { retryAfterS: 0 }), 0, http), 0);
  });
});
