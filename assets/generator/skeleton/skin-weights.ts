import { smoothstep } from '../geometry/vec3.js';
import type { JointName } from './skeleton.js';

/** Up to four bone influences of one vertex; weights sum to 1. */
export type SkinWeights = readonly (readonly [JointName, number])[];

/** Rigid binding to one bone. */
export const rigid = (bone: JointName): SkinWeights => [[bone, 1]];

/**
 * Weights along a chain of bones whose joints sit at increasing coordinates `at` along one axis
 * (e.g. |x| for an arm, height for the spine). Bone k owns [at[k], at[k+1]); around each joint the
 * ownership cross-fades over ±`blend`, so a bent elbow bends the skin smoothly instead of tearing.
 * The smoothed interval memberships telescope, so the weights always sum to exactly 1.
 */
export function chainWeights(
  chain: readonly JointName[],
  at: readonly number[],
  u: number,
  blend: number,
): SkinWeights {
  const step = (x: number): number => smoothstep(-blend, blend, x);
  const out: [JointName, number][] = [];
  for (let k = 0; k < chain.length; k++) {
    const enter = k === 0 ? 1 : step(u - at[k]!);
    const leave = k === chain.length - 1 ? 0 : step(u - at[k + 1]!);
    const w = enter - leave;
    if (w > 1e-4) out.push([chain[k]!, w]);
  }
  return out;
}

/** Moves a fraction `f` of every weight to `bone` (e.g. the shoulder's share of the upper torso). */
export function blendToward(weights: SkinWeights, bone: JointName, f: number): SkinWeights {
  if (f <= 1e-4) return weights;
  const out: [JointName, number][] = weights.map(([b, w]) => [b, w * (1 - f)]);
  const existing = out.find(([b]) => b === bone);
  if (existing) existing[1] += f;
  else out.push([bone, f]);
  return out;
}

/** Blends two weight sets: (1 − f)·a + f·b, merged per joint (e.g. a lock between two springs). */
export function mixWeights(a: SkinWeights, b: SkinWeights, f: number): SkinWeights {
  const out = new Map<JointName, number>();
  for (const [j, w] of a) out.set(j, (out.get(j) ?? 0) + w * (1 - f));
  for (const [j, w] of b) out.set(j, (out.get(j) ?? 0) + w * f);
  return [...out.entries()].filter(([, w]) => w > 1e-4);
}
