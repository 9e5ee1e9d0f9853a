import { access } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { ErrorCode, ServiceError, ValidationError } from '../../errors.js';
import { type SpeechProvider, type SpeechRequest, type SpeechResult, type Voice } from '../speech-provider.js';
import { localVoices, resolveLocalVoice } from './local-voices.js';
import { abortReason, SpeechWorkerPool } from './speech-worker-pool.js';
import { countCharacters } from '../../text-limits.js';
import { rememberVoices } from '../avatar-voices.js';

export interface LocalSpeechSettings {
  /**
   * Worker threads synthesizing in parallel (sentences of different conversations at once);
   * the machine's CPU count (`os.availableParallelism()`) unless told. Each holds a warm
   * espeak-ng: its compiled wasm, one instance and a copy of that instance's initial memory.
   */
  poolSize?: number;
  /**
   * Start every worker and its first espeak-ng instance as soon as `available()` finds the engine
   * (the service asks when a conversation picks its voice) instead of one by one as sentences
   * need them, so no reply waits for a thread, a wasm compile or an instance; false unless told.
   * Idle workers never keep the process alive.
   */
  warm?: boolean;
  /**
   * Where espeak-ng is imported from: a bare specifier resolved from this package, or a URL.
   * `espeak-ng` unless told; tests point it at a missing module to see the "not installed" path.
   */
  engineModule?: string;
  /** Longest text accepted, in code points; 5000 unless told. */
  maxCharacters?: number;
  /** Whether results carry a viseme timeline; true unless told. */
  visemes?: boolean;
}

const notInstalled =
  'The local speech engine needs the optional package espeak-ng (GPL-3.0-or-later) and its MP3 encoder wasm-media-encoders, which are not both installed. ' +
  'Install them (npm install espeak-ng wasm-media-encoders, or install without --omit=optional) or use another speech provider.';

/**
 * The offline `local` speech engine: espeak-ng compiled to wasm, MP3 by LAME (wasm), visemes
 * estimated from espeak-ng's phonemes laid over the loudness of the audio.
 *
 * espeak-ng is GPL and an optional dependency, as is the MP3 encoder (wasm-media-encoders) only
 * this engine uses: nothing of either loads until `available()` or
 * `synthesize()` is first called, and when it is missing `available()` resolves false and
 * `synthesize()` rejects with `ServiceError('unavailable')`. Synthesis runs in worker threads
 * (see {@link SpeechWorkerPool}); every clip is 22050 Hz mono 48 kbps CBR MP3 without tags, so
 * clips concatenate byte-wise.
 *
 * @example
 * const speech = createLocalSpeechProvider({ poolSize: 2, warm: true });
 * const { audio, durationMs, visemes } = await speech.synthesize({ text: 'Hello!', voiceId: 'en-US-Neural2-F' });
 * await speech.close();
 */
export function createLocalSpeechProvider(settings: LocalSpeechSettings = {}): SpeechProvider {
  const config = Object.freeze({
    poolSize: settings.poolSize ?? availableParallelism(),
    warm: settings.warm ?? false,
    engineModule: settings.engineModule ?? 'espeak-ng',
    maxCharacters: settings.maxCharacters ?? 5000,
    visemes: settings.visemes ?? true,
  });
  if (!Number.isInteger(config.poolSize) || config.poolSize < 1) {
    throw new RangeError(`poolSize must be a positive integer, got ${config.poolSize}`);
  }
  const voices: readonly Voice[] = Object.freeze(localVoices());
  let engineUrl: Promise<string | null> | null = null;
  let pool: SpeechWorkerPool | null = null;
  let closed = false;

  /**
   * Resolves and imports espeak-ng once, and checks that the MP3 encoder the workers load is
   * installed too (both are optional dependencies); null when either is missing or not usable.
   */
  function locateEngine(): Promise<string | null> {
    engineUrl ??= (async () => {
      try {
        await import('wasm-media-encoders');
        const url = /^[a-z]+:/.test(config.engineModule) ? config.engineModule : import.meta.resolve(config.engineModule);
        const glue = (await import(url)) as { default?: unknown };
        if (typeof glue.default !== 'function') return null;
        await access(new URL('espeak-ng.wasm', url));
        return url;
      } catch {
        return null;
      }
    })();
    return engineUrl;
  }

  /** The pool, once espeak-ng is located; null when it is not installed or the engine is closed. */
  async function poolOf(): Promise<SpeechWorkerPool | null> {
    const url = await locateEngine();
    if (closed || url === null) return null;
    pool ??= new SpeechWorkerPool({ size: config.poolSize, workerData: { engineModuleUrl: url } });
    return pool;
  }

  const voiceOf = rememberVoices(resolveLocalVoice);
  return {
    id: 'local',
    name: 'Local (espeak-ng, offline)',

    async available() {
      if (closed) return false;
      if (config.warm) {
        const workers = await poolOf();
        void workers?.warm();
        return workers !== null;
      }
      return (await locateEngine()) !== null;
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
        throw new ValidationError('text', `text is ${characters} characters; the local speech engine takes at most ${config.maxCharacters}`);
      }
      const voice = voiceOf(request.voiceId);
      if (request.signal?.aborted) throw abortReason(request.signal);

      const workers = await poolOf();
      if (closed) throw new ServiceError(ErrorCode.unavailable, 'The local speech engine is closed');
      if (workers === null) throw new ServiceError(ErrorCode.unavailable, notInstalled);

      const clip = await workers.run(
        { text: request.text, engineVoice: voice.engineVoice, visemes: config.visemes },
        request.signal,
        request.neededAt,
      );
      return {
        audio: clip.audio,
        contentType: 'audio/mpeg',
        durationMs: clip.durationMs,
        characters,
        engineVoice: voice.engineVoice,
        ...(clip.visemes ? { visemes: clip.visemes } : {}),
      };
    },

    async close() {
      closed = true;
      const current = pool;
      pool = null;
      await current?.close();
    },
  };
}
