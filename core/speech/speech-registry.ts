import type { SpeechProvider } from './speech-provider.js';
import { ValidationError } from '../errors.js';
import { createFallbackSpeechProvider } from './fallback-speech-provider.js';
import type { FallbackSpeechSettings } from './fallback-speech-provider.js';

/**
 * `browser` is a speech choice, not an engine: the client speaks with the Web Speech API and the
 * server sends text only.
 */
export const BROWSER_SPEECH = 'browser';

/** The speech engines known to one service instance, by id, plus the `browser` choice. */
export class SpeechRegistry {
  readonly #providers = new Map<string, SpeechProvider>();
  readonly #defaultId: string;
  readonly #fallback: readonly string[];
  readonly #onFallback: FallbackSpeechSettings['onFallback'];

  /**
   * `fallback` lists engine ids tried, in order, when the requested engine fails (e.g.
   * `['openai', 'local']`); empty means no fallback.
   */
  constructor(
    providers: readonly SpeechProvider[],
    defaultId?: string,
    fallback: readonly string[] = [],
    onFallback?: FallbackSpeechSettings['onFallback'],
  ) {
    this.#onFallback = onFallback;
    for (const provider of providers) {
      if (this.#providers.has(provider.id)) throw new Error(`two speech engines share the id '${provider.id}'`);
      this.#providers.set(provider.id, provider);
    }
    for (const id of fallback) {
      if (!this.#providers.has(id)) throw new Error(`speech fallback engine '${id}' is not registered`);
    }
    this.#fallback = Object.freeze([...fallback]);
    const chosen = defaultId ?? providers[0]?.id ?? BROWSER_SPEECH;
    if (chosen !== BROWSER_SPEECH && !this.#providers.has(chosen)) {
      throw new Error(`default speech provider '${chosen}' is not registered`);
    }
    this.#defaultId = chosen;
  }

  get defaultId(): string {
    return this.#defaultId;
  }

  list(): SpeechProvider[] {
    return [...this.#providers.values()];
  }

  /** Every accepted `tts_provider` value. */
  ids(): string[] {
    return [...this.#providers.keys(), BROWSER_SPEECH];
  }

  /** Validates a `tts_provider` value; returns the engine, or undefined for `browser`. */
  resolve(id: string, field = 'tts_provider'): SpeechProvider | undefined {
    if (id === BROWSER_SPEECH) return undefined;
    const provider = this.#providers.get(id);
    if (!provider) throw new ValidationError(field, `${field} must be one of: ${this.ids().join(', ')}`);
    return provider;
  }

  /**
   * Validates a `tts_provider` a client chose and checks its engine can speak now (its key is set,
   * its engine installed); returns the engine, or undefined for `browser`.
   */
  async requireAvailable(id: string, field = 'tts_provider'): Promise<SpeechProvider | undefined> {
    const engine = this.resolve(id, field);
    if (!engine || (await engine.available().catch(() => false))) return engine;
    const answers = await Promise.all(this.list().map(async (p) => ((await p.available().catch(() => false)) ? p.id : undefined)));
    const usable = [...answers.filter((p) => p !== undefined), BROWSER_SPEECH];
    throw new ValidationError(field, `${field} '${id}' is not available on this server (its API key is not set, or its engine is not installed); available: ${usable.join(', ')}`);
  }

  /**
   * The engine for `id` followed by the fallback chain (without repeating it), or undefined for
   * `browser`. Validates `id` like {@link resolve}.
   */
  withFallback(id: string, field = 'tts_provider'): SpeechProvider | undefined {
    const engine = this.resolve(id, field);
    if (!engine) return undefined;
    const rest = this.#fallback.filter((other) => other !== id).map((other) => this.#providers.get(other)!);
    return rest.length === 0 ? engine : createFallbackSpeechProvider({ providers: [engine, ...rest], ...(this.#onFallback && { onFallback: this.#onFallback }) });
  }

  get fallback(): readonly string[] {
    return this.#fallback;
  }

  async close(): Promise<void> {
    await Promise.all(this.list().map((p) => p.close()));
  }
}
