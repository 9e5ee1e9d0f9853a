import { ErrorCode, ProviderError, ServiceError, ValidationError } from '../../errors.js';
import { resolveHttpSettings, type VendorHttpSettings } from '../../vendor-http/http-settings.js';
import { abortError } from '../../vendor-http/read-body.js';
import { requestVendorBytes } from '../../vendor-http/request-vendor-bytes.js';
import { vendorMp3DurationMs } from '../vendor-mp3-duration.js';
import { type SpeechProvider, type SpeechRequest, type SpeechResult, type Voice } from '../speech-provider.js';
import { countCharacters } from '../../text-limits.js';
import { visemesFromAlignment, type CharacterAlignment } from './alignment-visemes.js';
import { parseElevenLabsSpeechError } from './elevenlabs-speech-error.js';
import { elevenLabsVoices, resolveElevenLabsVoice } from './elevenlabs-voices.js';
import { missingKeyMessage } from '../../vendor-http/vendor-errors.js';
import { rememberVoices } from '../avatar-voices.js';

export interface ElevenLabsSpeechSettings {
  /** What errors tell an operator to do when the key is missing, e.g. `set OPENAI_API_KEY` (the host knows; the core does not). */
  setupHint?: string;
  /** An ElevenLabs API key; without it `available()` is false. */
  apiKey?: string | undefined;
  /** The host, as `ELEVENLABS_BASE_URL`: `https://api.elevenlabs.io` unless told. */
  baseUrl?: string | undefined;
  /**
   * Timeouts, retries and the injected fetch / clock. `/with-timestamps` answers only when the whole
   * clip is synthesized, so with timestamps on the connect timeout defaults to 30 s here.
   */
  http?: VendorHttpSettings;
  /** `eleven_multilingual_v2` unless told (speaks every avatar locale). */
  modelId?: string;
  /** An MP3 `output_format`; `mp3_44100_128` unless told (available on every plan). */
  outputFormat?: `mp3_${number}_${number}`;
  /**
   * Whether to ask for character timestamps (`/with-timestamps`, JSON with base64 audio) so the
   * result carries visemes; true unless told. False uses `/stream`, raw MP3 bytes that start
   * arriving while ElevenLabs is still generating.
   */
  timestamps?: boolean;
  /** Longest text accepted, in code points; 10000 unless told (the multilingual v2 limit). */
  maxCharacters?: number;
}

export const elevenLabsSpeechDefaultBaseUrl = 'https://api.elevenlabs.io';

/** The structural subset of the `/with-timestamps` response this adapter reads. */
interface TimestampedAudio {
  audio_base64?: unknown;
  alignment?: CharacterAlignment | null;
  /** Timing of the text as spoken (numbers spelled out, …): the better guide for the mouth. */
  normalized_alignment?: CharacterAlignment | null;
}

/**
 * The `elevenlabs` speech engine: `POST /v1/text-to-speech/{voice_id}/with-timestamps` (or
 * `/stream`), MP3 output, the key in `xi-api-key`. Avatar voices map to premade voices by gender
 * and accent (see {@link resolveElevenLabsVoice}; `engineVoice` names the choice). With timestamps
 * on, ElevenLabs' per-character timing becomes the viseme timeline. Retryable failures (429 with
 * `Retry-After`, 5xx, resets, timeouts) are retried per `http`; failures are `ProviderError`s
 * quoting ElevenLabs' `detail.status` and `detail.message`, never the key.
 *
 * @example
 * const speech = createElevenLabsSpeechProvider({ apiKey: config.elevenLabsApiKey });
 * const { audio, visemes, engineVoice } = await speech.synthesize({ text: 'Hi!', voiceId: 'en-GB-Neural2-B' });
 */
export function createElevenLabsSpeechProvider(settings: ElevenLabsSpeechSettings = {}): SpeechProvider {
  const timestamps = settings.timestamps ?? true;
  const config = Object.freeze({
    apiKey: settings.apiKey || undefined,
    baseUrl: (settings.baseUrl || elevenLabsSpeechDefaultBaseUrl).replace(/\/+$/, ''),
    http: resolveHttpSettings(
      timestamps ? { ...settings.http, timeouts: { connectMs: 30_000, ...settings.http?.timeouts } } : settings.http,
    ),
    modelId: settings.modelId ?? 'eleven_multilingual_v2',
    outputFormat: settings.outputFormat ?? 'mp3_44100_128',
    timestamps,
    maxCharacters: settings.maxCharacters ?? 10_000,
  });
  if (!/^mp3_\d+_\d+$/.test(config.outputFormat)) {
    throw new RangeError(`outputFormat must be an MP3 format such as mp3_44100_128, got ${config.outputFormat}`);
  }
  const voices: readonly Voice[] = Object.freeze(elevenLabsVoices());
  const id = 'elevenlabs';

  const voiceOf = rememberVoices(resolveElevenLabsVoice);
  return {
    id,
    name: 'ElevenLabs',

    async available() {
      return config.apiKey !== undefined;
    },

    voices() {
      return voices;
    },

    engineVoiceFor(voiceId) {
      return voiceOf(voiceId).engineVoice;
    },

    async synthesize(request: SpeechRequest): Promise<SpeechResult> {
      const characters = countCharacters(request.text);
      if (request.text.trim() === '') throw new ValidationError('text', 'text must contain something to say');
      if (characters > config.maxCharacters) {
        throw new ValidationError('text', `text is ${characters} characters; ElevenLabs takes at most ${config.maxCharacters}`);
      }
      const voice = voiceOf(request.voiceId);
      if (request.signal?.aborted) throw abortError();
      if (config.apiKey === undefined) {
        throw new ServiceError(ErrorCode.unavailable, `ElevenLabs speech is not configured: ${missingKeyMessage(settings.setupHint)}`);
      }

      const endpoint = config.timestamps ? 'with-timestamps' : 'stream';
      const body = await requestVendorBytes({
        provider: id,
        http: config.http,
        signal: request.signal,
        parseError: parseElevenLabsSpeechError,
        secrets: [config.apiKey],
        requestIdHeader: 'request-id',
        request: {
          url: `${config.baseUrl}/v1/text-to-speech/${encodeURIComponent(voice.voiceId)}/${endpoint}?output_format=${config.outputFormat}`,
          headers: {
            'content-type': 'application/json',
            accept: config.timestamps ? 'application/json' : 'audio/mpeg',
            'xi-api-key': config.apiKey,
          },
          body: JSON.stringify({ text: request.text, model_id: config.modelId }),
        },
      });

      const timed = config.timestamps ? decodeTimestamped(body) : undefined;
      const audio = timed?.audio ?? body;
      const durationMs = vendorMp3DurationMs(id, audio);
      const alignment = timed?.alignment;
      const visemes = alignment ? visemesFromAlignment(alignment, durationMs) : undefined;
      return {
        audio,
        contentType: 'audio/mpeg',
        durationMs,
        characters,
        engineVoice: voice.engineVoice,
        provider: id,
        ...(visemes && visemes.length > 0 ? { visemes } : {}),
      };
    },

    async close() {},
  };
}

function decodeTimestamped(body: Uint8Array): { audio: Uint8Array; alignment: CharacterAlignment | undefined } {
  let parsed: TimestampedAudio | null = null;
  try {
    parsed = JSON.parse(new TextDecoder().decode(body)) as TimestampedAudio | null;
  } catch {
    // reported below
  }
  const base64 = parsed?.audio_base64;
  if (typeof base64 !== 'string' || base64.length === 0) {
    throw new ProviderError('elevenlabs', 'malformed response: expected JSON with a base64 audio_base64', { isRetryable: false });
  }
  const alignment = parsed?.normalized_alignment ?? parsed?.alignment ?? undefined;
  return { audio: new Uint8Array(Buffer.from(base64, 'base64')), alignment: alignment ?? undefined };
}

