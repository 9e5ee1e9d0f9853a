import { ProviderError } from '../../errors.js';
import type { ModerationCheck, ModerationResult } from '../../safety/moderation.js';
import type { VendorHttpSettings } from '../../vendor-http/http-settings.js';
import { resolveHttpSettings } from '../../vendor-http/http-settings.js';
import { parseVendorJson } from '../../vendor-http/parse-vendor-json.js';
import { requestVendorBytes } from '../../vendor-http/request-vendor-bytes.js';
import { malformedStreamError, missingKeyMessage } from '../../vendor-http/vendor-errors.js';
import { normalizeBaseUrl, presentKey } from '../vendor-provider-settings.js';
import { parseOpenAIError } from './openai-error.js';
import { OPENAI_DEFAULT_BASE_URL } from './openai-provider.js';

export interface OpenAIModerationSettings {
  apiKey?: string;
  /** Includes the API version, as for chat: `https://api.openai.com/v1` by default. */
  baseUrl?: string;
  /** Default `omni-moderation-latest`. */
  model?: string;
  http?: VendorHttpSettings;
}

/** What the adapter reads of `POST /moderations`: the first result's flag and category booleans. */
interface OpenAIModerationResponse {
  results: { flagged: boolean; categories: Record<string, boolean> }[];
}

/**
 * Moderation is on the path to every reply's first word, so it gets a shorter wait for the
 * response than chat (5 s instead of 10 s); a slow vendor then fails fast and the message passes
 * on the word-list checks alone.
 */
const MODERATION_TIMEOUTS = { connectMs: 5_000, idleMs: 5_000 };

/**
 * OpenAI's moderation endpoint (`POST {baseUrl}/moderations`, free of charge) as the service's
 * {@link ModerationCheck}. Like the chat adapter it retries 429 / 5xx / network failures with
 * backoff, redacts the key from every message, and sends no `Authorization` header to a custom
 * base URL without a key (a compatible server or a test double).
 *
 * @example
 * const moderation = createOpenAIModeration({ apiKey: process.env.OPENAI_API_KEY });
 * const { flagged, categories } = await moderation.check('some text');
 */
export function createOpenAIModeration(settings: OpenAIModerationSettings = {}): ModerationCheck {
  const apiKey = presentKey(settings.apiKey);
  const custom = settings.baseUrl !== undefined;
  const baseUrl = normalizeBaseUrl(settings.baseUrl, OPENAI_DEFAULT_BASE_URL);
  const model = settings.model ?? 'omni-moderation-latest';
  const http = resolveHttpSettings(settings.http, MODERATION_TIMEOUTS);
  const provider = 'openai';
  return Object.freeze({
    provider,
    async check(text: string, signal?: AbortSignal): Promise<ModerationResult> {
      if (apiKey === undefined && !custom) throw new ProviderError(provider, missingKeyMessage('set OPENAI_API_KEY'));
      const bytes = await requestVendorBytes({
        provider,
        http,
        request: {
          url: `${baseUrl}/moderations`,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }),
          },
          body: JSON.stringify({ model, input: text }),
        },
        parseError: parseOpenAIError,
        secrets: [apiKey],
        signal,
        requestIdHeader: 'x-request-id',
        maxBytes: 1024 * 1024,
      });
      const response = parseVendorJson<OpenAIModerationResponse>(provider, new TextDecoder().decode(bytes), [apiKey]);
      const result = response.results?.[0];
      if (!result || typeof result.flagged !== 'boolean' || typeof result.categories !== 'object' || result.categories === null) {
        throw malformedStreamError(provider, 'a moderation response without results[0].flagged and categories', [apiKey]);
      }
      const categories = Object.entries(result.categories)
        .filter(([, fired]) => fired === true)
        .map(([name]) => name);
      return { flagged: result.flagged, categories };
    },
  });
}
