import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatStreamPart } from '../../../../core/providers/chat-model.js';
import { NotFoundError, ValidationError } from '../../../../core/errors.js';
import { createLocalProvider, estimateInputTokens, estimateTokens } from '../../../../core/providers/local/index.js';
import { collect, deltasOf, tutor } from './converse.js';

function finishOf(parts: readonly ChatStreamPart[]): Extract<ChatStreamPart, { type: 'finish' }> {
  const last = parts[parts.length - 1];
  assert.ok(last && last.type === 'finish', 'the stream ends with a finish part');
  return last;
}

describe('createLocalProvider', () => {
  it('is an always-configured offline provider that says plainly it is not an LLM', () => {
    const provider = createLocalProvider();
    assert.equal(provider.id, 'local');
    assert.equal(provider.kind, 'offline');
    assert.equal(provider.configured, true);
    assert.match(provider.description, /offline/i);
    assert.match(provider.description, /rule-based/i);
    assert.match(provider.description, /not an LLM/);
    assert.match(provider.description, /vendor/i);
    const model = provider.models.find((m) => m.id === provider.defaultModel);
    assert.ok(model);
    for (const capability of ['offline', 'chat', 'streaming', 'system-prompt'] as const) {
      assert.ok(model.capabilities.includes(capability), capability);
    }
    assert.equal(provider.chatModel().modelId, provider.defaultModel);
    assert.equal(provider.chatModel().provider, 'local');
  });

  it('rejects unknown models and invalid settings', () => {
    assert.throws(() => createLocalProvider().chatModel('gpt-4o'), NotFoundError);
    assert.throws(() => createLocalProvider({ deltaDelayMs: -1 }), ValidationError);
    assert.throws(() => createLocalProvider({ deltaDelayMs: Number.NaN }), ValidationError);
    assert.throws(() => createLocalProvider({ timeZone: 'Mars/Olympus' }), ValidationError);
  });
});

describe('LocalChatModel.stream', () => {
  const request = { messages: [{ role: 'user' as const, content: 'Can you help me with fractions? I keep getting stuck.' }], character: tutor };

  it('streams small deltas that join to the full reply, then finishes with stop', async () => {
    const parts = await collect(createLocalProvider().chatModel().stream(request));
    const deltas = deltasOf(parts);
    assert.ok(deltas.length >= 5, `expected several deltas, got ${deltas.length}`);
    for (const delta of deltas) {
      assert.ok(delta.trim().split(/\s+/).length <= 3, `delta too large: ${JSON.stringify(delta)}`);
      assert.ok(delta.trim().length > 0, 'no whitespace-only deltas');
    }
    const text = deltas.join('');
    assert.equal(text, text.trim());
    assert.doesNotMatch(text, /\S {2,}\S/, 'whitespace preserved exactly once between words');
    const finish = finishOf(parts);
    assert.equal(finish.finishReason, 'stop');
    assert.equal(finish.usage.outputTokens, estimateTokens(text));
    assert.equal(parts.filter((p) => p.type === 'finish').length, 1);
  });

  it('yields to the event loop between deltas', async () => {
    let ticks = 0;
    let running = true;
    const tick = (): void => {
      ticks++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    try {
      const stream = createLocalProvider().chatModel().stream(request);
      const seen: number[] = [];
      for await (const part of stream) if (part.type === 'text-delta') seen.push(ticks);
      assert.ok(seen[seen.length - 1]! > seen[0]!, 'other tasks ran while streaming');
    } finally {
      running = false;
    }
  });

  it('reports positive usage that grows with longer input', async () => {
    const model = createLocalProvider().chatModel();
    const short = finishOf(await collect(model.stream({ messages: [{ role: 'user', content: 'Hi' }] })));
    const long = finishOf(
      await collect(
        model.stream({
          system: 'You are a helpful maths tutor who explains things slowly.',
          messages: [
            { role: 'user', content: 'Hi' },
            { role: 'assistant', content: 'Hello! What would you like to learn today?' },
            { role: 'user', content: 'I would like to understand how long division works with remainders, please.' },
          ],
        }),
      ),
    );
    assert.ok(short.usage.inputTokens > 0 && short.usage.outputTokens > 0);
    assert.ok(long.usage.inputTokens > short.usage.inputTokens);
    const withoutSystem = estimateInputTokens({ messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal(short.usage.inputTokens, withoutSystem);
    assert.ok(estimateInputTokens({ system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }] }) > withoutSystem, 'system text counts');
  });

  it('stops promptly with finish reason aborted when the signal aborts mid-stream', async () => {
    const controller = new AbortController();
    const parts: ChatStreamPart[] = [];
    for await (const part of createLocalProvider().chatModel().stream({ ...request, signal: controller.signal })) {
      parts.push(part);
      if (part.type === 'text-delta' && parts.length === 2) controller.abort();
    }
    const finish = finishOf(parts);
    assert.equal(finish.finishReason, 'aborted');
    assert.equal(deltasOf(parts).length, 2);
    assert.equal(finish.usage.outputTokens, estimateTokens(deltasOf(parts).join('')));
    assert.ok(finish.usage.inputTokens > 0);
  });

  it('emits nothing but an aborted finish when the signal is already aborted', async () => {
    const parts = await collect(createLocalProvider().chatModel().stream({ ...request, signal: AbortSignal.abort() }));
    assert.equal(parts.length, 1);
    assert.equal(finishOf(parts).finishReason, 'aborted');
    assert.equal(finishOf(parts).usage.outputTokens, 0);
  });

  it('wakes from a pacing pause when aborted', async () => {
    const controller = new AbortController();
    const pauses: number[] = [];
    const provider = createLocalProvider({
      deltaDelayMs: 60_000,
      sleep: async (ms, signal) => {
        pauses.push(ms);
        controller.abort();
        assert.equal(signal, controller.signal);
      },
    });
    const parts = await collect(provider.chatModel().stream({ ...request, signal: controller.signal }));
    assert.deepEqual(pauses, [60_000]);
    assert.equal(finishOf(parts).finishReason, 'aborted');
    assert.equal(deltasOf(parts).length, 1);
  });

  it('paces deltas through the injected sleep', async () => {
    const pauses: number[] = [];
    const provider = createLocalProvider({ deltaDelayMs: 25, sleep: async (ms) => void pauses.push(ms) });
    const parts = await collect(provider.chatModel().stream(request));
    assert.equal(pauses.length, deltasOf(parts).length - 1);
    assert.ok(pauses.every((ms) => ms === 25));
  });

  it('cuts the reply at maxTokens and finishes with length', async () => {
    const model = createLocalProvider().chatModel();
    const full = deltasOf(await collect(model.stream(request))).join('');
    const parts = await collect(model.stream({ ...request, maxTokens: 5 }));
    const text = deltasOf(parts).join('');
    const finish = finishOf(parts);
    assert.equal(finish.finishReason, 'length');
    assert.ok(finish.usage.outputTokens <= 5);
    assert.ok(text.length > 0 && full.startsWith(text) && text.length < full.length);
  });
});
