import type { AIProvider, ChatModel } from './chat-model.js';
import { ValidationError } from '../errors.js';

/**
 * The AI providers known to one service instance, by id. Adding a vendor is one `register` call;
 * nothing else changes.
 */
export class ProviderRegistry {
  readonly #providers = new Map<string, AIProvider>();
  readonly #defaultId: string;

  constructor(providers: readonly AIProvider[], defaultId?: string) {
    for (const provider of providers) this.#providers.set(provider.id, provider);
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

  /** Resolves a provider + optional model to a chat model; the model must be one the provider lists. */
  chatModel(providerId: string, modelId?: string): ChatModel {
    const provider = this.get(providerId);
    if (modelId !== undefined && !provider.models.some((m) => m.id === modelId) && provider.kind !== 'custom') {
      throw new ValidationError(
        'ai_model',
        `ai_model must be one of the models of ${providerId}: ${provider.models.map((m) => m.id).join(', ')}`,
      );
    }
    return provider.chatModel(modelId ?? provider.defaultModel);
  }
}
