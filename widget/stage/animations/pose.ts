import { Quaternion } from 'three';

/**
 * The normalized humanoid bones the procedural animations drive, fingers included (posed only
 * when the model has them). Legs are left at rest: the stage frames head and shoulders.
 */
export const PosedBones = [
  'hips',
  'spine',
  'chest',
  'upperChest',
  'neck',
  'head',
  'leftShoulder',
  'leftUpperArm',
  'leftLowerArm',
  'leftHand',
  'rightShoulder',
  'rightUpperArm',
  'rightLowerArm',
  'rightHand',
  ...fingerBones('left'),
  ...fingerBones('right'),
] as const;

/** The VRM 1.0 finger bones of one hand, root to tip per finger (all optional in a model). */
function fingerBones<S extends 'left' | 'right'>(side: S) {
  return [
    `${side}ThumbMetacarpal`,
    `${side}ThumbProximal`,
    `${side}ThumbDistal`,
    `${side}IndexProximal`,
    `${side}IndexIntermediate`,
    `${side}IndexDistal`,
    `${side}MiddleProximal`,
    `${side}MiddleIntermediate`,
    `${side}MiddleDistal`,
    `${side}RingProximal`,
    `${side}RingIntermediate`,
    `${side}RingDistal`,
    `${side}LittleProximal`,
    `${side}LittleIntermediate`,
    `${side}LittleDistal`,
  ] as const;
}

export type PosedBone = (typeof PosedBones)[number];

/**
 * One frame of an animation: local rotations of normalized bones (identity = T-pose rest), gaze
 * (degrees, three-vrm's convention: positive yaw toward the model's left, negative pitch up) and
 * an extra blink (0…1) for animations that close the eyes on purpose.
 *
 * `eyeContact` (0…1) is how much the gaze starts from the viewer: the stage turns the eyes toward
 * the camera by that much, then adds `lookYaw` / `lookPitch` (saccades, glances). An animation
 * that looks away on purpose (thinking) lowers it.
 */
export interface Pose {
  readonly bones: Record<PosedBone, Quaternion>;
  lookYaw: number;
  lookPitch: number;
  blink: number;
  eyeContact: number;
}

export function createPose(): Pose {
  const bones = {} as Record<PosedBone, Quaternion>;
  for (const b of PosedBones) bones[b] = new Quaternion();
  return { bones, lookYaw: 0, lookPitch: 0, blink: 0, eyeContact: 1 };
}

/** Back to the rest pose (in place). */
export function resetPose(pose: Pose): Pose {
  for (const b of PosedBones) pose.bones[b].identity();
  pose.lookYaw = 0;
  pose.lookPitch = 0;
  pose.blink = 0;
  pose.eyeContact = 1;
  return pose;
}

export function copyPose(from: Pose, to: Pose): Pose {
  for (const b of PosedBones) to.bones[b].copy(from.bones[b]);
  to.lookYaw = from.lookYaw;
  to.lookPitch = from.lookPitch;
  to.blink = from.blink;
  to.eyeContact = from.eyeContact;
  return to;
}

/** `out = a → b` at `t` (slerp for bones, lerp for the rest). `out` may be `a` or `b`. */
export function blendPoses(a: Pose, b: Pose, t: number, out: Pose): Pose {
  for (const bone of PosedBones) {
    // slerpQuaternions copies its first argument into `out` first: mind the aliasing.
    if (out === b) out.bones[bone].slerp(a.bones[bone], 1 - t);
    else out.bones[bone].slerpQuaternions(a.bones[bone], b.bones[bone], t);
  }
  out.lookYaw = a.lookYaw + (b.lookYaw - a.lookYaw) * t;
  out.lookPitch = a.lookPitch + (b.lookPitch - a.lookPitch) * t;
  out.blink = a.blink + (b.blink - a.blink) * t;
  out.eyeContact = a.eyeContact + (b.eyeContact - a.eyeContact) * t;
  return out;
}
