import type { ChatModel, ChatRequest, ChatStreamPart, FinishReason, TokenUsage } from '../chat-model.js';
import { ProviderError } from '../../errors.js';
import { composeLocalReply } from './compose-local-reply.js';
import { estimateInputTokens, estimateTokens } from './estimate-tokens.js';
import type { LocalProviderSettings } from './local-provider-settings.js';
import { sleep as timerSleep } from '../../util/sleep.js';
import { splitIntoDeltas } from './split-into-deltas.js';

/** Lets other work run between two streamed pieces without adding a delay. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The offline engine's {@link ChatModel}. It composes the whole reply up front (it is cheap and
 * synchronous), then streams it a word or two at a time like a vendor model would, so consumers —
 * the speech pipeline, the socket relay — exercise the same streaming path with no network.
 *
 * @example
 * const model = new LocalChatModel('local-companion');
 * for await (const part of model.stream({ messages: [{ role: 'user', content: 'Hi, I am Sam' }] })) {
 *   if (part.type === 'text-delta') process.stdout.write(part.delta);
 * }
 */
export class LocalChatModel implements ChatModel {
  readonly provider = 'local';
  readonly modelId: string;
  readonly #settings: Readonly<LocalProviderSettings>;

  constructor(modelId: string, settings: LocalProviderSettings = {}) {
    this.modelId = modelId;
    this.#settings = Object.freeze({ ...settings });
  }

  stream(request: ChatRequest): AsyncIterable<ChatStreamPart> {
    return this.#generate(request);
  }

  async *#generate(request: ChatRequest): AsyncGenerator<ChatStreamPart> {
    const inputTokens = estimateInputTokens(request);
    const finish = (finishReason: FinishReason, text: string): ChatStreamPart => {
      const usage: TokenUsage = { inputTokens, outputTokens: estimateTokens(text) };
      return { type: 'finish', finishReason, usage };
    };
    const signal = request.signal;
    if (signal?.aborted) {
      yield finish('aborted', '');
      return;
    }

    let text: string;
    try {
      text = composeLocalReply(request, this.#settings, this.modelId);
    } catch (cause) {
      yield { type: 'error', error: new ProviderError('local', 'the offline engine could not compose a reply', { cause }) };
      return;
    }

    const budget = request.maxTokens !== undefined && Number.isFinite(request.maxTokens) ? Math.max(0, Math.floor(request.maxTokens)) : Infinity;
    const delayMs = this.#settings.deltaDelayMs ?? 0;
    const sleep = this.#settings.sleep ?? timerSleep;
    let emitted = '';
    const deltas = splitIntoDeltas(text);
    for (let i = 0; i < deltas.length; i++) {
      if (i > 0) await (delayMs > 0 ? sleep(delayMs, signal) : nextTurn());
      if (signal?.aborted) {
        yield finish('aborted', emitted);
        return;
      }
      const delta = deltas[i]!;
      if (estimateTokens(emitted + delta) > budget) {
        yield finish('length', emitted);
        return;
      }
      emitted += delta;
      yield { type: 'text-delta', delta };
    }
    yield finish('stop', emitted);
  }
}
