import type { ChatModel, ChatRequest, ChatStreamPart, FinishReason } from '../chat-model.js';
import { ProviderError } from '../../errors.js';
import type { ResolvedHttpSettings } from '../../vendor-http/http-settings.js';
import { parseVendorJson, reportedCount } from '../../vendor-http/parse-vendor-json.js';
import { decodeSse } from '../../vendor-http/sse-decoder.js';
import { failedChatStream, vendorChatStream } from '../vendor-chat-stream.js';
import { providerErrorFromStream, truncatedStreamError } from '../../vendor-http/vendor-errors.js';
import { resolveUsage } from '../token-count.js';
import { convertToOpenAIMessages } from './convert-to-openai-messages.js';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';
import type { OpenAIChatChunk, OpenAIChatRequestBody } from './openai-api-types.js';
import { isRetryableOpenAIStreamError, openAIErrorDetail, parseOpenAIError } from './openai-error.js';

/** How one OpenAI-protocol endpoint is reached; built and frozen by the provider factory. */
export interface OpenAIChatModelConfig {
  /** The provider id the model reports (`openai`, or a custom provider's id). */
  provider: string;
  /** Includes the API version, like the official SDK: `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey: string | undefined;
  http: ResolvedHttpSettings;
  /**
   * OpenAI deprecated `max_tokens` in favour of `max_completion_tokens` (and its reasoning models
   * reject the old name); most OpenAI-compatible servers still read only `max_tokens`.
   */
  maxTokensField: 'max_completion_tokens' | 'max_tokens';
  /** When set and no key is configured, the call fails before any request with this message. */
  missingKeyMessage?: string;
  /** Whether to send `stream_options.include_usage`; a few strict servers reject unknown fields. */
  includeUsage: boolean;
}

/**
 * A model behind the OpenAI Chat Completions protocol, streamed (`stream: true`) with usage from
 * the final chunk (`stream_options.include_usage`). Serves `openai` and every OpenAI-compatible
 * server (Groq, vLLM, LM Studio, Together) registered with `createOpenAICompatibleProvider`.
 *
 * @example
 * const model = createOpenAIProvider({ apiKey }).chatModel('gpt-4o-mini');
 * for await (const part of model.stream({ system, messages, signal })) { … }
 */
export class OpenAIChatModel implements ChatModel {
  readonly provider: string;
  readonly modelId: string;
  readonly #config: Readonly<OpenAIChatModelConfig>;

  constructor(modelId: string, config: Readonly<OpenAIChatModelConfig>) {
    this.modelId = modelId;
    this.provider = config.provider;
    this.#config = config;
  }

  stream(request: ChatRequest): AsyncIterable<ChatStreamPart> {
    const { provider, apiKey, http } = this.#config;
    if (apiKey === undefined && this.#config.missingKeyMessage !== undefined) {
      return failedChatStream(new ProviderError(provider, this.#config.missingKeyMessage));
    }
    return vendorChatStream({
      provider,
      http,
      request,
      vendorRequest: () => ({
        url: `${this.#config.baseUrl}/chat/completions`,
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }),
        },
        body: JSON.stringify(this.#body(request)),
      }),
      parseError: parseOpenAIError,
      secrets: [apiKey],
      requestIdHeader: 'x-request-id',
      decode: (body) => this.#decode(body, request),
    });
  }

  #body(request: ChatRequest): OpenAIChatRequestBody {
    return {
      model: this.modelId,
      messages: convertToOpenAIMessages(request),
      stream: true,
      ...(this.#config.includeUsage ? { stream_options: { include_usage: true } } : {}),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.maxTokens === undefined ? {} : { [this.#config.maxTokensField]: request.maxTokens }),
    };
  }

  async *#decode(body: AsyncIterable<Uint8Array>, request: ChatRequest): AsyncGenerator<ChatStreamPart> {
    const { provider, apiKey } = this.#config;
    let text = '';
    let finishReason: FinishReason | undefined;
    let usage: Partial<OpenAIChatChunk>['usage'];
    for await (const event of decodeSse(body)) {
      if (event.data === '[DONE]') break;
      const chunk = parseVendorJson<OpenAIChatChunk>(provider, event.data, [apiKey]);
      if (chunk.error) {
        const detail = openAIErrorDetail(chunk.error);
        throw providerErrorFromStream(provider, detail, [apiKey], isRetryableOpenAIStreamError(detail));
      }
      if (chunk.usage) usage = chunk.usage;
      for (const choice of chunk.choices ?? []) {
        if ((choice.index ?? 0) !== 0) continue; // we never ask for n > 1
        // A refusal is the model's answer in words; the avatar should say it rather than fall silent.
        const delta = choice.delta?.content ?? choice.delta?.refusal;
        if (delta) {
          text += delta;
          yield { type: 'text-delta', delta };
        }
        if (choice.finish_reason) finishReason = mapOpenAIFinishReason(choice.finish_reason);
      }
    }
    // `[DONE]` missing after a finish_reason is accepted: some compatible servers just close.
    if (finishReason === undefined) throw truncatedStreamError(provider, 'a finish_reason');
    // Usage is OpenAI's own count from the final chunk; servers that ignore `include_usage` send
    // none, and then resolveUsage ESTIMATES each missing side with the tokenizer-like count.
    yield {
      type: 'finish',
      finishReason,
      usage: resolveUsage(request, text, {
        input: reportedCount(usage?.prompt_tokens),
        output: reportedCount(usage?.completion_tokens),
      }),
    };
  }
}
