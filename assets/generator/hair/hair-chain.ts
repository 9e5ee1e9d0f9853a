import type { BuildContext } from '../characters/build-context.js';
import type { Vec3 } from '../geometry/vec3.js';
import type { ExtraJointName, JointName } from '../skeleton/skeleton.js';
import { chainWeights, type SkinWeights } from '../skeleton/skin-weights.js';
import type { ColliderGroupName, SpringSettings } from '../skeleton/spring-chains.js';

/** A hair spring: its joints and how to skin a vertex to it by height. */
export interface HairChain {
  readonly joints: readonly ExtraJointName[];
  /** Weights for a vertex at height `y`: the head above the first joint, then down the chain. */
  readonly skinByHeight: (y: number) => SkinWeights;
  /** Weights by a parameter `s` along the chain (0 at the first joint, 1 at the tail). */
  readonly skinAlong: (s: number) => SkinWeights;
}

/** Gentle sway for long hair; short tufts pass stiffer settings. */
export const SOFT_HAIR: SpringSettings = { stiffness: 1.1, drag: 0.45, gravity: 0.12, hitRadius: 0.02 };
export const SHORT_HAIR: SpringSettings = { stiffness: 1.5, drag: 0.4, gravity: 0.05, hitRadius: 0.012 };

/**
 * Adds a chain of joints `hair<Name>1 … hair<Name>n` at `points` (root first, parented to the
 * head) and registers it as a spring colliding with the head, neck and upper body.
 */
export function addHairChain(
  ctx: BuildContext,
  name: string,
  points: readonly Vec3[],
  settings: SpringSettings,
  colliders: readonly ColliderGroupName[] = ['head', 'neck', 'body'],
): HairChain {
  const joints: ExtraJointName[] = [];
  let parent: JointName = 'head';
  points.forEach((p, i) => {
    parent = ctx.skeleton.addJoint(`hair${name}${i + 1}`, parent, p);
    joints.push(parent);
  });
  ctx.springs.add({ name: `hair${name}`, joints, settings, colliders });
  // The tail joint carries no skin: nothing rotates it, it only gives the last bone a direction.
  const bones: JointName[] = ['head', ...joints.slice(0, -1)];
  const ys = points.slice(0, -1).map((p) => -p[1]);
  const blend = 0.25 * Math.abs(points[1]![1] - points[0]![1]) + 0.004;
  const m = points.length - 1;
  return {
    joints,
    skinByHeight: (y) => chainWeights(bones, [-Infinity, ...ys], -y, blend),
    skinAlong: (s) => chainWeights(bones, [-Infinity, ...Array.from({ length: m }, (_, i) => i / m)], s, 0.08),
  };
}

/** Blends two weight sets: (1 − f)·a + f·b, merged per joint. */
export function mixWeights(a: SkinWeights, b: SkinWeights, f: number): SkinWeights {
  const out = new Map<JointName, number>();
  for (const [j, w] of a) out.set(j, (out.get(j) ?? 0) + w * (1 - f));
  for (const [j, w] of b) out.set(j, (out.get(j) ?? 0) + w * f);
  return [...out.entries()].filter(([, w]) => w > 1e-4);
}
