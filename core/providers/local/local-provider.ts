import type { AIProvider, ModelInfo } from '../chat-model.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { isValidTimeZone } from './describe-time.js';
import { LocalChatModel } from './local-chat-model.js';
import type { LocalProviderSettings } from './local-provider-settings.js';

/** The offline engine's one model. Its context window is nominal: it reads the last 200 messages. */
export const LOCAL_MODELS: readonly ModelInfo[] = Object.freeze([
  Object.freeze({
    id: 'local-companion',
    name: 'Local companion (offline, rule-based)',
    contextWindow: 32_768,
    capabilities: Object.freeze(['offline', 'chat', 'streaming', 'system-prompt'] as const),
  }),
]);

/** What `/models` shows for the offline engine; it must never read like an LLM. */
export const LOCAL_PROVIDER_DESCRIPTION =
  "Offline rule-based engine built into the service: it plays the avatar's persona with simple rules, needs no model download or network, and is not an LLM. Configure a vendor such as OpenAI, Anthropic, Google or Ollama for real AI.";

/**
 * Creates the `local` AI provider: always configured, works out of the box, and answers in the
 * avatar's persona without any model download or network. Settings are validated here, once.
 *
 * @example
 * const local = createLocalProvider({ clock: systemClock, timeZone: 'Europe/Paris' });
 * const { text } = await generateText(local.chatModel(), { messages, character });
 */
export function createLocalProvider(settings: LocalProviderSettings = {}): AIProvider {
  const frozen = Object.freeze({ ...settings });
  if (frozen.deltaDelayMs !== undefined && !(Number.isFinite(frozen.deltaDelayMs) && frozen.deltaDelayMs >= 0)) {
    throw new ValidationError('deltaDelayMs', 'deltaDelayMs must be a finite number of milliseconds, 0 or more');
  }
  if (frozen.seed !== undefined && !Number.isFinite(frozen.seed)) {
    throw new ValidationError('seed', 'seed must be a finite number');
  }
  if (frozen.timeZone !== undefined && !isValidTimeZone(frozen.timeZone)) {
    throw new ValidationError('timeZone', `timeZone '${frozen.timeZone}' is not a known IANA time zone`);
  }
  const defaultModel = LOCAL_MODELS[0]!.id;
  return Object.freeze({
    id: 'local',
    name: 'Local (offline)',
    description: LOCAL_PROVIDER_DESCRIPTION,
    kind: 'offline' as const,
    configured: true,
    models: LOCAL_MODELS,
    defaultModel,
    chatModel(modelId: string = defaultModel) {
      if (!LOCAL_MODELS.some((model) => model.id === modelId)) throw new NotFoundError('model', modelId);
      return new LocalChatModel(modelId, frozen);
    },
  });
}
