import type { ChatModel, ChatRequest, ChatStreamPart } from '../chat-model.js';
import type { ResolvedHttpSettings } from '../../vendor-http/http-settings.js';
import { decodeNdjson } from '../../vendor-http/ndjson-decoder.js';
import { parseVendorJson, reportedCount } from '../../vendor-http/parse-vendor-json.js';
import { vendorChatStream } from '../vendor-chat-stream.js';
import { providerErrorFromStream, truncatedStreamError } from '../../vendor-http/vendor-errors.js';
import { resolveUsage } from '../token-count.js';
import { convertToOllamaMessages } from './convert-to-ollama-messages.js';
import { mapOllamaFinishReason } from './map-ollama-finish-reason.js';
import type { OllamaChatChunk, OllamaRequestBody } from './ollama-api-types.js';
import { parseOllamaError } from './ollama-error.js';

export interface OllamaChatModelConfig {
  /** The host, like `OLLAMA_URL`: `http://127.0.0.1:11434` (requests to `/api/chat`). */
  baseUrl: string;
  /** Only for an Ollama behind an authenticating proxy; a local Ollama needs none. */
  apiKey: string | undefined;
  http: ResolvedHttpSettings;
}

/**
 * A model served by Ollama through `/api/chat` with `stream: true`: NDJSON lines with
 * `message.content` pieces, ending with a `done: true` line that carries `done_reason`,
 * `prompt_eval_count` and `eval_count`.
 */
export class OllamaChatModel implements ChatModel {
  readonly provider = 'ollama';
  readonly modelId: string;
  readonly #config: Readonly<OllamaChatModelConfig>;

  constructor(modelId: string, config: Readonly<OllamaChatModelConfig>) {
    this.modelId = modelId;
    this.#config = config;
  }

  stream(request: ChatRequest): AsyncIterable<ChatStreamPart> {
    const { apiKey, http } = this.#config;
    return vendorChatStream({
      provider: this.provider,
      http,
      request,
      vendorRequest: () => ({
        url: `${this.#config.baseUrl}/api/chat`,
        headers: {
          'content-type': 'application/json',
          accept: 'application/x-ndjson',
          ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }),
        },
        body: JSON.stringify(this.#body(request)),
      }),
      parseError: parseOllamaError,
      secrets: [apiKey],
      decode: (body) => this.#decode(body, request),
    });
  }

  #body(request: ChatRequest): OllamaRequestBody {
    const options = {
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.maxTokens === undefined ? {} : { num_predict: request.maxTokens }),
    };
    return {
      model: this.modelId,
      messages: convertToOllamaMessages(request),
      stream: true,
      ...(Object.keys(options).length > 0 ? { options } : {}),
    };
  }

  async *#decode(body: AsyncIterable<Uint8Array>, request: ChatRequest): AsyncGenerator<ChatStreamPart> {
    const secrets = [this.#config.apiKey];
    let text = '';
    for await (const line of decodeNdjson(body)) {
      const chunk = parseVendorJson<OllamaChatChunk>(this.provider, line, secrets);
      // Ollama's in-stream errors (a model crash, out of memory) do not go away when repeated at once.
      if (typeof chunk.error === 'string') throw providerErrorFromStream(this.provider, { message: chunk.error }, secrets, false);
      const delta = chunk.message?.content;
      if (delta) {
        text += delta;
        yield { type: 'text-delta', delta };
      }
      if (chunk.done === true) {
        // Ollama's own counts. It omits prompt_eval_count when the prompt came from its cache;
        // resolveUsage then ESTIMATES that side with the tokenizer-like count.
        yield {
          type: 'finish',
          finishReason: mapOllamaFinishReason(chunk.done_reason),
          usage: resolveUsage(request, text, {
            input: reportedCount(chunk.prompt_eval_count),
            output: reportedCount(chunk.eval_count),
          }),
        };
        return;
      }
    }
    throw truncatedStreamError(this.provider, 'the "done": true line');
  }
}
