import type { ChatModel, ChatRequest, ChatStreamPart } from './chat-model.js';
import { ProviderError, ValidationError } from '../errors.js';

/** Reported each time a link of the chain fails before any text and the next one takes over. */
export interface FallbackEvent {
  failed: { provider: string; model: string };
  error: ProviderError;
  next: { provider: string; model: string };
}

export interface FallbackChatModelSettings {
  /** The chain, tried in order: e.g. anthropic → openai → local. At least one model. */
  models: readonly ChatModel[];
  /** For logs and metrics: the operator should learn that the first choice is failing. */
  onFallback?: (event: FallbackEvent) => void;
}

/**
 * A {@link ChatModel} that answers with the first model of a chain that works. It moves to the
 * next model only when the current one failed with an `error` part before streaming any text
 * (its own retries already spent); a failure after text was streamed surfaces as it is, since
 * the listener already heard part of that answer. The `finish` part names the provider and
 * model that actually answered. `provider` / `modelId` are those of the first link.
 *
 * @example
 * const model = createFallbackChatModel({
 *   models: [registry.chatModel('anthropic'), registry.chatModel('openai'), registry.chatModel('local')],
 *   onFallback: (e) => log.warn(`${e.failed.provider} failed (${e.error.message}); trying ${e.next.provider}`),
 * });
 */
export class FallbackChatModel implements ChatModel {
  readonly provider: string;
  readonly modelId: string;
  readonly #models: readonly ChatModel[];
  readonly #onFallback: ((event: FallbackEvent) => void) | undefined;

  constructor(settings: FallbackChatModelSettings) {
    const first = settings.models[0];
    if (!first) throw new ValidationError('models', 'a fallback chain needs at least one model');
    this.#models = Object.freeze([...settings.models]);
    this.#onFallback = settings.onFallback;
    this.provider = first.provider;
    this.modelId = first.modelId;
  }

  /** The chain, in order. */
  get models(): readonly ChatModel[] {
    return this.#models;
  }

  stream(request: ChatRequest): AsyncIterable<ChatStreamPart> {
    return this.#stream(request);
  }

  async *#stream(request: ChatRequest): AsyncGenerator<ChatStreamPart> {
    for (const [index, model] of this.#models.entries()) {
      if (request.signal?.aborted) {
        // Every earlier link failed without text, so nothing was produced to count.
        yield { type: 'finish', finishReason: 'aborted', usage: { inputTokens: 0, outputTokens: 0 } };
        return;
      }
      const next = this.#models[index + 1];
      let streamedText = false;
      let error: ProviderError | undefined;
      try {
        for await (const part of model.stream(request)) {
          if (part.type === 'text-delta') {
            if (part.delta.length > 0) streamedText = true;
            yield part;
          } else if (part.type === 'finish') {
            yield { ...part, provider: part.provider ?? model.provider, model: part.model ?? model.modelId };
            return;
          } else if (streamedText || !next) {
            yield part;
            return;
          } else {
            error = part.error;
            break;
          }
        }
      } catch (cause) {
        // The contract says a model never throws; one that does is treated like an error part.
        error = new ProviderError(model.provider, `the model failed: ${describe(cause)}`, { cause });
        if (streamedText || !next) {
          yield { type: 'error', error };
          return;
        }
      }
      error ??= new ProviderError(model.provider, 'the stream ended without a finish or an error');
      if (streamedText || !next) {
        yield { type: 'error', error };
        return;
      }
      try {
        this.#onFallback?.({
          failed: { provider: model.provider, model: model.modelId },
          error,
          next: { provider: next.provider, model: next.modelId },
        });
      } catch {
        // A failing log hook must not cost the listener the reply.
      }
    }
  }
}

/** Builds a {@link FallbackChatModel}; a chain of one model behaves exactly like that model. */
export function createFallbackChatModel(settings: FallbackChatModelSettings): FallbackChatModel {
  return new FallbackChatModel(settings);
}

function describe(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
