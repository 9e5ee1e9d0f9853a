import type { AIProvider, ModelCapability, ModelInfo } from '../chat-model.js';
import { resolveHttpSettings } from '../../vendor-http/http-settings.js';
import type { VendorProviderSettings } from '../vendor-provider-settings.js';
import {
  normalizeBaseUrl,
  presentKey,
  requireModelId,
  resolveModelList,
} from '../vendor-provider-settings.js';
import { AnthropicChatModel } from './anthropic-chat-model.js';

/** `baseUrl` is the host, like `ANTHROPIC_BASE_URL` (default `https://api.anthropic.com`; requests to `/v1/messages`). */
export type AnthropicProviderSettings = VendorProviderSettings;

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

const claudeCapabilities: readonly ModelCapability[] = ['chat', 'streaming', 'system-prompt', 'vision', 'tools'];

/** Claude models listed in `/models`; the first, the fastest, is the default for spoken replies. */
export const ANTHROPIC_MODELS: readonly ModelInfo[] = Object.freeze([
  { id: 'claude-haiku-4-5', name: 'Claude Haiku 4.5', contextWindow: 200_000, capabilities: claudeCapabilities },
  { id: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5', contextWindow: 200_000, capabilities: claudeCapabilities },
  { id: 'claude-opus-4-1', name: 'Claude Opus 4.1', contextWindow: 200_000, capabilities: claudeCapabilities },
]);

/**
 * Creates the `anthropic` provider (Messages API, streamed); configured when a key is given.
 *
 * @example
 * const anthropic = createAnthropicProvider({ apiKey: config.anthropicApiKey });
 * const model = anthropic.chatModel('claude-sonnet-4-5');
 */
export function createAnthropicProvider(settings: AnthropicProviderSettings = {}): AIProvider {
  const apiKey = presentKey(settings.apiKey);
  const config = Object.freeze({
    baseUrl: normalizeBaseUrl(settings.baseUrl, ANTHROPIC_DEFAULT_BASE_URL),
    apiKey,
    http: resolveHttpSettings(settings.http),
    ...(settings.setupHint !== undefined && { setupHint: settings.setupHint }),
  });
  const { models, defaultModel } = resolveModelList(settings.models, ANTHROPIC_MODELS, settings.defaultModel);
  return Object.freeze({
    id: 'anthropic',
    name: 'Anthropic',
    description: "Anthropic's Claude models through the Messages API, streamed.",
    kind: 'vendor' as const,
    configured: apiKey !== undefined,
    models,
    defaultModel,
    chatModel(modelId: string = defaultModel) {
      return new AnthropicChatModel(requireModelId(modelId), config);
    },
  });
}
