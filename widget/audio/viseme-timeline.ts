import type { WireViseme } from '../../core/protocol/realtime-protocol.js';
import { closedMouth, normalizeMouth, type MouthWeights } from './mouth-weights.js';

/** Cross-fade between neighbouring visemes (coarticulation), in milliseconds. */
const DEFAULT_BLEND_MS = 60;

/**
 * A clip's viseme timeline (from the speech engine), sampled at a playback time.
 *
 * Each segment contributes its weight with a trapezoid envelope that ramps over `blendMs` around
 * its start and end, so neighbouring visemes cross-fade instead of snapping. `sil` closes the
 * mouth. Inside a segment longer than `blendMs`, its own viseme holds its full weight.
 *
 * @example
 * const timeline = new VisemeTimeline(event.visemes);
 * stage.setMouth(timeline.sample(playbackMs));
 */
export class VisemeTimeline {
  readonly #segments: readonly WireViseme[];
  readonly #blendMs: number;

  constructor(visemes: readonly WireViseme[], options: { blendMs?: number } = {}) {
    this.#segments = [...visemes].filter((v) => v.end_ms > v.start_ms).sort((a, b) => a.start_ms - b.start_ms);
    this.#blendMs = Math.max(1, options.blendMs ?? DEFAULT_BLEND_MS);
  }

  /** End of the last segment, in milliseconds. */
  get durationMs(): number {
    return this.#segments.reduce((max, s) => Math.max(max, s.end_ms), 0);
  }

  /** Mouth weights at `timeMs` from the start of the clip. */
  sample(timeMs: number, out: MouthWeights = closedMouth()): MouthWeights {
    out.aa = out.ih = out.ou = out.ee = out.oh = 0;
    const segments = this.#segments;
    if (segments.length === 0) return out;
    const half = this.#blendMs / 2;
    // Segments starting (with their ramp) after t cannot contribute: binary search for them,
    // then walk back until a segment ended (with its ramp) before t. Timelines do not overlap.
    let lo = 0;
    let hi = segments.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (segments[mid]!.start_ms - half <= timeMs) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo - 1; i >= 0; i--) {
      const s = segments[i]!;
      if (s.end_ms + half < timeMs) break;
      if (s.viseme === 'sil') continue;
      const envelope = this.#envelope(s, timeMs, half);
      if (envelope > 0) out[s.viseme] += Math.max(0, Math.min(1, s.weight)) * envelope;
    }
    return normalizeMouth(out);
  }

  #envelope(s: WireViseme, t: number, half: number): number {
    // Ramps are limited to half the segment so a very short segment still peaks.
    const ramp = Math.min(half, (s.end_ms - s.start_ms) / 2);
    const rise = (t - (s.start_ms - ramp)) / (2 * ramp);
    const fall = (s.end_ms + ramp - t) / (2 * ramp);
    return Math.max(0, Math.min(1, rise, fall));
  }
}
