import type { AIProvider, ModelInfo } from '../chat-model.js';
import { ValidationError } from '../../errors.js';
import type { VendorHttpSettings } from '../../vendor-http/http-settings.js';
import { resolveHttpSettings } from '../../vendor-http/http-settings.js';
import {
  nominalModel,
  normalizeBaseUrl,
  presentKey,
  requireModelId,
  resolveModelList,
} from '../vendor-provider-settings.js';
import { OpenAIChatModel } from '../openai/openai-chat-model.js';

export interface OpenAICompatibleProviderSettings {
  /** The provider id requests name (`ai_provider: "groq"`): lower case letters, digits, `-`, `_`. */
  id: string;
  /** Shown in `/models`; defaults to the id. */
  name?: string;
  description?: string;
  /** Includes the API version path, as for OpenAI: `https://api.groq.com/openai/v1`, `http://127.0.0.1:1234/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when given; local servers (LM Studio, vLLM) need none. */
  apiKey?: string;
  /**
   * Models the server offers. A bare id gets a nominal 8 192-token context window, since the
   * service cannot know a self-hosted model's limit; give a {@link ModelInfo} to state the real one.
   * Requests may still name any model (custom providers are not checked against this list).
   */
  models?: readonly (ModelInfo | string)[];
  /** Defaults to the first listed model; at least one of the two is required. */
  defaultModel?: string;
  /**
   * Ask for usage in the stream (`stream_options.include_usage`, default true). Turn it off for a
   * server that rejects the field; usage is then estimated with the tokenizer-like count.
   */
  includeUsage?: boolean;
  http?: VendorHttpSettings;
}

const idPattern = /^[a-z0-9][a-z0-9_-]{0,39}$/;

/**
 * Registers any server that speaks the OpenAI Chat Completions protocol (Groq, vLLM, LM Studio,
 * Together, llama.cpp) under an id of the operator's choosing (not one another provider of the
 * service has: the registry refuses two providers with one id). It reuses the `openai` adapter and
 * differs only in what such servers expect: `max_tokens` instead of `max_completion_tokens`, and
 * no key required. Servers that ignore `stream_options.include_usage` get estimated usage.
 *
 * @example
 * const groq = createOpenAICompatibleProvider({
 *   id: 'groq', name: 'Groq', baseUrl: 'https://api.groq.com/openai/v1', apiKey, models: ['llama-3.3-70b-versatile'],
 * });
 */
export function createOpenAICompatibleProvider(settings: OpenAICompatibleProviderSettings): AIProvider {
  const id = settings.id?.trim();
  if (!id || !idPattern.test(id)) {
    throw new ValidationError('id', `id must be 1–40 lower-case letters, digits, '-' or '_', got '${settings.id}'`);
  }
  if (settings.baseUrl === undefined) throw new ValidationError('baseUrl', `baseUrl is required for provider '${id}'`);
  const apiKey = presentKey(settings.apiKey);
  const config = Object.freeze({
    provider: id,
    baseUrl: normalizeBaseUrl(settings.baseUrl, settings.baseUrl),
    apiKey,
    http: resolveHttpSettings(settings.http),
    maxTokensField: 'max_tokens' as const,
    includeUsage: settings.includeUsage ?? true,
  });
  const listed = (settings.models ?? []).map((model) => (typeof model === 'string' ? nominalModel(model) : model));
  const { models, defaultModel } = resolveModelList(listed, [], settings.defaultModel);
  return Object.freeze({
    id,
    name: settings.name?.trim() || id,
    description: settings.description ?? `OpenAI-compatible server at ${new URL(config.baseUrl).host}.`,
    kind: 'custom' as const,
    anyModel: true,
    configured: true,
    models,
    defaultModel,
    chatModel(modelId: string = defaultModel) {
      return new OpenAIChatModel(requireModelId(modelId), config);
    },
  });
}
