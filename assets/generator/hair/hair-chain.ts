import type { BuildContext } from '../characters/build-context.js';
import type { Vec3 } from '../geometry/vec3.js';
import { addSpringChain, type ColliderGroupName, type SpringRig, type SpringSettings } from '../skeleton/spring-chains.js';

/** A hair spring: its joints and how to skin a vertex to it. */
export type HairChain = SpringRig;

/** Gentle sway for long hair; short tufts pass stiffer settings. */
export const SOFT_HAIR: SpringSettings = { stiffness: 1.1, drag: 0.45, gravity: 0.12, hitRadius: 0.02 };
export const SHORT_HAIR: SpringSettings = { stiffness: 1.5, drag: 0.4, gravity: 0.05, hitRadius: 0.012 };

/**
 * Adds a chain of joints `hair<Name>1 … hair<Name>n` at `points` (root first, parented to the
 * head) and registers it as the spring `hair<Name>`, colliding with the head, neck and upper body.
 */
export function addHairChain(
  ctx: BuildContext,
  name: string,
  points: readonly Vec3[],
  settings: SpringSettings,
  colliders: readonly ColliderGroupName[] = ['head', 'neck', 'body'],
): HairChain {
  return addSpringChain(ctx.skeleton, ctx.springs, { prefix: `hair${name}`, parent: 'head', points }, settings, colliders);
}
