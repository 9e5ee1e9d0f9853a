import type { AIProvider, ModelCapability, ModelInfo } from '../chat-model.js';
import { resolveHttpSettings } from '../../vendor-http/http-settings.js';
import type { VendorProviderSettings } from '../vendor-provider-settings.js';
import {
  normalizeBaseUrl,
  presentKey,
  requireModelId,
  resolveModelList,
} from '../vendor-provider-settings.js';
import { OpenAIChatModel } from './openai-chat-model.js';
import { missingKeyMessage } from '../../vendor-http/vendor-errors.js';

/**
 * `baseUrl` includes the API version, like the official SDK and `OPENAI_BASE_URL`
 * (default `https://api.openai.com/v1`; requests go to `…/chat/completions`).
 */
export type OpenAIProviderSettings = VendorProviderSettings;

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

const gptCapabilities: readonly ModelCapability[] = ['chat', 'streaming', 'system-prompt', 'vision', 'tools'];

/** Chat models listed in `/models`, fastest first (the first is the default: voice wants a quick first token). */
export const OPENAI_MODELS: readonly ModelInfo[] = Object.freeze([
  { id: 'gpt-4o-mini', name: 'GPT-4o mini', contextWindow: 128_000, capabilities: gptCapabilities },
  { id: 'gpt-4o', name: 'GPT-4o', contextWindow: 128_000, capabilities: gptCapabilities },
  { id: 'gpt-4.1-nano', name: 'GPT-4.1 nano', contextWindow: 1_047_576, capabilities: gptCapabilities },
  { id: 'gpt-4.1-mini', name: 'GPT-4.1 mini', contextWindow: 1_047_576, capabilities: gptCapabilities },
  { id: 'gpt-4.1', name: 'GPT-4.1', contextWindow: 1_047_576, capabilities: gptCapabilities },
]);

/**
 * Creates the `openai` provider (Chat Completions, streamed). It is configured when a key is
 * given, or when `baseUrl` points elsewhere (a keyless compatible server or a test double: then
 * no `Authorization` header is sent). Settings are validated here, once.
 *
 * @example
 * const openai = createOpenAIProvider({ apiKey: config.openaiApiKey, baseUrl: config.openaiBaseUrl });
 * const { text } = await generateText(openai.chatModel('gpt-4o'), { system, messages });
 */
export function createOpenAIProvider(settings: OpenAIProviderSettings = {}): AIProvider {
  const apiKey = presentKey(settings.apiKey);
  const custom = settings.baseUrl !== undefined;
  const config = Object.freeze({
    provider: 'openai',
    baseUrl: normalizeBaseUrl(settings.baseUrl, OPENAI_DEFAULT_BASE_URL),
    apiKey,
    http: resolveHttpSettings(settings.http),
    maxTokensField: 'max_completion_tokens' as const,
    includeUsage: true,
    ...(custom ? {} : { missingKeyMessage: missingKeyMessage(settings.setupHint) }),
  });
  const { models, defaultModel } = resolveModelList(settings.models, OPENAI_MODELS, settings.defaultModel);
  return Object.freeze({
    id: 'openai',
    name: 'OpenAI',
    description: "OpenAI's GPT models through the Chat Completions API, streamed.",
    kind: 'vendor' as const,
    configured: apiKey !== undefined || custom,
    models,
    defaultModel,
    chatModel(modelId: string = defaultModel) {
      return new OpenAIChatModel(requireModelId(modelId), config);
    },
  });
}
