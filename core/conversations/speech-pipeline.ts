import type { BlobStore } from '../ports/blob-store.js';
import type { SpeechProvider, VisemeCue } from '../speech/speech-provider.js';
import { asStorageError, isAbortError } from '../errors.js';
import { concatMp3 } from '../audio/concat-mp3.js';
import { countCharacters } from '../text-limits.js';
import type { ReplyEmotion } from './reply-emotion.js';

export interface SpeechClipEvent {
  type: 'audio';
  key: string;
  seq: number;
  text: string;
  durationMs: number;
  visemes?: VisemeCue[];
  /** The emotion the sentence conveys, passed through from `enqueue`. */
  emotion?: ReplyEmotion;
}

export interface SpeechOutcome {
  /**
   * Key of the whole reply's MP3, when every sentence was spoken and the clips can be joined. It
   * is not stored: the service's blob store joins it from the clips when it is read
   * (`withJoinedReplyAudio`), so each reply's audio is on disk once.
   */
  audioKey: string | null;
  audioError: string | null;
  characters: number;
}

export interface SpeechPipelineOptions {
  provider: SpeechProvider;
  voiceId: string;
  blobs: BlobStore;
  /** `aud_…`: sentence clips are stored as `<base>-<seq>.mp3`; the whole reply is read as `<base>.mp3`. */
  keyBase: string;
  signal: AbortSignal;
  onClip(clip: SpeechClipEvent): void;
}

/**
 * Speaks sentences in order while the reply is still being generated: each `enqueue`d sentence
 * is synthesized as soon as the previous one is done, stored as a clip and announced; `finish`
 * checks that the clips join into one MP3 and names it for the stored message (joined on read). The first failure stops speech for the
 * rest of the reply (a half-spoken reply with gaps would be worse) and is reported, never thrown.
 */
export class SpeechPipeline {
  readonly #options: SpeechPipelineOptions;
  readonly #clips: Uint8Array[] = [];
  #chain: Promise<void> = Promise.resolve();
  #seq = 0;
  /** When the listener runs out of the audio announced so far (`performance.now()` ms); null before the first clip. */
  #audioUntil: number | null = null;
  #characters = 0;
  #error: string | null = null;

  constructor(options: SpeechPipelineOptions) {
    this.#options = options;
  }

  enqueue(sentence: string, emotion?: ReplyEmotion): void {
    const seq = this.#seq++;
    this.#chain = this.#chain.then(() => this.#speak(sentence, seq, emotion));
  }

  /** Waits for queued sentences (none are started after an abort) and names the whole reply. */
  async finish(): Promise<SpeechOutcome> {
    await this.#chain;
    const { keyBase } = this.#options;
    if (this.#clips.length === 0) {
      return { audioKey: null, audioError: this.#error, characters: this.#characters };
    }
    if (this.#error !== null) return { audioKey: null, audioError: this.#error, characters: this.#characters };
    try {
      concatMp3(this.#clips);
    } catch (error) {
      // A fallback engine took over mid-reply with another MP3 format; the clips were heard, but
      // they cannot be joined into one file.
      const reason = error instanceof Error ? error.message : String(error);
      return { audioKey: null, audioError: `the reply's sentences could not be joined into one file: ${reason}`, characters: this.#characters };
    }
    return { audioKey: `${keyBase}.mp3`, audioError: null, characters: this.#characters };
  }

  async #speak(text: string, seq: number, emotion: ReplyEmotion | undefined): Promise<void> {
    const { provider, voiceId, blobs, keyBase, signal, onClip } = this.#options;
    if (this.#error !== null || signal.aborted) return;
    try {
      // The first clip is needed now; a later one when the clips before it have been played.
      const neededAt = this.#audioUntil ?? performance.now();
      const result = await provider.synthesize({ text, voiceId, signal, neededAt });
      if (signal.aborted) return;
      const key = `${keyBase}-${seq}.mp3`;
      try {
        await blobs.put(key, result.audio);
      } catch (error) {
        const reason = asStorageError(error);
        this.#error = `the speech could not be stored: ${reason instanceof Error ? reason.message : String(reason)}`;
        return;
      }
      this.#clips.push(result.audio);
      this.#audioUntil = Math.max(this.#audioUntil ?? 0, performance.now()) + result.durationMs;
      this.#characters += countCharacters(text);
      onClip({
        type: 'audio',
        key,
        seq,
        text,
        durationMs: result.durationMs,
        ...(result.visemes && { visemes: result.visemes }),
        ...(emotion && { emotion }),
      });
    } catch (error) {
      if (signal.aborted && isAbortError(error)) return;
      this.#error = `${provider.id} speech failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
}

/** Deletes every blob of a reply's speech: its sentence clips, and a whole MP3 stored by an earlier version. */
export async function deleteReplyAudio(blobs: BlobStore, base: string): Promise<void> {
  await blobs.delete(`${base}.mp3`);
  for (let seq = 0; ; seq++) {
    const clip = `${base}-${seq}.mp3`;
    if (!(await blobs.stat(clip))) break;
    await blobs.delete(clip);
  }
}
