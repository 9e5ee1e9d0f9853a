import { Euler, Quaternion, Vector3 } from 'three';
import type { HumanoidRig } from './humanoid-rig.js';
import type { Pose, PosedBone } from './pose.js';

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

const _q = new Quaternion();
const _turn = new Quaternion();
const _euler = new Euler();

/** Turns `bone` about its own axes (as `rotate` in procedural-motion.ts, kept here to avoid a cycle). */
function turn(pose: Pose, bone: PosedBone, x: number, y: number, z: number): void {
  pose.bones[bone].multiply(_turn.setFromEuler(_euler.set(x, y, z, 'XYZ')));
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
    JOINTS.forEach((joint, j) => turn(pose, `${side}${finger}${joint}` as PosedBone, 0, 0, sign * amount * JOINT_SHARE[j]));
  }
  // The thumb points forward (+Z) from a palm-down hand: it folds under the palm about X (the
  // same way on both hands) and a little across it, toward the fingers, about Y.
  turn(pose, `${side}ThumbMetacarpal`, -thumb * 0.45, sign * thumb * 0.2, 0);
  turn(pose, `${side}ThumbProximal`, -thumb * 0.6, 0, 0);
  turn(pose, `${side}ThumbDistal`, -thumb * 0.5, 0, 0);
}

const _p = new Vector3();
const _step = new Vector3();
const _along = new Vector3();

/** Finger chains of a hand, thumb included, root to tip. */
const CHAINS = [['ThumbMetacarpal', 'ThumbProximal', 'ThumbDistal'], ...FINGERS.map((f) => JOINTS.map((j) => `${f}${j}`))] as const;

/**
 * How far the posed fingers of one hand reach past the wrist along the hand's length (metres),
 * from the rig's bone offsets and the finger rotations in `pose` (forward kinematics in the
 * hand's own frame), plus `thickness` for the flesh around the bones. The fingertip is taken
 * one last-segment length past the last joint. `undefined` when the model has no finger bones.
 */
export function fingerReach(rig: HumanoidRig, pose: Pose, side: 'left' | 'right', thickness = 0.012): number | undefined {
  const middle = `${side}MiddleProximal` as PosedBone;
  if (!rig.has(middle)) return undefined;
  rig.restOffset(middle, _along).normalize();
  let reach = 0;
  for (const chain of CHAINS) {
    _p.set(0, 0, 0);
    _q.identity();
    let last: PosedBone | undefined;
    for (const joint of chain) {
      const bone = `${side}${joint}` as PosedBone;
      if (!rig.has(bone)) break;
      // The segment from the parent joint, turned by the rotations above it.
      _p.add(rig.restOffset(bone, _step).applyQuaternion(_q));
      _q.multiply(pose.bones[bone]);
      reach = Math.max(reach, _p.dot(_along));
      last = bone;
    }
    // The tip: the last segment once more, turned by the last joint's own rotation too.
    if (last) reach = Math.max(reach, _p.add(rig.restOffset(last, _step).applyQuaternion(_q)).dot(_along));
  }
  return reach + thickness;
}
