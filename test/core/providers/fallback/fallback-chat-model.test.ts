import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { ChatModel, ChatRequest, ChatStreamPart } from '../../../../core/providers/chat-model.js';
import { ProviderError, ValidationError } from '../../../../core/errors.js';
import type { FallbackEvent } from '../../../../core/providers/fallback-chat-model.js';
import { createFallbackChatModel } from '../../../../core/providers/fallback-chat-model.js';
import { createLocalProvider } from '../../../../core/providers/local/index.js';
import { createOpenAIProvider } from '../../../../core/providers/openai/index.js';
import { chatRequest, collect, errorOf, fakeSleep, finishOf, readFixture, textOf } from '../vendor-chat-conformance.js';
import type { ReplayServer } from '../../../support/replay-server.js';
import { startReplayServer } from '../../../support/replay-server.js';

const usage = { inputTokens: 5, outputTokens: 3 };
const done: ChatStreamPart = { type: 'finish', finishReason: 'stop', usage };
const delta = (text: string): ChatStreamPart => ({ type: 'text-delta', delta: text });
const failure = (provider: string, message = 'HTTP 529 overloaded_error'): ChatStreamPart => ({
  type: 'error',
  error: new ProviderError(provider, message, { isRetryable: true }),
});

/** A model that plays scripted parts and counts its calls; `throws` breaks the never-throw contract. */
function scriptedModel(provider: string, parts: readonly ChatStreamPart[], throws?: Error) {
  const calls: ChatRequest[] = [];
  const model: ChatModel = {
    provider,
    modelId: `${provider}-model`,
    async *stream(request) {
      calls.push(request);
      for (const part of parts) yield part;
      if (throws) throw throws;
    },
  };
  return { model, calls };
}

describe('FallbackChatModel', () => {
  it('answers with the first model when it works, naming it in the finish part', async () => {
    const first = scriptedModel('anthropic', [delta('Hi'), done]);
    const second = scriptedModel('openai', [delta('Yo'), done]);
    const chain = createFallbackChatModel({ models: [first.model, second.model] });
    assert.equal(chain.provider, 'anthropic');
    assert.equal(chain.modelId, 'anthropic-model');
    const parts = await collect(chain.stream(chatRequest));
    assert.deepEqual(parts, [delta('Hi'), { ...done, provider: 'anthropic', model: 'anthropic-model' }]);
    assert.equal(second.calls.length, 0);
  });

  it('moves on when a model fails before any text, and reports the switch', async () => {
    const events: FallbackEvent[] = [];
    const first = scriptedModel('anthropic', [delta(''), failure('anthropic')]);
    const second = scriptedModel('openai', [failure('openai', 'HTTP 500')]);
    const third = scriptedModel('local', [delta('Hello'), done]);
    const chain = createFallbackChatModel({ models: [first.model, second.model, third.model], onFallback: (e) => events.push(e) });
    const parts = await collect(chain.stream(chatRequest));
    assert.equal(textOf(parts), 'Hello');
    const finish = finishOf(parts);
    assert.equal(finish.provider, 'local');
    assert.equal(finish.model, 'local-model');
    assert.deepEqual(
      events.map((e) => [e.failed.provider, e.next.provider, e.error.message]),
      [
        ['anthropic', 'openai', 'anthropic: HTTP 529 overloaded_error'],
        ['openai', 'local', 'openai: HTTP 500'],
      ],
    );
    assert.equal(third.calls[0], chatRequest, 'every link gets the same request');
  });

  it('surfaces a failure after text as it is: the listener already heard part of that answer', async () => {
    const first = scriptedModel('anthropic', [delta('Hel'), failure('anthropic', 'connection lost')]);
    const second = scriptedModel('openai', [delta('Hello'), done]);
    const parts = await collect(createFallbackChatModel({ models: [first.model, second.model] }).stream(chatRequest));
    assert.equal(textOf(parts), 'Hel');
    assert.equal(errorOf(parts).message, 'anthropic: connection lost');
    assert.equal(second.calls.length, 0);
  });

  it("reports the last model's error when every model fails", async () => {
    const chain = createFallbackChatModel({
      models: [scriptedModel('anthropic', [failure('anthropic')]).model, scriptedModel('openai', [failure('openai', 'HTTP 401')]).model],
    });
    assert.equal(errorOf(await collect(chain.stream(chatRequest))).message, 'openai: HTTP 401');
  });

  it('treats a model that throws or ends without a finish like a failed one', async () => {
    const throwing = scriptedModel('anthropic', [], new Error('socket hang up'));
    const silent = scriptedModel('google', []);
    const working = scriptedModel('local', [delta('ok'), done]);
    const parts = await collect(createFallbackChatModel({ models: [throwing.model, silent.model, working.model] }).stream(chatRequest));
    assert.equal(textOf(parts), 'ok');

    const lastThrows = scriptedModel('openai', [delta('x')], new Error('boom'));
    const error = errorOf(await collect(createFallbackChatModel({ models: [lastThrows.model] }).stream(chatRequest)));
    assert.equal(error.message, 'openai: the model failed: boom');
  });

  it('stops, with finish "aborted", when the caller aborts between links', async () => {
    const caller = new AbortController();
    const first = scriptedModel('anthropic', [failure('anthropic')]);
    const second = scriptedModel('openai', [delta('late'), done]);
    const chain = createFallbackChatModel({ models: [first.model, second.model], onFallback: () => caller.abort() });
    const parts = await collect(chain.stream({ ...chatRequest, signal: caller.signal }));
    assert.deepEqual(parts, [{ type: 'finish', finishReason: 'aborted', usage: { inputTokens: 0, outputTokens: 0 } }]);
    assert.equal(second.calls.length, 0);
  });

  it('keeps the answer when the onFallback hook throws, and keeps names set by a nested chain', async () => {
    const inner = createFallbackChatModel({
      models: [scriptedModel('google', [failure('google')]).model, scriptedModel('ollama', [delta('hi'), done]).model],
    });
    const outer = createFallbackChatModel({
      models: [scriptedModel('anthropic', [failure('anthropic')]).model, inner],
      onFallback: () => {
        throw new Error('logger down');
      },
    });
    const finish = finishOf(await collect(outer.stream(chatRequest)));
    assert.equal(finish.provider, 'ollama');
  });

  it('needs at least one model', () => {
    assert.throws(() => createFallbackChatModel({ models: [] }), ValidationError);
  });

  describe('with real adapters', () => {
    let server: ReplayServer | undefined;
    after(async () => {
      await server?.close();
    });

    it('falls back from an OpenAI that keeps failing (after its own retries) to the offline engine', async () => {
      server = await startReplayServer([
        { status: 503, headers: { 'content-type': 'application/json' }, chunks: [readFixture('openai', 'server-error-500.body.json')] },
      ]);
      const { sleep, delays } = fakeSleep();
      const openai = createOpenAIProvider({ apiKey: 'sk-test-fallback-123456', baseUrl: `${server.url}/v1`, http: { sleep, maxRetries: 1 } });
      const local = createLocalProvider();
      const chain = createFallbackChatModel({ models: [openai.chatModel(), local.chatModel()] });
      const parts = await collect(chain.stream(chatRequest));
      assert.equal(server.requests.length, 2, 'openai retried once before giving up');
      assert.equal(delays.length, 1);
      assert.ok(textOf(parts).length > 0);
      const finish = finishOf(parts);
      assert.equal(finish.provider, 'local');
      assert.equal(finish.model, local.defaultModel);
    });
  });
});
