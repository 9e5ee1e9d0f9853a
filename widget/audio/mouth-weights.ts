/**
 * The five VRM mouth expressions a lip-sync source drives, and small helpers shared by every
 * source (viseme timeline, audio analysis, browser speech).
 *
 * Weights are 0…1 each; sources keep their sum ≤ 1 so stacked morph targets never over-open the
 * mouth (VRM-NOTES pitfall 5).
 */
export const MouthVisemes = ['aa', 'ih', 'ou', 'ee', 'oh'] as const;

export type MouthViseme = (typeof MouthVisemes)[number];

export type MouthWeights = { [K in MouthViseme]: number };

/** A closed mouth (all weights 0). Returns a new object each call. */
export function closedMouth(): MouthWeights {
  return { aa: 0, ih: 0, ou: 0, ee: 0, oh: 0 };
}

/** How far the mouth is open: the sum of the weights, clamped to 0…1. */
export function mouthOpenness(w: MouthWeights): number {
  return Math.min(1, Math.max(0, w.aa + w.ih + w.ou + w.ee + w.oh));
}

/** The viseme with the largest weight, or `undefined` when the mouth is closed. */
export function dominantViseme(w: MouthWeights): MouthViseme | undefined {
  let best: MouthViseme | undefined;
  let max = 0;
  for (const v of MouthVisemes) {
    if (w[v] > max) {
      max = w[v];
      best = v;
    }
  }
  return best;
}

/** Scales the weights down so their sum is at most 1 (in place; returns `w`). */
export function normalizeMouth(w: MouthWeights): MouthWeights {
  const sum = w.aa + w.ih + w.ou + w.ee + w.oh;
  if (sum > 1) for (const v of MouthVisemes) w[v] /= sum;
  return w;
}

/**
 * Moves `current` toward `target` with separate attack and release time constants (seconds),
 * frame-rate independent. Opening fast and closing a little slower reads as natural speech.
 */
export function smoothMouth(
  current: MouthWeights,
  target: MouthWeights,
  dt: number,
  attack = 0.03,
  release = 0.07,
): MouthWeights {
  for (const v of MouthVisemes) {
    const tau = target[v] > current[v] ? attack : release;
    const k = dt <= 0 ? 0 : 1 - Math.exp(-dt / tau);
    current[v] += (target[v] - current[v]) * k;
  }
  return current;
}
