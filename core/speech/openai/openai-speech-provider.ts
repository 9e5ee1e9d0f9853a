import { ErrorCode, ServiceError, ValidationError } from '../../errors.js';
import { resolveHttpSettings, type VendorHttpSettings } from '../../vendor-http/http-settings.js';
import { abortError } from '../../vendor-http/read-body.js';
import { requestVendorBytes } from '../../vendor-http/request-vendor-bytes.js';
import { vendorMp3DurationMs } from '../vendor-mp3-duration.js';
import { type SpeechProvider, type SpeechRequest, type SpeechResult, type Voice } from '../speech-provider.js';
import { parseOpenAISpeechError } from './openai-speech-error.js';
import { openAIVoices, resolveOpenAIVoice } from './openai-voices.js';
import { countCharacters } from '../../text-limits.js';
import { missingKeyMessage } from '../../vendor-http/vendor-errors.js';
import { rememberVoices } from '../avatar-voices.js';

export interface OpenAISpeechSettings {
  /** What errors tell an operator to do when the key is missing, e.g. `set OPENAI_API_KEY` (the host knows; the core does not). */
  setupHint?: string;
  /** An OpenAI API key; without it `available()` is false. */
  apiKey?: string | undefined;
  /** Includes the version, as `OPENAI_BASE_URL`: `https://api.openai.com/v1` unless told. */
  baseUrl?: string | undefined;
  http?: VendorHttpSettings;
  /** `gpt-4o-mini-tts` unless told; `tts-1` and `tts-1-hd` speak fewer voices. */
  model?: string;
}

export const openAISpeechDefaultBaseUrl = 'https://api.openai.com/v1';

/** `/v1/audio/speech` rejects longer input. */
const maxInputCharacters = 4096;

/**
 * The `openai` speech engine: `POST {baseUrl}/audio/speech` with `response_format: 'mp3'`, the key
 * as a bearer token. Avatar voices map to built-in voices by gender (see {@link resolveOpenAIVoice};
 * `engineVoice` names the choice). Retryable failures (429 with `Retry-After` / `retry-after-ms`,
 * 5xx, resets, timeouts) are retried per `http`; failures are `ProviderError`s quoting OpenAI's
 * error code and message (with any echoed key redacted) and the request id. No timing comes
 * back, so results carry no visemes.
 *
 * @example
 * const speech = createOpenAISpeechProvider({ apiKey: config.openaiApiKey, model: 'tts-1' });
 * const { audio, engineVoice } = await speech.synthesize({ text: 'Hello!', voiceId: 'en-US-Neural2-D' });
 */
export function createOpenAISpeechProvider(settings: OpenAISpeechSettings = {}): SpeechProvider {
  const config = Object.freeze({
    apiKey: settings.apiKey || undefined,
    baseUrl: (settings.baseUrl || openAISpeechDefaultBaseUrl).replace(/\/+$/, ''),
    http: resolveHttpSettings(settings.http),
    model: settings.model ?? 'gpt-4o-mini-tts',
  });
  const voices: readonly Voice[] = Object.freeze(openAIVoices(config.model));
  const id = 'openai';

  const voiceOf = rememberVoices((voiceId: string) => resolveOpenAIVoice(voiceId, config.model));
  return {
    id,
    name: 'OpenAI text-to-speech',

    async available() {
      return config.apiKey !== undefined;
    },

    voices() {
      return voices;
    },

    engineVoiceFor(voiceId) {
      return voiceOf(voiceId);
    },

    async synthesize(request: SpeechRequest): Promise<SpeechResult> {
      const characters = countCharacters(request.text);
      if (request.text.trim() === '') throw new ValidationError('text', 'text must contain something to say');
      if (characters > maxInputCharacters) {
        throw new ValidationError('text', `text is ${characters} characters; OpenAI speech takes at most ${maxInputCharacters}`);
      }
      const voice = voiceOf(request.voiceId);
      if (request.signal?.aborted) throw abortError();
      if (config.apiKey === undefined) {
        throw new ServiceError(ErrorCode.unavailable, `OpenAI speech is not configured: ${missingKeyMessage(settings.setupHint)}`);
      }

      const audio = await requestVendorBytes({
        provider: id,
        http: config.http,
        signal: request.signal,
        parseError: parseOpenAISpeechError,
        secrets: [config.apiKey],
        requestIdHeader: 'x-request-id',
        request: {
          url: `${config.baseUrl}/audio/speech`,
          headers: { 'content-type': 'application/json', accept: 'audio/mpeg', authorization: `Bearer ${config.apiKey}` },
          body: JSON.stringify({ model: config.model, voice, input: request.text, response_format: 'mp3' }),
        },
      });
      return {
        audio,
        contentType: 'audio/mpeg',
        durationMs: vendorMp3DurationMs(id, audio),
        characters,
        engineVoice: voice,
        provider: id,
      };
    },

    async close() {},
  };
}

