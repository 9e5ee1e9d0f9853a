import type { AIProvider, ModelCapability, ModelInfo } from '../chat-model.js';
import { resolveHttpSettings } from '../../vendor-http/http-settings.js';
import type { VendorProviderSettings } from '../vendor-provider-settings.js';
import {
  normalizeBaseUrl,
  presentKey,
  requireModelId,
  resolveModelList,
} from '../vendor-provider-settings.js';
import { OllamaChatModel } from './ollama-chat-model.js';

/**
 * `baseUrl` is the host, like `OLLAMA_URL` (default `http://127.0.0.1:11434`; requests to
 * `/api/chat`). Giving it is what marks the provider configured. `apiKey` is optional: sent as a
 * bearer token for an Ollama behind an authenticating proxy. List the models you pulled in
 * `models`, since the built-in list only names common ones.
 */
export type OllamaProviderSettings = VendorProviderSettings;

export const OLLAMA_DEFAULT_BASE_URL = 'http://127.0.0.1:11434';

/**
 * Ollama answers with headers only once the model is loaded, and loading a model from disk after
 * it was unloaded (five idle minutes by default) takes tens of seconds: the connect timeout allows
 * for that. Once generating, tokens flow steadily, so the idle timeout stays the default.
 */
export const OLLAMA_DEFAULT_TIMEOUTS = Object.freeze({ connectMs: 120_000 });

const base: readonly ModelCapability[] = ['chat', 'streaming', 'system-prompt'];
const withTools: readonly ModelCapability[] = [...base, 'tools'];

/**
 * Common models of the Ollama library with the context length each was trained for. Ollama
 * itself loads them with a smaller `num_ctx` unless the server is configured otherwise.
 */
export const OLLAMA_MODELS: readonly ModelInfo[] = Object.freeze([
  { id: 'llama3.2', name: 'Llama 3.2 3B', contextWindow: 131_072, capabilities: withTools },
  { id: 'llama3.1', name: 'Llama 3.1 8B', contextWindow: 131_072, capabilities: withTools },
  { id: 'qwen2.5', name: 'Qwen 2.5 7B', contextWindow: 32_768, capabilities: withTools },
  { id: 'mistral', name: 'Mistral 7B', contextWindow: 32_768, capabilities: withTools },
  { id: 'gemma3', name: 'Gemma 3 4B', contextWindow: 131_072, capabilities: [...base, 'vision'] },
]);

/**
 * Creates the `ollama` provider (`/api/chat`, NDJSON stream). Configured when `baseUrl` is given
 * (`OLLAMA_URL`); an unconfigured one still tries the default local address when called.
 *
 * @example
 * const ollama = createOllamaProvider({ baseUrl: 'http://gpu-box:11434', defaultModel: 'qwen2.5' });
 */
export function createOllamaProvider(settings: OllamaProviderSettings = {}): AIProvider {
  const config = Object.freeze({
    baseUrl: normalizeBaseUrl(settings.baseUrl, OLLAMA_DEFAULT_BASE_URL),
    apiKey: presentKey(settings.apiKey),
    http: resolveHttpSettings(settings.http, OLLAMA_DEFAULT_TIMEOUTS),
  });
  const { models, defaultModel } = resolveModelList(settings.models, OLLAMA_MODELS, settings.defaultModel);
  return Object.freeze({
    id: 'ollama',
    name: 'Ollama',
    description: 'Open-weight models (Llama, Qwen, Mistral, Gemma…) served by your own Ollama server.',
    kind: 'vendor' as const,
    anyModel: true,
    configured: settings.baseUrl !== undefined,
    models,
    defaultModel,
    chatModel(modelId: string = defaultModel) {
      return new OllamaChatModel(requireModelId(modelId), config);
    },
  });
}
