import type { BodyMeasures } from './body-measures.js';
import type { HumanoidRig } from './humanoid-rig.js';
import type { Pose } from './pose.js';

/** What an animation factory gets: the avatar's rig and a seed that varies its motion. */
export interface AnimationContext {
  readonly rig: HumanoidRig;
  /** Any number; two avatars with different seeds do not move in lockstep. */
  readonly seed: number;
  /** Sizes of the model's head, hands and torso, so poses fit it (`measureBody`). */
  readonly body: BodyMeasures;
}

/**
 * A procedural animation: a pure function of time that writes a pose. The blender resets the
 * pose to rest before each call, so an animation only adds what it moves.
 */
export interface AvatarAnimation {
  readonly name: string;
  /** Writes the pose at `time` (seconds on the stage clock) into `pose` (reset to rest). */
  evaluate(time: number, pose: Pose): void;
}

export type AnimationFactory = (context: AnimationContext) => AvatarAnimation;
