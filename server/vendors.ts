import type { AIProvider, SpeechProvider } from '../core/index.js';
import {
  createAnthropicProvider,
  createElevenLabsSpeechProvider,
  createGoogleProvider,
  createGoogleSpeechProvider,
  createOllamaProvider,
  createOpenAIProvider,
  createOpenAISpeechProvider,
} from '../core/index.js';

/** What a vendor factory of the core receives from the server: values read from the environment. */
export interface VendorSettings {
  apiKey?: string;
  baseUrl?: string;
  /** What an error tells the operator when the key is missing. */
  setupHint?: string;
}

/**
 * One vendor engine as the server configures it: its environment variables and the core factory
 * that makes it. Adding a vendor is its folder in core plus one row here; the configuration,
 * the provider lists, the defaults and the missing-key messages all follow from the row.
 */
export interface VendorRow<P> {
  id: string;
  /** The variable holding the credential; absent for vendors configured by address alone (Ollama). */
  key?: string;
  /** The variable holding the base URL (for Ollama, the variable that configures it). */
  url: string;
  create(settings: VendorSettings): P;
}

/** AI vendors, in the order `/v1/models` lists them (after `local`). */
export const chatVendors: readonly VendorRow<AIProvider>[] = [
  { id: 'openai', key: 'OPENAI_API_KEY', url: 'OPENAI_BASE_URL', create: createOpenAIProvider },
  { id: 'anthropic', key: 'ANTHROPIC_API_KEY', url: 'ANTHROPIC_BASE_URL', create: createAnthropicProvider },
  { id: 'google', key: 'GOOGLE_API_KEY', url: 'GOOGLE_BASE_URL', create: createGoogleProvider },
  { id: 'ollama', url: 'OLLAMA_URL', create: createOllamaProvider },
];

/** Speech vendors, in the order the default engine is chosen: the first whose key is set. */
export const speechVendors: readonly VendorRow<SpeechProvider>[] = [
  { id: 'google', key: 'GOOGLE_API_KEY', url: 'GOOGLE_TTS_BASE_URL', create: createGoogleSpeechProvider },
  { id: 'elevenlabs', key: 'ELEVENLABS_API_KEY', url: 'ELEVENLABS_BASE_URL', create: createElevenLabsSpeechProvider },
  { id: 'openai', key: 'OPENAI_API_KEY', url: 'OPENAI_BASE_URL', create: createOpenAISpeechProvider },
];

/** Every variable the vendor rows read: credentials, and base URLs (checked as absolute URLs). */
export function vendorVariables(): { keys: string[]; urls: string[] } {
  const rows = [...chatVendors, ...speechVendors];
  return {
    keys: [...new Set(rows.flatMap((row) => (row.key ? [row.key] : [])))],
    urls: [...new Set(rows.map((row) => row.url))],
  };
}

/** A row's engine, made from the configured variables (`vendors` as read by `loadConfig`). */
export function createVendor<P>(row: VendorRow<P>, vendors: Readonly<Record<string, string | undefined>>): P {
  const apiKey = row.key ? vendors[row.key] : undefined;
  const baseUrl = vendors[row.url];
  return row.create({
    ...(apiKey !== undefined && { apiKey }),
    ...(baseUrl !== undefined && { baseUrl }),
    setupHint: `set ${row.key ?? row.url}`,
  });
}

/** Whether a row's engine is configured: its key is set (or, keyless, its URL). */
export function isVendorConfigured(row: VendorRow<unknown>, vendors: Readonly<Record<string, string | undefined>>): boolean {
  return vendors[row.key ?? row.url] !== undefined;
}
