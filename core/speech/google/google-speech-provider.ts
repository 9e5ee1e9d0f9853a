import { ErrorCode, ProviderError, ServiceError, ValidationError } from '../../errors.js';
import { resolveHttpSettings, type VendorHttpSettings } from '../../vendor-http/http-settings.js';
import { abortError } from '../../vendor-http/read-body.js';
import { requestVendorBytes } from '../../vendor-http/request-vendor-bytes.js';
import { vendorMp3DurationMs } from '../vendor-mp3-duration.js';
import { type SpeechProvider, type SpeechRequest, type SpeechResult, type Voice } from '../speech-provider.js';
import { parseGoogleSpeechError } from './google-speech-error.js';
import { googleVoices, resolveGoogleVoice } from './google-voices.js';
import { countCharacters } from '../../text-limits.js';
import { missingKeyMessage } from '../../vendor-http/vendor-errors.js';
import { rememberVoices } from '../avatar-voices.js';

export interface GoogleSpeechSettings {
  /** What errors tell an operator to do when the key is missing, e.g. `set OPENAI_API_KEY` (the host knows; the core does not). */
  setupHint?: string;
  /** A Google Cloud API key with the Text-to-Speech API enabled; without it `available()` is false. */
  apiKey?: string | undefined;
  /** The host, as `GOOGLE_TTS_BASE_URL`: `https://texttospeech.googleapis.com` unless told. */
  baseUrl?: string | undefined;
  /**
   * Timeouts, retries and the injected fetch / clock. Google answers only when the whole clip is
   * synthesized, so the connect timeout (time to response headers) defaults to 30 s here.
   */
  http?: VendorHttpSettings;
}

export const googleSpeechDefaultBaseUrl = 'https://texttospeech.googleapis.com';

/** Google rejects input over 5000 bytes (UTF-8), not characters. */
const maxInputBytes = 5000;

/** The structural subset of `SynthesizeSpeechResponse` this adapter reads. */
interface GoogleSynthesizeResponse {
  audioContent?: unknown;
}

/**
 * The `google` speech engine: Cloud Text-to-Speech `POST /v1/text:synthesize` with MP3 output.
 * Avatar voices are Google's own Neural2 voices, so they are used as they are; the key travels in
 * the `x-goog-api-key` header (never in the URL, where proxies would log it). Retryable failures
 * (429 with `Retry-After` or `RetryInfo`, 5xx, resets, timeouts) are retried per `http`; every
 * failure is a `ProviderError` whose message quotes Google's status and message, never the key.
 * Google returns no timing, so results carry no visemes.
 *
 * @example
 * const speech = createGoogleSpeechProvider({ apiKey: config.googleApiKey });
 * const { audio, durationMs } = await speech.synthesize({ text: 'Hello!', voiceId: 'en-US-Neural2-F' });
 */
export function createGoogleSpeechProvider(settings: GoogleSpeechSettings = {}): SpeechProvider {
  const config = Object.freeze({
    apiKey: settings.apiKey || undefined,
    baseUrl: (settings.baseUrl || googleSpeechDefaultBaseUrl).replace(/\/+$/, ''),
    http: resolveHttpSettings({ ...settings.http, timeouts: { connectMs: 30_000, ...settings.http?.timeouts } }),
  });
  const voices: readonly Voice[] = Object.freeze(googleVoices());
  const id = 'google';

  const voiceOf = rememberVoices(resolveGoogleVoice);
  return {
    id,
    name: 'Google Cloud Text-to-Speech',

    async available() {
      return config.apiKey !== undefined;
    },

    voices() {
      return voices;
    },

    engineVoiceFor(voiceId) {
      return voiceOf(voiceId).name;
    },

    async synthesize(request: SpeechRequest): Promise<SpeechResult> {
      if (request.text.trim() === '') throw new ValidationError('text', 'text must contain something to say');
      const bytes = new TextEncoder().encode(request.text).length;
      if (bytes > maxInputBytes) {
        throw new ValidationError('text', `text is ${bytes} bytes in UTF-8; Google Text-to-Speech takes at most ${maxInputBytes}`);
      }
      const voice = voiceOf(request.voiceId);
      if (request.signal?.aborted) throw abortError();
      if (config.apiKey === undefined) {
        throw new ServiceError(ErrorCode.unavailable, `Google speech is not configured: ${missingKeyMessage(settings.setupHint)}`);
      }

      const body = await requestVendorBytes({
        provider: id,
        http: config.http,
        signal: request.signal,
        parseError: parseGoogleSpeechError,
        secrets: [config.apiKey],
        request: {
          url: `${config.baseUrl}/v1/text:synthesize`,
          headers: { 'content-type': 'application/json', 'x-goog-api-key': config.apiKey },
          body: JSON.stringify({
            input: { text: request.text },
            voice: { languageCode: voice.languageCode, name: voice.name },
            audioConfig: { audioEncoding: 'MP3' },
          }),
        },
      });
      const audio = decodeAudioContent(body);
      return {
        audio,
        contentType: 'audio/mpeg',
        durationMs: vendorMp3DurationMs(id, audio),
        characters: countCharacters(request.text),
        engineVoice: voice.name,
        provider: id,
      };
    },

    async close() {},
  };
}

function decodeAudioContent(body: Uint8Array): Uint8Array {
  let parsed: GoogleSynthesizeResponse | null = null;
  try {
    parsed = JSON.parse(new TextDecoder().decode(body)) as GoogleSynthesizeResponse | null;
  } catch {
    // reported below
  }
  const content = parsed?.audioContent;
  if (typeof content !== 'string' || content.length === 0) {
    throw new ProviderError('google', 'malformed response: expected JSON with a base64 audioContent', { isRetryable: false });
  }
  return new Uint8Array(Buffer.from(content, 'base64'));
}

