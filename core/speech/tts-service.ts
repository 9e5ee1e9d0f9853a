import type { IdGenerator } from '../ids.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { Owner } from '../ports/store.js';
import type { UsageService } from '../usage/usage-service.js';
import type { SpeechProvider, Voice } from './speech-provider.js';
import type { SpeechRegistry } from './speech-registry.js';
import { ErrorCode, NotFoundError, ServiceError, ValidationError } from '../errors.js';
import { checkText } from '../text-limits.js';
import { BROWSER_SPEECH } from './speech-registry.js';

/** Characters of one `POST /v1/tts` text; the same cap as a user message. */
export const TTS_TEXT_MAX_CHARS = 5000;

/** The voice used when a request names none: the first preset avatar's. */
export const DEFAULT_TTS_VOICE = 'en-US-Neural2-F';

export interface SynthesizeInput {
  text: string;
  voiceId?: string;
  /** A speech engine id; the service's default engine when omitted. */
  provider?: string;
  /** Only this engine: no fallback chain. */
  exact?: boolean;
  signal?: AbortSignal;
}

export interface Synthesis {
  /** Blob key of the stored MP3 (served under `/v1/audio/`). */
  audioKey: string;
  audio: Uint8Array;
  /** The engine that spoke (differs from the one asked for after a fallback). */
  provider: string;
  voiceId: string;
  engineVoice: string;
  characters: number;
  durationMs: number;
}

export interface CatalogVoice extends Voice {
  /** What this engine speaks the voice with. */
  engineVoice: string;
}

/**
 * Text-to-speech outside conversations (`/v1/tts…`): synthesize with an engine, store the MP3,
 * meter the characters as the caller's `tts_characters`.
 */
export class TtsService {
  readonly #speech: SpeechRegistry;
  readonly #blobs: BlobStore;
  readonly #ids: IdGenerator;
  readonly #usage: UsageService;

  constructor(deps: { speech: SpeechRegistry; blobs: BlobStore; ids: IdGenerator; usage: UsageService }) {
    this.#speech = deps.speech;
    this.#blobs = deps.blobs;
    this.#ids = deps.ids;
    this.#usage = deps.usage;
  }

  /** Every engine's voices with the engine voice each resolves to; `provider` narrows to one engine. */
  voices(provider?: string): CatalogVoice[] {
    const engines = provider === undefined ? this.#speech.list() : [this.#engine(provider, 'provider')];
    return engines.flatMap((engine) => engine.voices().map((voice) => ({ ...voice, engineVoice: engine.engineVoiceFor(voice.id) })));
  }

  async synthesize(owner: Owner, input: SynthesizeInput): Promise<Synthesis> {
    checkText('text', input.text, TTS_TEXT_MAX_CHARS);
    const engine = this.#engine(input.provider ?? this.#defaultEngineId(), 'provider');
    const voiceId = input.voiceId ?? DEFAULT_TTS_VOICE;
    engine.engineVoiceFor(voiceId);
    const speaker = input.exact ? engine : this.#speech.withFallback(engine.id, 'provider')!;
    const result = await speaker.synthesize({ text: input.text, voiceId, ...(input.signal && { signal: input.signal }) });
    const audioKey = `${this.#ids.next('aud')}.mp3`;
    await this.#blobs.put(audioKey, result.audio);
    await this.#usage.record(owner, { ttsCharacters: result.characters });
    return {
      audioKey,
      audio: result.audio,
      provider: result.provider ?? engine.id,
      voiceId,
      engineVoice: result.engineVoice,
      characters: result.characters,
      durationMs: result.durationMs,
    };
  }

  /** A short sample of a voice, introduced in its own locale's language where we have one. */
  async preview(owner: Owner, input: { voiceId: string; provider?: string; signal?: AbortSignal }): Promise<Synthesis> {
    const engine = this.#engine(input.provider ?? this.#defaultEngineId(), 'provider');
    const voice = engine.voices().find((v) => v.id === input.voiceId);
    const language = (voice?.locale ?? input.voiceId).slice(0, 2);
    return this.synthesize(owner, { ...input, provider: engine.id, text: SAMPLES[language] ?? SAMPLES.en! });
  }

  #defaultEngineId(): string {
    const id = this.#speech.defaultId;
    if (id !== BROWSER_SPEECH) return id;
    const first = this.#speech.list()[0];
    if (!first) throw new ServiceError(ErrorCode.unavailable, 'No speech engine is installed on this server');
    return first.id;
  }

  #engine(id: string, field: string): SpeechProvider {
    if (id === BROWSER_SPEECH) {
      throw new ValidationError(field, `${field} 'browser' speaks in the browser; choose one of: ${this.#speech.list().map((p) => p.id).join(', ')}`);
    }
    const engine = this.#speech.resolve(id, field);
    if (!engine) throw new NotFoundError('speech engine', id);
    return engine;
  }
}

const SAMPLES: Readonly<Record<string, string>> = {
  en: 'Hi there! This is how I sound. I hope you like my voice.',
  es: '¡Hola! Así es como sueno. Espero que te guste mi voz.',
  fr: 'Bonjour ! Voici ma voix. J’espère qu’elle vous plaît.',
  de: 'Hallo! So klinge ich. Ich hoffe, meine Stimme gefällt dir.',
  it: 'Ciao! Ecco come suono. Spero che la mia voce ti piaccia.',
  pt: 'Olá! É assim que eu falo. Espero que goste da minha voz.',
  ja: 'こんにちは。これが私の声です。気に入ってもらえると嬉しいです。',
};
