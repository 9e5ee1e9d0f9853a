import { closedMouth, normalizeMouth, type MouthViseme, type MouthWeights } from './mouth-weights.js';

/** The parts of the Web Speech API this class uses (so tests can pass a stand-in). */
export interface SpeechSynthesisLike {
  speak(utterance: SpeechSynthesisUtterance): void;
  cancel(): void;
  getVoices(): SpeechSynthesisVoice[];
}

export interface BrowserSpeechOptions {
  /** BCP 47 language, e.g. `en-US` (default: the page's language). */
  lang?: string;
  /** Part of a voice name to prefer (e.g. `Google UK English Female`, `Samantha`). */
  voiceHint?: string;
  /** Default: `window.speechSynthesis`. */
  synthesis?: SpeechSynthesisLike;
  /** Clock in ms (default `performance.now`); inject one in tests. */
  now?: () => number;
}

/** One syllable's mouth movement. */
interface Pulse {
  readonly at: number;
  readonly viseme: MouthViseme;
}

/** A syllable's duration at rate 1 (ms): word boundaries give the word, vowels its syllables. */
const SYLLABLE_MS = 170;
const RISE_MS = 50;
const DECAY_MS = 110;
const PULSE_WEIGHT = 0.75;
/** No boundary event this long after an utterance started: syllables are paced from the text. */
const NO_BOUNDARY_MS = 350;

const VOWEL_VISEMES: Record<string, MouthViseme> = { a: 'aa', e: 'ee', i: 'ih', o: 'oh', u: 'ou', y: 'ih' };

/** Visemes of a word's vowel groups: "hello" → [ee, oh]. */
export function syllableVisemes(word: string): MouthViseme[] {
  const groups = word.toLowerCase().match(/[aeiouy\u00e0-\u00ff]+/g) ?? [];
  return groups.map((g) => VOWEL_VISEMES[g[0]!.normalize('NFD')[0]!] ?? 'aa');
}

/**
 * Speaks with the browser's own voices (Web Speech API) when the service sends no audio
 * (`tts-provider="browser"`). The browser gives no audio to analyse, so the mouth is driven by
 * its word-boundary events: each word opens the mouth once per syllable, shaped by the
 * syllable's vowel, and the opening decays. Voices that send no boundary events get syllables
 * paced from the text instead.
 *
 * @fires start - the first utterance of a run starts
 * @fires idle - every queued utterance has finished (or `stop()`)
 */
export class BrowserSpeech extends EventTarget {
  static available(): boolean {
    return typeof globalThis.speechSynthesis !== 'undefined' && typeof globalThis.SpeechSynthesisUtterance === 'function';
  }

  readonly #synthesis: SpeechSynthesisLike;
  readonly #lang: string;
  readonly #voiceHint: string | undefined;
  readonly #now: () => number;
  readonly #queue = new Set<SpeechSynthesisUtterance>();
  #speaking = false;
  #pulses: Pulse[] = [];
  #lastBoundary = -Infinity;
  /** While no boundary events come: the current utterance's syllables and when it started. */
  #current: { visemes: MouthViseme[]; started: number } | undefined;

  constructor(options: BrowserSpeechOptions = {}) {
    super();
    const synthesis = options.synthesis ?? globalThis.speechSynthesis;
    if (!synthesis) throw new Error('speech synthesis is not available in this browser');
    this.#synthesis = synthesis;
    this.#lang = options.lang ?? (document.documentElement.lang || navigator.language || 'en-US');
    this.#voiceHint = options.voiceHint;
    this.#now = options.now ?? (() => performance.now());
  }

  get playing(): boolean {
    return this.#queue.size > 0;
  }

  /** Queues `text`; it is spoken after what is already queued. `onStart` runs when it starts to sound. */
  speak(text: string, onStart?: () => void): void {
    if (!text.trim()) return;
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = this.#lang;
    const voice = pickVoice(this.#synthesis.getVoices(), this.#lang, this.#voiceHint);
    if (voice) utterance.voice = voice;
    utterance.onstart = () => {
      this.#current = { visemes: syllableVisemes(text), started: this.#now() };
      onStart?.();
      if (!this.#speaking) {
        this.#speaking = true;
        this.dispatchEvent(new CustomEvent('start'));
      }
    };
    utterance.onboundary = (event) => {
      if (event.name && event.name !== 'word') return;
      const now = this.#now();
      this.#lastBoundary = now;
      const word = text.slice(event.charIndex, event.charIndex + (event.charLength || wordLength(text, event.charIndex)));
      const rate = utterance.rate || 1;
      syllableVisemes(word).forEach((viseme, i) => this.#pulses.push({ at: now + (i * SYLLABLE_MS) / rate, viseme }));
    };
    const done = () => {
      if (!this.#queue.delete(utterance)) return;
      this.#current = undefined;
      if (this.#queue.size === 0) this.#finish();
    };
    utterance.onend = done;
    utterance.onerror = done;
    // Keep a reference: Chrome drops events of utterances that were garbage-collected.
    this.#queue.add(utterance);
    this.#synthesis.speak(utterance);
  }

  /** Stops speaking at once and drops the queue. */
  stop(): void {
    const had = this.#queue.size > 0;
    this.#queue.clear();
    this.#synthesis.cancel();
    this.#pulses = [];
    this.#current = undefined;
    if (had) this.#finish();
  }

  /** Mouth weights now: the sum of the recent syllable pulses. */
  mouth(): MouthWeights {
    const now = this.#now();
    const out = closedMouth();
    // Syllables paced from the text only for a voice that sends no boundary events at all.
    if (this.#current && this.#lastBoundary < this.#current.started && now - this.#current.started > NO_BOUNDARY_MS) {
      this.#synthesizeSyllables(now);
    }
    this.#pulses = this.#pulses.filter((p) => now - p.at < DECAY_MS * 5);
    for (const p of this.#pulses) {
      const t = now - p.at;
      if (t < 0) continue;
      const envelope = t < RISE_MS ? t / RISE_MS : Math.exp(-(t - RISE_MS) / DECAY_MS);
      out[p.viseme] += PULSE_WEIGHT * envelope;
    }
    return normalizeMouth(out);
  }

  dispose(): void {
    this.stop();
  }

  /** No boundary events (some voices send none): pace the utterance's syllables from its text. */
  #synthesizeSyllables(now: number): void {
    const current = this.#current!;
    if (current.visemes.length === 0) return;
    const index = Math.floor((now - current.started) / SYLLABLE_MS);
    const last = this.#pulses.at(-1);
    if (last && now - last.at < SYLLABLE_MS) return;
    this.#pulses.push({ at: now, viseme: current.visemes[index % current.visemes.length]! });
  }

  #finish(): void {
    if (!this.#speaking) return;
    this.#speaking = false;
    this.dispatchEvent(new CustomEvent('idle'));
  }
}

/** The voice whose name contains `hint`, else one for `lang`, else one for its language. */
export function pickVoice<V extends Pick<SpeechSynthesisVoice, 'name' | 'lang'>>(voices: readonly V[], lang: string, hint?: string): V | undefined {
  const h = hint?.toLowerCase();
  const l = lang.toLowerCase();
  return (
    (h ? voices.find((v) => v.name.toLowerCase().includes(h)) : undefined) ??
    voices.find((v) => v.lang.toLowerCase() === l) ??
    voices.find((v) => v.lang.toLowerCase().split('-')[0] === l.split('-')[0])
  );
}

function wordLength(text: string, from: number): number {
  const match = /^[\p{L}\p{N}'’-]+/u.exec(text.slice(from));
  return match ? match[0].length : 1;
}
