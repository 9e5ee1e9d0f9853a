import type { WireEmotion } from '../../core/protocol/realtime-protocol.js';

/** The emotions the stage can show: VRM 1.0 expression presets. */
export type StageEmotion = WireEmotion;
export const StageEmotions: readonly StageEmotion[] = ['happy', 'sad', 'surprised', 'relaxed', 'angry'];

/**
 * How far each emotion goes while a sentence plays. Kept well below 1 so the mouth's visemes
 * still read over a smile or a frown (the expressions add up on the same vertices), and a frown
 * stays small: an apology is not grief.
 */
export const EmotionWeights: Readonly<Record<StageEmotion, number>> = {
  happy: 0.6,
  sad: 0.4,
  surprised: 0.45,
  relaxed: 0.45,
  angry: 0.3,
};

/** Seconds to get most of the way (≈63 %) in and back out: a quick rise, a slower settle. */
const RISE_SECONDS = 0.18;
const FALL_SECONDS = 0.45;

/**
 * The face's emotion over time: one target emotion at a time, eased in while its sentence plays
 * and eased back to neutral when it ends or another takes over (the old one fades while the new
 * one rises, so the face never snaps). Time advances only with `update(delta)`, the stage clock.
 */
export class EmotionExpression {
  readonly #weights = new Map<StageEmotion, number>(StageEmotions.map((e) => [e, 0]));
  #target: StageEmotion | undefined;
  #targetWeight = 0;

  /** The emotion to show from now on (`undefined`: back to neutral) and how strongly (0…1). */
  set(emotion: StageEmotion | undefined, weight = emotion ? EmotionWeights[emotion] : 0): void {
    this.#target = emotion;
    this.#targetWeight = Math.max(0, Math.min(1, weight));
  }

  /** The emotion being eased toward, if any. */
  get target(): StageEmotion | undefined {
    return this.#target;
  }

  /** The current weight of `emotion` (0…1). */
  weight(emotion: StageEmotion): number {
    return this.#weights.get(emotion) ?? 0;
  }

  /** Advances `delta` seconds: each weight approaches its target exponentially. */
  update(delta: number): void {
    for (const emotion of StageEmotions) {
      const current = this.#weights.get(emotion)!;
      const goal = emotion === this.#target ? this.#targetWeight : 0;
      const tau = goal > current ? RISE_SECONDS : FALL_SECONDS;
      const next = goal + (current - goal) * Math.exp(-Math.max(0, delta) / tau);
      this.#weights.set(emotion, Math.abs(next - goal) < 1e-3 ? goal : next);
    }
  }

  /** Back to neutral at once (a new model, an interrupted reply). */
  reset(): void {
    this.#target = undefined;
    this.#targetWeight = 0;
    for (const emotion of StageEmotions) this.#weights.set(emotion, 0);
  }
}
