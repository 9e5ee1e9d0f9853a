import type { ChatModel, ChatRequest, ChatStreamPart, FinishReason } from '../chat-model.js';
import { ProviderError } from '../../errors.js';
import type { ResolvedHttpSettings } from '../../vendor-http/http-settings.js';
import { parseVendorJson, reportedCount } from '../../vendor-http/parse-vendor-json.js';
import { decodeSse } from '../../vendor-http/sse-decoder.js';
import { failedChatStream, vendorChatStream } from '../vendor-chat-stream.js';
import { providerErrorFromStream, truncatedStreamError } from '../../vendor-http/vendor-errors.js';
import { resolveUsage } from '../token-count.js';
import { convertToGoogleMessages } from './convert-to-google-messages.js';
import type { GoogleRequestBody, GoogleStreamChunk, GoogleUsageMetadata } from './google-api-types.js';
import { googleErrorDetail, isRetryableGoogleStatus, parseGoogleError } from './google-error.js';
import { mapGoogleFinishReason } from './map-google-finish-reason.js';
import { missingKeyMessage } from '../../vendor-http/vendor-errors.js';

export interface GoogleChatModelConfig {
  /** The host, like `GOOGLE_BASE_URL`: `https://generativelanguage.googleapis.com`. */
  baseUrl: string;
  apiKey: string | undefined;
  http: ResolvedHttpSettings;
  /** The host's hint for a missing key, e.g. `set ANTHROPIC_API_KEY`. */
  setupHint?: string;
}

/**
 * A Gemini model through `streamGenerateContent?alt=sse`, authenticated with the
 * `x-goog-api-key` header (never a `?key=` query, which would end up in logs). Each SSE event is
 * a whole response whose `candidates[0].content.parts[].text` is the next piece of text; the last
 * carries `finishReason` and the final `usageMetadata`.
 */
export class GoogleChatModel implements ChatModel {
  readonly provider = 'google';
  readonly modelId: string;
  readonly #config: Readonly<GoogleChatModelConfig>;

  constructor(modelId: string, config: Readonly<GoogleChatModelConfig>) {
    this.modelId = modelId;
    this.#config = config;
  }

  stream(request: ChatRequest): AsyncIterable<ChatStreamPart> {
    const { apiKey, http } = this.#config;
    if (apiKey === undefined) {
      return failedChatStream(new ProviderError(this.provider, missingKeyMessage(this.#config.setupHint)));
    }
    // Model ids may come as the API's resource names (`models/gemini-2.5-flash`).
    const model = encodeURIComponent(this.modelId.replace(/^models\//, ''));
    return vendorChatStream({
      provider: this.provider,
      http,
      request,
      vendorRequest: () => ({
        url: `${this.#config.baseUrl}/v1beta/models/${model}:streamGenerateContent?alt=sse`,
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-goog-api-key': apiKey },
        body: JSON.stringify(this.#body(request)),
      }),
      parseError: parseGoogleError,
      secrets: [apiKey],
      decode: (body) => this.#decode(body, request),
    });
  }

  #body(request: ChatRequest): GoogleRequestBody {
    const generationConfig = {
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.maxTokens === undefined ? {} : { maxOutputTokens: request.maxTokens }),
    };
    return {
      ...convertToGoogleMessages(request),
      ...(Object.keys(generationConfig).length > 0 ? { generationConfig } : {}),
    };
  }

  async *#decode(body: AsyncIterable<Uint8Array>, request: ChatRequest): AsyncGenerator<ChatStreamPart> {
    const secrets = [this.#config.apiKey];
    let text = '';
    let finishReason: FinishReason | undefined;
    let usage: GoogleUsageMetadata | undefined;
    for await (const event of decodeSse(body)) {
      const chunk = parseVendorJson<GoogleStreamChunk>(this.provider, event.data, secrets);
      if (chunk.error) {
        const detail = googleErrorDetail(chunk.error);
        throw providerErrorFromStream(this.provider, detail, secrets, isRetryableGoogleStatus(detail.type));
      }
      if (chunk.usageMetadata) usage = chunk.usageMetadata; // cumulative: the last one is the total
      const candidate = chunk.candidates?.[0];
      for (const part of candidate?.content?.parts ?? []) {
        if (part.thought || !part.text) continue; // thought summaries are not the reply
        text += part.text;
        yield { type: 'text-delta', delta: part.text };
      }
      if (candidate?.finishReason) finishReason = mapGoogleFinishReason(candidate.finishReason);
      else if (!candidate && chunk.promptFeedback?.blockReason) finishReason = 'content-filter';
    }
    if (finishReason === undefined) throw truncatedStreamError(this.provider, 'a finishReason');
    // Gemini's own counts; thinking tokens are billed as output, so they count toward ai_tokens.
    // A side Gemini did not report (no candidates at all, say) is ESTIMATED by resolveUsage.
    const candidates = reportedCount(usage?.candidatesTokenCount);
    const thoughts = reportedCount(usage?.thoughtsTokenCount) ?? 0;
    yield {
      type: 'finish',
      finishReason,
      usage: resolveUsage(request, text, {
        input: reportedCount(usage?.promptTokenCount),
        output: candidates === undefined ? (thoughts > 0 ? thoughts : undefined) : candidates + thoughts,
      }),
    };
  }
}
