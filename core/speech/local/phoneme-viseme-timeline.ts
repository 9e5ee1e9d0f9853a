import type { VisemeCue, VisemeName } from '../speech-provider.js';
import type { PhonemeSlot } from './ipa-visemes.js';

/** Inputs for laying phoneme visemes over synthesized audio. */
export interface VisemeTimelineInput {
  /** The synthesized mono PCM (before MP3 encoding), −1…1. */
  samples: Float32Array;
  sampleRate: number;
  /** Viseme slots per clause, in order (espeak-ng prints one IPA line per clause). */
  clauses: readonly PhonemeSlot[][];
  /** Added to every cue: the silence the MP3 decoder puts before the first sample. */
  offsetMs: number;
  /** Length of the audio the cues belong to; cues are clipped to it and `sil` fills the rest. */
  durationMs: number;
  /** RMS window; 10 ms unless told. */
  windowMs?: number;
}

interface Region {
  start: number; // window index, inclusive
  end: number; // window index, exclusive
}

function rmsEnvelope(samples: Float32Array, windowSize: number): Float32Array {
  const windows = new Float32Array(Math.ceil(samples.length / windowSize));
  for (let w = 0; w < windows.length; w++) {
    const from = w * windowSize;
    const to = Math.min(samples.length, from + windowSize);
    let sum = 0;
    for (let i = from; i < to; i++) sum += samples[i]! * samples[i]!;
    windows[w] = Math.sqrt(sum / Math.max(1, to - from));
  }
  return windows;
}

/**
 * Voiced regions: windows louder than 8 % of the peak RMS (−22 dB), with dips under 40 ms bridged
 * (stop closures inside words) and blips under 30 ms dropped.
 */
function voicedRegions(envelope: Float32Array, peak: number, windowMs: number): Region[] {
  const threshold = Math.max(peak * 0.08, 1e-3);
  const bridge = Math.round(40 / windowMs);
  const minimum = Math.round(30 / windowMs);
  const regions: Region[] = [];
  for (let w = 0; w < envelope.length; w++) {
    if (envelope[w]! < threshold) continue;
    const last = regions[regions.length - 1];
    if (last && w - last.end <= bridge) last.end = w + 1;
    else regions.push({ start: w, end: w + 1 });
  }
  return regions.filter((r) => r.end - r.start >= minimum);
}

/** Groups regions into one run per clause, split at the longest pauses; one run if that fails. */
function groupByClause(regions: Region[], clauseCount: number): Region[][] {
  if (clauseCount <= 1 || regions.length < clauseCount) return [regions];
  const gaps = regions.slice(1).map((r, i) => ({ after: i, length: r.start - regions[i]!.end }));
  const cuts = gaps
    .sort((a, b) => b.length - a.length)
    .slice(0, clauseCount - 1)
    .map((g) => g.after)
    .sort((a, b) => a - b);
  const groups: Region[][] = [];
  let from = 0;
  for (const cut of cuts) {
    groups.push(regions.slice(from, cut + 1));
    from = cut + 1;
  }
  groups.push(regions.slice(from));
  return groups;
}

/**
 * Lays viseme slots over the voiced parts of the audio. espeak-ng gives phonemes but no timings,
 * so this is an estimate: each clause's phonemes share that clause's voiced time in proportion to
 * their typical durations, pauses become `sil`, and each cue's weight is the phoneme's openness
 * scaled by the loudness there. Good enough for a mouth that moves with the voice, opens on loud
 * vowels and closes in pauses; not phoneme-exact.
 */
export function buildVisemeTimeline(input: VisemeTimelineInput): VisemeCue[] {
  const windowMs = input.windowMs ?? 10;
  const windowSize = Math.max(1, Math.round((input.sampleRate * windowMs) / 1000));
  const envelope = rmsEnvelope(input.samples, windowSize);
  const peak = envelope.reduce((m, v) => Math.max(m, v), 0);
  const regions = voicedRegions(envelope, peak, windowMs);
  const clauses = input.clauses.filter((c) => c.length > 0);
  const groups = groupByClause(regions, clauses.length);
  const slotGroups = groups.length === clauses.length ? clauses : [clauses.flat()];

  const loudness = (from: number, to: number): number => {
    let sum = 0;
    for (let w = from; w < to; w++) sum += envelope[w]!;
    return peak > 0 ? Math.min(1, Math.sqrt(sum / Math.max(1, to - from) / peak)) : 0;
  };

  const raw: { viseme: VisemeName; from: number; to: number; weight: number }[] = [];
  groups.forEach((group, g) => {
    const slots = slotGroups[g] ?? [];
    const voiced = group.reduce((n, r) => n + (r.end - r.start), 0);
    const total = slots.reduce((n, s) => n + s.duration, 0);
    if (voiced === 0 || total === 0) return;
    // Walk the slots along the clause's voiced time; a slot that straddles a pause is split.
    let position = 0;
    for (const slot of slots) {
      const slotStart = position;
      const slotEnd = position + (slot.duration / total) * voiced;
      position = slotEnd;
      let before = 0;
      for (const region of group) {
        const length = region.end - region.start;
        const from = Math.max(slotStart, before);
        const to = Math.min(slotEnd, before + length);
        if (to > from) {
          const a = region.start + (from - before);
          const b = region.start + (to - before);
          const weight = slot.openness * loudness(Math.floor(a), Math.max(Math.ceil(b), Math.floor(a) + 1));
          raw.push({ viseme: slot.viseme, from: a * windowMs, to: b * windowMs, weight });
        }
        before += length;
      }
    }
  });

  // Shift, round, clip, and fill every gap with `sil`.
  const cues: VisemeCue[] = [];
  const push = (viseme: VisemeName, startMs: number, endMs: number, weight: number): void => {
    const start = Math.round(Math.max(0, startMs));
    const end = Math.round(Math.min(input.durationMs, endMs));
    if (end <= start) return;
    const last = cues[cues.length - 1];
    if (last && last.viseme === viseme && (viseme === 'sil' || Math.abs(last.weight - weight) < 0.05) && last.endMs === start) {
      last.endMs = end;
      return;
    }
    cues.push({ viseme, startMs: start, endMs: end, weight: Math.round(weight * 100) / 100 });
  };
  let cursor = 0;
  for (const cue of raw) {
    const start = cue.from + input.offsetMs;
    if (start > cursor) push('sil', cursor, start, 0);
    push(cue.viseme, Math.max(start, cursor), cue.to + input.offsetMs, cue.viseme === 'sil' ? 0 : cue.weight);
    cursor = Math.max(cursor, Math.round(cue.to + input.offsetMs));
  }
  if (cursor < input.durationMs) push('sil', cursor, input.durationMs, 0);
  return cues;
}
