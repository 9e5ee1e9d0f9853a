import type { VisemeCue, VisemeName } from '../speech-provider.js';

/** ElevenLabs' character timing: three parallel arrays, times in seconds from the clip start. */
export interface CharacterAlignment {
  characters: readonly string[];
  character_start_times_seconds: readonly number[];
  character_end_times_seconds: readonly number[];
}

interface Shape {
  viseme: VisemeName;
  /** Openness 0…1. */
  weight: number;
}

const closed: Shape = { viseme: 'sil', weight: 0 };

/**
 * The mouth shape a written letter most often asks for. Spelling is a rough guide to sound, but
 * with per-character timing from the vendor the rhythm is exact, which matters more to the eye
 * than the precise vowel. Vowels use the openness of the local engine's phoneme table.
 */
const letterShapes: Readonly<Record<string, Shape>> = {
  a: { viseme: 'aa', weight: 1 },
  e: { viseme: 'ee', weight: 0.6 },
  i: { viseme: 'ih', weight: 0.55 },
  y: { viseme: 'ih', weight: 0.5 },
  o: { viseme: 'oh', weight: 0.85 },
  u: { viseme: 'ou', weight: 0.65 },
  w: { viseme: 'ou', weight: 0.5 },
  q: { viseme: 'ou', weight: 0.45 },
  // lips closed
  p: closed,
  b: closed,
  m: closed,
  // lower lip on the teeth: barely open
  f: { viseme: 'ih', weight: 0.2 },
  v: { viseme: 'ih', weight: 0.2 },
};

/** Every other letter (any script) and digits: a slightly open mouth, as the local engine does for consonants. */
const otherLetter: Shape = { viseme: 'ih', weight: 0.35 };

function shapeOf(character: string): Shape {
  // "é" → "e", "Ö" → "o": the base letter carries the mouth shape.
  const base = character.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  if (base.length === 0 || !/[\p{L}\p{N}]/u.test(base)) return closed; // spaces, punctuation
  return letterShapes[base[0]!] ?? otherLetter;
}

/**
 * Turns character timings into an ordered, non-overlapping viseme timeline within `durationMs`:
 * one cue per character, neighbours of the same shape merged, spaces and punctuation closing the
 * mouth, and a closing `sil` to the end of the clip. Returns `undefined` when the alignment is not
 * three arrays of one length, so a malformed alignment costs the lip-sync, not the audio.
 *
 * @example
 * visemesFromAlignment({ characters: ['H', 'i'], character_start_times_seconds: [0, 0.1],
 *   character_end_times_seconds: [0.1, 0.25] }, 300)
 * // → [{ viseme: 'ih', startMs: 0, endMs: 250, weight: 0.55 }, { viseme: 'sil', startMs: 250, endMs: 300, weight: 0 }]
 */
export function visemesFromAlignment(alignment: CharacterAlignment, durationMs: number): VisemeCue[] | undefined {
  const { characters, character_start_times_seconds: starts, character_end_times_seconds: ends } = alignment;
  if (!Array.isArray(characters) || !Array.isArray(starts) || !Array.isArray(ends)) return undefined;
  if (starts.length !== characters.length || ends.length !== characters.length) return undefined;

  const cues: VisemeCue[] = [];
  let cursor = 0;
  for (let i = 0; i < characters.length; i++) {
    const start = Math.max(cursor, Math.round(Number(starts[i]) * 1000));
    const end = Math.min(durationMs, Math.round(Number(ends[i]) * 1000));
    if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start) continue;
    const shape = shapeOf(String(characters[i]));
    const last = cues[cues.length - 1];
    if (last && last.viseme === shape.viseme && last.endMs === start) {
      last.endMs = end;
      last.weight = Math.max(last.weight, shape.weight);
    } else {
      cues.push({ viseme: shape.viseme, startMs: start, endMs: end, weight: shape.weight });
    }
    cursor = end;
  }
  if (cursor < durationMs) {
    const last = cues[cues.length - 1];
    if (last?.viseme === 'sil' && last.endMs === cursor) last.endMs = durationMs;
    else cues.push({ viseme: 'sil', startMs: cursor, endMs: durationMs, weight: 0 });
  }
  return cues;
}
