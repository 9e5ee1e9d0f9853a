import type { Vec3 } from '../geometry/vec3.js';
import type { ExtraJointName, JointName, Skeleton } from './skeleton.js';
import { chainWeights, type SkinWeights } from './skin-weights.js';

/** Collider groups a spring can collide with (see `vrm/spring-bones.ts` for their shapes). */
export type ColliderGroupName = 'head' | 'neck' | 'body' | 'legs';

/** How one chain sways: VRMC_springBone joint settings shared by the chain's joints. */
export interface SpringSettings {
  /** Pull back towards the rest direction (per second); higher = stiffer. */
  readonly stiffness: number;
  /** 0 = keeps swinging, 1 = stops at once. */
  readonly drag: number;
  /** Pull along -Y (per second). */
  readonly gravity: number;
  /** Radius of each joint's collision sphere, metres. */
  readonly hitRadius: number;
}

/** One spring: a parent → child run of extra joints (the last joint is the tail). */
export interface SpringChain {
  readonly name: string;
  readonly joints: readonly ExtraJointName[];
  readonly settings: SpringSettings;
  readonly colliders: readonly ColliderGroupName[];
}

/**
 * The spring-bone chains of one avatar, registered by the hair and clothing builders as they add
 * their joints, and written out as `VRMC_springBone` by the document writer.
 */
export class SpringChains {
  readonly #chains: SpringChain[] = [];

  add(chain: SpringChain): void {
    if (chain.joints.length < 2) throw new Error(`spring ${chain.name}: needs a joint and its tail`);
    this.#chains.push(chain);
  }

  get chains(): readonly SpringChain[] {
    return this.#chains;
  }
}


/** A chain's joints and how to skin a vertex to it. */
export interface SpringRig {
  readonly joints: readonly ExtraJointName[];
  /** Weights for a vertex at height `y`: the parent bone above the first joint, then down the chain. */
  readonly skinByHeight: (y: number) => SkinWeights;
  /** Weights by a parameter `s` along the chain (0 at the first joint, 1 at the tail). */
  readonly skinAlong: (s: number) => SkinWeights;
}

/**
 * Adds joints `<prefix>1 … <prefix>n` at `points` (root first) under `parent`, registers them as
 * one spring named `prefix`, and returns how to skin vertices to the chain. The tail joint
 * carries no skin: nothing rotates it, it only gives the last bone its direction.
 */
export function addSpringChain(
  skeleton: Skeleton,
  springs: SpringChains,
  spring: { readonly prefix: ExtraJointName; readonly parent: JointName; readonly points: readonly Vec3[] },
  settings: SpringSettings,
  colliders: readonly ColliderGroupName[],
): SpringRig {
  const { prefix, parent, points } = spring;
  const joints: ExtraJointName[] = [];
  let up: JointName = parent;
  points.forEach((p, i) => {
    up = skeleton.addJoint(`${prefix}${i + 1}` as ExtraJointName, up, p);
    joints.push(up);
  });
  springs.add({ name: prefix, joints, settings, colliders });
  const bones: JointName[] = [parent, ...joints.slice(0, -1)];
  const ys = points.slice(0, -1).map((p) => -p[1]);
  const blend = 0.25 * Math.abs(points[1]![1] - points[0]![1]) + 0.004;
  const m = points.length - 1;
  return {
    joints,
    skinByHeight: (y) => chainWeights(bones, [-Infinity, ...ys], -y, blend),
    skinAlong: (s) => chainWeights(bones, [-Infinity, ...Array.from({ length: m }, (_, i) => i / m)], s, 0.08),
  };
}
