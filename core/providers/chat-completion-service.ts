import type { IdGenerator } from '../ids.js';
import type { Owner } from '../ports/store.js';
import type { UsageService } from '../usage/usage-service.js';
import type { ChatMessage, ChatRequest, ChatStreamPart, FinishReason, TokenUsage } from './chat-model.js';
import type { ProviderRegistry } from './provider-registry.js';
import { ValidationError } from '../errors.js';
import { Limits, checkText } from '../text-limits.js';
import { capReplyLength } from './cap-reply-length.js';

export interface ChatCompletionInput {
  provider?: string;
  model?: string;
  /** `system` messages are joined into the provider's system slot, in order. */
  messages: readonly { role: 'system' | 'user' | 'assistant'; content: string }[];
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
}

export interface ChatCompletion {
  id: string;
  provider: string;
  model: string;
  content: string;
  finishReason: FinishReason;
  usage: TokenUsage;
}

export interface ChatCompletionStream {
  id: string;
  provider: string;
  model: string;
  /** The provider's parts; usage is metered when the `finish` part passes. */
  parts: AsyncIterable<ChatStreamPart>;
}

/**
 * Raw chat completions (`POST /v1/ai/chat`): one request to a registered provider, outside any
 * conversation, metered as AI tokens of the caller's account.
 */
export class ChatCompletionService {
  readonly #providers: ProviderRegistry;
  readonly #usage: UsageService;
  readonly #ids: IdGenerator;

  constructor(deps: { providers: ProviderRegistry; usage: UsageService; ids: IdGenerator }) {
    this.#providers = deps.providers;
    this.#usage = deps.usage;
    this.#ids = deps.ids;
  }

  /** Validates the request and starts the provider's stream. */
  stream(owner: Owner, input: ChatCompletionInput): ChatCompletionStream {
    const providerId = input.provider ?? this.#providers.defaultId;
    this.#providers.requireConfigured(providerId, 'provider');
    const model = this.#providers.chatModelWithFallback(providerId, input.model, 'model');
    const system: string[] = [];
    const messages: ChatMessage[] = [];
    input.messages.forEach((message, i) => {
      checkText(`messages[${i}].content`, message.content, Limits.contentMaxChars);
      if (message.role === 'system') system.push(message.content);
      else messages.push({ role: message.role, content: message.content });
    });
    // Every vendor answers a user turn; instructions or an assistant turn alone get nothing to answer.
    if (!messages.some((message) => message.role === 'user')) throw new ValidationError('messages', 'messages must contain at least one user message');
    const request: ChatRequest = {
      ...(system.length > 0 && { system: system.join('\n\n') }),
      messages,
      ...(input.temperature !== undefined && { temperature: input.temperature }),
      ...(input.maxTokens !== undefined && { maxTokens: input.maxTokens }),
      ...(input.signal && { signal: input.signal }),
    };
    const parts = capReplyLength(model.stream(request), request, Limits.replyMaxChars);
    return { id: this.#ids.next('chat'), provider: model.provider, model: model.modelId, parts: this.#metered(owner, parts) };
  }

  /** Runs the completion to the end; a provider failure throws its `ProviderError`. */
  async complete(owner: Owner, input: ChatCompletionInput): Promise<ChatCompletion> {
    const { parts, ...started } = this.stream(owner, input);
    let content = '';
    for await (const part of parts) {
      if (part.type === 'text-delta') content += part.delta;
      else if (part.type === 'error') throw part.error;
      else {
        // After a fallback the finish part names who actually answered.
        const answered = { provider: part.provider ?? started.provider, model: part.model ?? started.model };
        return { ...started, ...answered, content, finishReason: part.finishReason, usage: part.usage };
      }
    }
    return { ...started, content, finishReason: 'other', usage: { inputTokens: 0, outputTokens: 0 } };
  }

  async *#metered(owner: Owner, parts: AsyncIterable<ChatStreamPart>): AsyncGenerator<ChatStreamPart> {
    for await (const part of parts) {
      if (part.type === 'finish') {
        await this.#usage.record(owner, { aiTokens: part.usage.inputTokens + part.usage.outputTokens });
      }
      yield part;
    }
  }
}
