import type { ModelInfo } from './chat-model.js';
import { ValidationError } from '../errors.js';
import type { VendorHttpSettings } from '../vendor-http/http-settings.js';

/**
 * The settings object every vendor factory takes (`createOpenAIProvider(settings)` and its
 * siblings). The host reads its own configuration once and passes plain values here.
 */
export interface VendorProviderSettings {
  /** The vendor credential. An empty string counts as absent. */
  apiKey?: string;
  /** Overrides the vendor's default base URL (each factory documents its convention). */
  baseUrl?: string;
  http?: VendorHttpSettings;
  /** Replaces the built-in model list shown in `/models` (ids, context windows, capabilities). */
  models?: readonly ModelInfo[];
  /** The model used when a request names none; defaults to the factory's choice. */
  defaultModel?: string;
  /** What errors tell an operator to do when the key is missing, e.g. `set OPENAI_API_KEY` (the host knows; the core does not). */
  setupHint?: string;
}

/** `undefined` for a missing or blank key, so `OPENAI_API_KEY=` in an env file means "not set". */
export function presentKey(apiKey: string | undefined): string | undefined {
  const trimmed = apiKey?.trim();
  return trimmed ? trimmed : undefined;
}

/** An http(s) URL without trailing slashes, or a validation error naming `field`. */
export function normalizeBaseUrl(value: string | undefined, fallback: string, field = 'baseUrl'): string {
  const raw = (value ?? fallback).trim();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ValidationError(field, `${field} must be an absolute http(s) URL, got '${raw}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ValidationError(field, `${field} must use http or https, got '${url.protocol}'`);
  }
  if (url.search || url.hash) throw new ValidationError(field, `${field} must not carry a query or fragment`);
  return raw.replace(/\/+$/, '');
}

/**
 * A context window for a model the service knows nothing about (a self-hosted model named only by
 * id): small enough that history trimming stays safe on any real model.
 */
export const NOMINAL_CONTEXT_WINDOW = 8_192;

/** What a model named only by id is listed as in `/models`. */
export function nominalModel(id: string): ModelInfo {
  return { id, name: id, contextWindow: NOMINAL_CONTEXT_WINDOW, capabilities: ['chat', 'streaming', 'system-prompt'] };
}

/**
 * The model list (given or built-in, frozen) and a non-empty default model. A default that is not
 * listed is added with {@link nominalModel}, so `/models` always shows the model requests get.
 */
export function resolveModelList(
  models: readonly ModelInfo[] | undefined,
  builtIn: readonly ModelInfo[],
  defaultModel: string | undefined,
): { models: readonly ModelInfo[]; defaultModel: string } {
  const list = [...(models ?? builtIn)];
  for (const model of list) {
    if (!model.id?.trim()) throw new ValidationError('models', 'every model needs a non-empty id');
    if (!(Number.isInteger(model.contextWindow) && model.contextWindow > 0)) {
      throw new ValidationError('models', `model '${model.id}' needs a positive integer contextWindow`);
    }
  }
  const chosen = defaultModel?.trim() || list[0]?.id;
  if (!chosen) throw new ValidationError('defaultModel', 'give a defaultModel or at least one model');
  if (!list.some((model) => model.id === chosen)) list.push(nominalModel(chosen));
  const frozen = Object.freeze(list.map((m) => Object.freeze({ ...m, capabilities: Object.freeze([...m.capabilities]) })));
  return { models: frozen, defaultModel: chosen };
}

/** A model id from a request: any non-empty id is passed to the vendor, which knows its own catalogue. */
export function requireModelId(modelId: string): string {
  if (typeof modelId !== 'string' || !modelId.trim()) throw new ValidationError('ai_model', 'ai_model must be a non-empty string');
  return modelId.trim();
}
