import type { AIProvider, ChatModel, ChatRequest, ChatStreamPart } from '../../core/index.js';
import { ProviderError } from '../../core/index.js';
import { sleep } from '../../core/util/sleep.js';

export interface ScriptedProviderOptions {
  /** The reply, streamed a word per delta; a function gets the request (e.g. to echo it). */
  reply: string | ((request: ChatRequest) => string);
  /** Pause before each delta, so a test can act mid-reply. */
  delayMs?: number;
  /** Fail with a provider error after this many deltas. */
  failAfter?: number;
  id?: string;
}

/**
 * An AI provider for tests that streams a known reply at a known pace and honours abort like a
 * real adapter: on abort it stops and finishes with reason `aborted`.
 */
export function scriptedProvider(options: ScriptedProviderOptions): AIProvider & { requests: ChatRequest[] } {
  const id = options.id ?? 'local';
  const requests: ChatRequest[] = [];
  const model: ChatModel = {
    provider: id,
    modelId: 'scripted',
    async *stream(request): AsyncIterable<ChatStreamPart> {
      requests.push(request);
      const text = typeof options.reply === 'function' ? options.reply(request) : options.reply;
      const words = text.match(/\S+\s*/g) ?? [];
      let sent = 0;
      for (const word of words) {
        if (options.delayMs) await sleep(options.delayMs, request.signal);
        if (request.signal?.aborted) {
          yield { type: 'finish', finishReason: 'aborted', usage: { inputTokens: 5, outputTokens: sent } };
          return;
        }
        if (options.failAfter !== undefined && sent >= options.failAfter) {
          yield { type: 'error', error: new ProviderError(id, 'scripted failure', { isRetryable: true }) };
          return;
        }
        sent++;
        yield { type: 'text-delta', delta: word };
      }
      yield { type: 'finish', finishReason: 'stop', usage: { inputTokens: 5, outputTokens: sent } };
    },
  };
  return {
    id,
    name: 'Scripted (tests)',
    description: 'Streams a fixed reply for tests',
    kind: 'offline',
    configured: true,
    defaultModel: 'scripted',
    models: [{ id: 'scripted', name: 'scripted', contextWindow: 1000, capabilities: ['chat', 'streaming'] }],
    chatModel: () => model,
    requests,
  };
}
