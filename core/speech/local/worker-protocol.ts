import type { VisemeCue } from '../speech-provider.js';

/** What the provider asks a speech worker to make. */
export interface ClipRequest {
  text: string;
  /** espeak-ng `-v` value, e.g. `en-us+f3`. */
  engineVoice: string;
  visemes: boolean;
}

/** One synthesized clip, MP3 in the engine's constant format. */
export interface ClipResult {
  audio: Uint8Array;
  durationMs: number;
  visemes?: VisemeCue[];
  /** Where the worker spent its time, for benchmarks and logs. */
  timings: { synthesisMs: number; encodeMs: number; visemeMs: number };
}

/** `workerData` of a speech worker. */
export interface SpeechWorkerData {
  /** URL of espeak-ng's ESM glue (`…/espeak-ng/dist/espeak-ng.js`). */
  engineModuleUrl: string;
}

export type WorkerRequest = { type: 'synthesize'; id: number; request: ClipRequest };

export type WorkerResponse =
  /**
   * Preparing the next espeak-ng instance ended: `ok` means the worker holds a ready one, so its
   * next request pays only for synthesis; otherwise that request reports the failure.
   */
  | { type: 'warm'; ok: boolean }
  | { type: 'done'; id: number; result: ClipResult }
  | { type: 'failed'; id: number; code: 'unavailable' | 'internal_error'; message: string };
