import type { Pose, PosedBone } from './pose.js';
import { rotate } from './procedural-motion.js';

const FINGERS = ['Index', 'Middle', 'Ring', 'Little'] as const;
const JOINTS = ['Proximal', 'Intermediate', 'Distal'] as const;
/** Share of a curl each joint takes, root to tip: the middle joint bends most, as in a real hand. */
const JOINT_SHARE = [0.8, 1, 0.65] as const;
/** Outer fingers curl a little more than the index in a relaxed hand. */
const FINGER_SHARE = { Index: 0.85, Middle: 1, Ring: 1.1, Little: 1.2 } as const;

export interface FingerCurl {
  /** Radians at the middle joint of the middle finger; 0 straight, ≈1.4 a fist. */
  readonly curl: number;
  /** Extra curl of the index (negative: the index stays straighter, e.g. pointing). */
  readonly index?: number;
  /** Thumb across toward the palm (radians at its middle joint). */
  readonly thumb?: number;
}

/**
 * Bends the fingers of one hand toward the palm. In the VRM T-pose palms face down and the
 * fingers point along the arm (±X), so a curl is a turn about each joint's Z axis: negative on
 * the left hand, positive on the right. Bones a model lacks are simply not posed (the rig skips
 * them), so this is harmless on models without finger bones.
 */
export function curlFingers(pose: Pose, side: 'left' | 'right', { curl, index = 0, thumb = curl * 0.5 }: FingerCurl): void {
  const sign = side === 'left' ? -1 : 1;
  for (const finger of FINGERS) {
    const amount = curl * FINGER_SHARE[finger] + (finger === 'Index' ? index : 0);
    JOINTS.forEach((joint, j) => rotate(pose, `${side}${finger}${joint}` as PosedBone, 0, 0, sign * amount * JOINT_SHARE[j]));
  }
  // The thumb folds toward the palm (down, about Z) and across it (about Y, toward the body).
  rotate(pose, `${side}ThumbMetacarpal`, 0, -sign * thumb * 0.35, sign * thumb * 0.25);
  rotate(pose, `${side}ThumbProximal`, 0, 0, sign * thumb * 0.6);
  rotate(pose, `${side}ThumbDistal`, 0, 0, sign * thumb * 0.5);
}
