import type { ChatModel, ChatRequest, ChatStreamPart, FinishReason } from '../chat-model.js';
import { ProviderError } from '../../errors.js';
import type { ResolvedHttpSettings } from '../../vendor-http/http-settings.js';
import { parseVendorJson, reportedCount } from '../../vendor-http/parse-vendor-json.js';
import { decodeSse } from '../../vendor-http/sse-decoder.js';
import { failedChatStream, vendorChatStream } from '../vendor-chat-stream.js';
import { providerErrorFromStream, truncatedStreamError } from '../../vendor-http/vendor-errors.js';
import { resolveUsage } from '../token-count.js';
import type { AnthropicRequestBody, AnthropicStreamEvent, AnthropicUsage } from './anthropic-api-types.js';
import { anthropicErrorDetail, isRetryableAnthropicError, parseAnthropicError } from './anthropic-error.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';
import { missingKeyMessage } from '../../vendor-http/vendor-errors.js';

/** The API version this adapter speaks; Anthropic requires it on every request. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** The Messages API requires `max_tokens`; a spoken reply of a few sentences fits well within this. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 1024;

export interface AnthropicChatModelConfig {
  /** The host, like `ANTHROPIC_BASE_URL`: `https://api.anthropic.com` (requests to `/v1/messages`). */
  baseUrl: string;
  apiKey: string | undefined;
  http: ResolvedHttpSettings;
  /** The host's hint for a missing key, e.g. `set ANTHROPIC_API_KEY`. */
  setupHint?: string;
}

/**
 * A Claude model through the Messages API with `stream: true`. Text arrives in
 * `content_block_delta` / `text_delta` events; input usage in `message_start`, output usage and
 * the stop reason in `message_delta`; `message_stop` ends the stream. `ping` and unknown events
 * are ignored; an `error` event (e.g. `overloaded_error`) becomes an error part.
 */
export class AnthropicChatModel implements ChatModel {
  readonly provider = 'anthropic';
  readonly modelId: string;
  readonly #config: Readonly<AnthropicChatModelConfig>;

  constructor(modelId: string, config: Readonly<AnthropicChatModelConfig>) {
    this.modelId = modelId;
    this.#config = config;
  }

  stream(request: ChatRequest): AsyncIterable<ChatStreamPart> {
    const { apiKey, http } = this.#config;
    if (apiKey === undefined) {
      return failedChatStream(new ProviderError(this.provider, missingKeyMessage(this.#config.setupHint)));
    }
    return vendorChatStream({
      provider: this.provider,
      http,
      request,
      vendorRequest: () => ({
        url: `${this.#config.baseUrl}/v1/messages`,
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          'x-api-key': apiKey,
          'anthropic-version': ANTHROPIC_VERSION,
        },
        body: JSON.stringify(this.#body(request)),
      }),
      parseError: parseAnthropicError,
      secrets: [apiKey],
      requestIdHeader: 'request-id',
      decode: (body) => this.#decode(body, request),
    });
  }

  #body(request: ChatRequest): AnthropicRequestBody {
    return {
      model: this.modelId,
      max_tokens: request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
      ...(request.system?.trim() ? { system: request.system } : {}),
      messages: convertToAnthropicMessages(request),
      stream: true,
      // Anthropic's range is 0–1 where OpenAI's is 0–2; clamp rather than fail the reply with a 400.
      ...(request.temperature === undefined ? {} : { temperature: Math.min(1, Math.max(0, request.temperature)) }),
    };
  }

  async *#decode(body: AsyncIterable<Uint8Array>, request: ChatRequest): AsyncGenerator<ChatStreamPart> {
    const secrets = [this.#config.apiKey];
    let text = '';
    let stopReason: FinishReason = 'other';
    let inputTokens: number | undefined;
    let outputTokens: number | undefined;
    for await (const event of decodeSse(body)) {
      const data = parseVendorJson<AnthropicStreamEvent>(this.provider, event.data, secrets);
      switch (data.type ?? event.event) {
        case 'message_start':
          inputTokens = inputTokensOf(data.message?.usage) ?? inputTokens;
          outputTokens = reportedCount(data.message?.usage?.output_tokens) ?? outputTokens;
          break;
        case 'content_block_delta':
          if (data.delta?.type === 'text_delta' && data.delta.text) {
            text += data.delta.text;
            yield { type: 'text-delta', delta: data.delta.text };
          }
          break;
        case 'message_delta':
          if (data.delta?.stop_reason) stopReason = mapAnthropicFinishReason(data.delta.stop_reason);
          // Counts in message_delta are cumulative: the latest one is the total.
          inputTokens = inputTokensOf(data.usage) ?? inputTokens;
          outputTokens = reportedCount(data.usage?.output_tokens) ?? outputTokens;
          break;
        case 'message_stop':
          // Anthropic's own counts; a side it did not report is ESTIMATED by resolveUsage.
          yield {
            type: 'finish',
            finishReason: stopReason,
            usage: resolveUsage(request, text, { input: inputTokens, output: outputTokens }),
          };
          return;
        case 'error': {
          const detail = anthropicErrorDetail(data.error ?? {});
          throw providerErrorFromStream(this.provider, detail, secrets, isRetryableAnthropicError(detail.type));
        }
        default:
          break; // ping, content_block_start / _stop, and event types added later
      }
    }
    throw truncatedStreamError(this.provider, 'message_stop');
  }
}

/** Cache writes and reads are input too (billed at other rates): all count toward `ai_tokens`. */
function inputTokensOf(usage: AnthropicUsage | undefined): number | undefined {
  const base = reportedCount(usage?.input_tokens);
  if (base === undefined) return undefined;
  return base + (reportedCount(usage?.cache_creation_input_tokens) ?? 0) + (reportedCount(usage?.cache_read_input_tokens) ?? 0);
}
