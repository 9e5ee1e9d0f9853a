import type { ExtraJointName } from './skeleton.js';

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

