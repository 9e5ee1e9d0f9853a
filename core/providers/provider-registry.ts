import type { AIProvider, ChatModel } from './chat-model.js';
import { ValidationError } from '../errors.js';
import { FallbackChatModel } from './fallback-chat-model.js';
import type { FallbackEvent } from './fallback-chat-model.js';

/**
 * The AI providers known to one service instance, by id: those given to `createAvatarService`
 * (`aiProviders`), with the default and the fallback chain checked against them at construction.
 * Adding a vendor: docs/extending.md.
 */
export class ProviderRegistry {
  readonly #providers = new Map<string, AIProvider>();
  readonly #defaultId: string;
  readonly #fallback: readonly string[];
  readonly #onFallback: ((event: FallbackEvent) => void) | undefined;

  /**
   * `fallback` lists provider ids tried, in order, with their default models, when the chosen
   * provider fails before answering (e.g. `['openai', 'local']`); empty means no fallback.
   */
  constructor(providers: readonly AIProvider[], defaultId?: string, fallback: readonly string[] = [], onFallback?: (event: FallbackEvent) => void) {
    this.#onFallback = onFallback;
    for (const provider of providers) {
      // A custom server named like a built-in provider would silently replace it.
      if (this.#providers.has(provider.id)) throw new Error(`two AI providers share the id '${provider.id}'`);
      this.#providers.set(provider.id, provider);
    }
    for (const id of fallback) {
      if (!this.#providers.has(id)) throw new Error(`AI fallback provider '${id}' is not registered`);
    }
    this.#fallback = Object.freeze([...fallback]);
    const firstVendor = providers.find((p) => p.kind !== 'offline' && p.configured);
    const chosen = defaultId ?? firstVendor?.id ?? providers[0]?.id;
    if (!chosen || !this.#providers.has(chosen)) {
      throw new Error(`default AI provider '${chosen}' is not registered`);
    }
    this.#defaultId = chosen;
  }

  get defaultId(): string {
    return this.#defaultId;
  }

  list(): AIProvider[] {
    return [...this.#providers.values()];
  }

  ids(): string[] {
    return [...this.#providers.keys()];
  }

  /** The provider, or a validation error naming the allowed values. */
  get(id: string, field = 'ai_provider'): AIProvider {
    const provider = this.#providers.get(id);
    if (!provider) throw new ValidationError(field, `${field} must be one of: ${this.ids().join(', ')}`);
    return provider;
  }

  /** The provider, or a validation error when it is unknown or lacks its credentials / URL here. */
  requireConfigured(id: string, field = 'ai_provider'): AIProvider {
    const provider = this.get(id, field);
    if (!provider.configured) {
      const configured = this.list().filter((p) => p.configured).map((p) => p.id);
      throw new ValidationError(
        field,
        `${field} '${id}' is not configured on this server (its API key or URL is not set); configured: ${configured.join(', ')}`,
      );
    }
    return provider;
  }

  /**
   * Resolves a provider + optional model to a chat model. The model must be one the provider
   * lists, unless the provider takes any model name (`anyModel`).
   */
  chatModel(providerId: string, modelId?: string, field = 'ai_model'): ChatModel {
    const provider = this.get(providerId);
    if (modelId !== undefined && !provider.anyModel && !provider.models.some((m) => m.id === modelId)) {
      throw new ValidationError(
        field,
        `${field} must be one of the models of ${providerId}: ${provider.models.map((m) => m.id).join(', ')}`,
      );
    }
    return provider.chatModel(modelId ?? provider.defaultModel);
  }

  /** {@link chatModel} followed by the configured fallback providers (configured ones, not repeating it). */
  chatModelWithFallback(providerId: string, modelId?: string, field = 'ai_model'): ChatModel {
    const chosen = this.chatModel(providerId, modelId, field);
    const rest = this.#fallback
      .filter((id) => id !== providerId)
      .map((id) => this.#providers.get(id)!)
      .filter((p) => p.configured)
      .map((p) => p.chatModel(p.defaultModel));
    return rest.length === 0 ? chosen : new FallbackChatModel({ models: [chosen, ...rest], ...(this.#onFallback && { onFallback: this.#onFallback }) });
  }

  get fallback(): readonly string[] {
    return this.#fallback;
  }
}
