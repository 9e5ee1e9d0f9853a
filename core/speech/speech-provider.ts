/**
 * The speech contract. Every engine — the offline `local` one and each vendor adapter —
 * implements {@link SpeechProvider}: text in, MP3 bytes out, with the duration and, where the
 * engine can give or derive timing, a viseme timeline for lip-sync.
 */

/** VRM 1.0 mouth expressions, plus `sil` for a closed mouth. */
export const VisemeName = ['aa', 'ih', 'ou', 'ee', 'oh', 'sil'] as const;
export type VisemeName = (typeof VisemeName)[number];

/** One mouth shape held from `startMs` to `endMs` (relative to the start of the audio clip). */
export interface VisemeCue {
  viseme: VisemeName;
  startMs: number;
  endMs: number;
  /** Openness 0…1, e.g. from the loudness of the audio at that point. */
  weight: number;
}

export interface Voice {
  /** The id clients pass, e.g. `en-US-Neural2-F`. */
  id: string;
  name: string;
  locale: string;
  gender: 'female' | 'male' | 'neutral';
  provider: string;
}

export interface SpeechRequest {
  text: string;
  /** An avatar voice id `<locale>-Neural2-<letter>` or one of this provider's own voice ids. */
  voiceId: string;
  signal?: AbortSignal;
  /**
   * When the listener would run out of audio without this clip (`performance.now()` ms): engines
   * that queue requests (the `local` engine's workers) start the earliest first, so a reply's
   * first sentence goes before sentences of replies that are already playing. Unset: now.
   */
  neededAt?: number;
}

export interface SpeechResult {
  /** MP3 bytes (MPEG-1/2 Layer III, constant format per provider so clips concatenate). */
  audio: Uint8Array;
  contentType: 'audio/mpeg';
  durationMs: number;
  /** Characters billed: the code points of the request text. */
  characters: number;
  /** The engine voice the request resolved to, so the mapping is visible. */
  engineVoice: string;
  /**
   * The id of the engine that produced the audio. Vendor adapters set it to their own id; a
   * fallback chain reports the member that answered, so a caller can tell when it fell back.
   */
  provider?: string;
  visemes?: VisemeCue[];
}

export interface SpeechProvider {
  readonly id: string;
  readonly name: string;
  /** Whether this engine can synthesize here (credentials present, optional engine installed). */
  available(): Promise<boolean>;
  voices(): readonly Voice[];
  /**
   * The engine voice a voice id resolves to (`en-US-Neural2-F` → `nova` on OpenAI), so the mapping
   * of avatar voices is visible; throws `ValidationError('voice_id')` for a voice it cannot speak.
   */
  engineVoiceFor(voiceId: string): string;
  synthesize(request: SpeechRequest): Promise<SpeechResult>;
  /** Releases warm engine instances / worker threads. */
  close(): Promise<void>;
}


