import type { AIProvider, ModelCapability, ModelInfo } from '../chat-model.js';
import { resolveHttpSettings } from '../../vendor-http/http-settings.js';
import type { VendorProviderSettings } from '../vendor-provider-settings.js';
import {
  normalizeBaseUrl,
  presentKey,
  requireModelId,
  resolveModelList,
} from '../vendor-provider-settings.js';
import { GoogleChatModel } from './google-chat-model.js';

/**
 * `baseUrl` is the host, like `GOOGLE_BASE_URL` (default `https://generativelanguage.googleapis.com`;
 * requests to `/v1beta/models/<model>:streamGenerateContent?alt=sse`).
 */
export type GoogleProviderSettings = VendorProviderSettings;

export const GOOGLE_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

/**
 * Gemini 2.5 models think before the first streamed chunk (and send no keep-alive meanwhile), so
 * the first bytes can take longer than with other vendors: both timeouts are more generous.
 */
export const GOOGLE_DEFAULT_TIMEOUTS = Object.freeze({ connectMs: 30_000, idleMs: 60_000 });

const geminiCapabilities: readonly ModelCapability[] = ['chat', 'streaming', 'system-prompt', 'vision', 'tools'];

/** Gemini models listed in `/models` (1 048 576-token input windows); the first is the default. */
export const GOOGLE_MODELS: readonly ModelInfo[] = Object.freeze([
  { id: 'gemini-2.5-flash', name: 'Gemini 2.5 Flash', contextWindow: 1_048_576, capabilities: geminiCapabilities },
  { id: 'gemini-2.5-flash-lite', name: 'Gemini 2.5 Flash-Lite', contextWindow: 1_048_576, capabilities: geminiCapabilities },
  { id: 'gemini-2.5-pro', name: 'Gemini 2.5 Pro', contextWindow: 1_048_576, capabilities: geminiCapabilities },
  { id: 'gemini-2.0-flash', name: 'Gemini 2.0 Flash', contextWindow: 1_048_576, capabilities: geminiCapabilities },
]);

/**
 * Creates the `google` provider (Gemini API, streamed over SSE); configured when a key is given.
 *
 * @example
 * const google = createGoogleProvider({ apiKey: config.googleApiKey });
 * const model = google.chatModel('gemini-2.5-pro');
 */
export function createGoogleProvider(settings: GoogleProviderSettings = {}): AIProvider {
  const apiKey = presentKey(settings.apiKey);
  const config = Object.freeze({
    baseUrl: normalizeBaseUrl(settings.baseUrl, GOOGLE_DEFAULT_BASE_URL),
    apiKey,
    http: resolveHttpSettings(settings.http, GOOGLE_DEFAULT_TIMEOUTS),
    ...(settings.setupHint !== undefined && { setupHint: settings.setupHint }),
  });
  const { models, defaultModel } = resolveModelList(settings.models, GOOGLE_MODELS, settings.defaultModel);
  return Object.freeze({
    id: 'google',
    name: 'Google Gemini',
    description: "Google's Gemini models through the Gemini API, streamed.",
    kind: 'vendor' as const,
    configured: apiKey !== undefined,
    models,
    defaultModel,
    chatModel(modelId: string = defaultModel) {
      return new GoogleChatModel(requireModelId(modelId), config);
    },
  });
}
