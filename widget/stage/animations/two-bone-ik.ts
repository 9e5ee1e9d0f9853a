import { Quaternion, Vector3 } from 'three';
import type { HumanoidRig } from './humanoid-rig.js';
import type { Pose } from './pose.js';

const _shoulder = new Vector3();
const _parentRot = new Quaternion();
const _upperRot = new Quaternion();
const _toTarget = new Vector3();
const _pole = new Vector3();
const _elbow = new Vector3();
const _dir = new Vector3();
const _rest = new Vector3();
const _q = new Quaternion();
// Scratch objects only (no state survives a call), as three.js itself does to avoid garbage.

/**
 * Bends an arm (upper arm + lower arm) so its wrist reaches `target` (model space), with the
 * elbow pointing toward `pole`. Law of cosines for the elbow, then `setFromUnitVectors` from each
 * bone's rest direction — the lower arm's in the upper arm's frame, so the elbow is a pure bend.
 * Targets out of reach are clamped to a straight arm.
 */
export function solveArmIk(
  rig: HumanoidRig,
  pose: Pose,
  side: 'left' | 'right',
  target: Vector3,
  pole: Vector3,
  /** Where the hand (wrist → fingers) should point, in model space; omitted: it continues the forearm. */
  handDirection?: Vector3,
  /** Twist of the hand about its own length (radians), e.g. to turn the palm toward the face. */
  handTwist = 0,
): void {
  const upper = side === 'left' ? 'leftUpperArm' : 'rightUpperArm';
  const lower = side === 'left' ? 'leftLowerArm' : 'rightLowerArm';
  const hand = side === 'left' ? 'leftHand' : 'rightHand';
  const parent = rig.parentOf(upper);
  if (!rig.has(upper) || !rig.has(lower) || !parent) return;

  rig.worldTransform(pose, parent, _shoulder, _parentRot);
  _shoulder.add(rig.restOffset(upper, _rest).applyQuaternion(_parentRot));
  const l1 = rig.restOffset(lower).length();
  const l2 = rig.restOffset(hand).length();

  _toTarget.subVectors(target, _shoulder);
  const d = Math.min(Math.max(_toTarget.length(), Math.abs(l1 - l2) + 1e-4), l1 + l2 - 1e-4);
  _toTarget.normalize();
  // Angle at the shoulder between the target line and the upper arm.
  const cosA = (l1 * l1 + d * d - l2 * l2) / (2 * l1 * d);
  const a = Math.acos(Math.max(-1, Math.min(1, cosA)));
  // Pole component perpendicular to the target line: the plane the elbow bends in.
  _pole.copy(pole).addScaledVector(_toTarget, -pole.dot(_toTarget));
  if (_pole.lengthSq() < 1e-8) _pole.set(0, -1, 0).addScaledVector(_toTarget, _toTarget.y);
  _pole.normalize();
  _elbow.copy(_shoulder).addScaledVector(_toTarget, Math.cos(a) * l1).addScaledVector(_pole, Math.sin(a) * l1);

  // Upper arm: from its rest direction to the elbow, expressed in its parent's frame.
  _dir.subVectors(_elbow, _shoulder).normalize();
  rig.restOffset(lower, _rest).normalize();
  _upperRot.setFromUnitVectors(_rest, _dir);
  pose.bones[upper].copy(_q.copy(_parentRot).invert().multiply(_upperRot));

  // Lower arm: from its rest direction to the wrist target, in the upper arm's frame.
  _dir.copy(_shoulder).addScaledVector(_toTarget, d).sub(_elbow).normalize();
  _dir.applyQuaternion(_q.copy(_upperRot).invert());
  rig.restOffset(hand, _rest).normalize();
  pose.bones[lower].setFromUnitVectors(_rest, _dir);

  if (handDirection && rig.has(hand)) {
    // The hand's rest direction is the arm's (the T-pose arm is straight).
    _q.copy(_upperRot).multiply(pose.bones[lower]).invert();
    _dir.copy(handDirection).normalize().applyQuaternion(_q);
    pose.bones[hand].setFromUnitVectors(_rest, _dir);
    if (handTwist) pose.bones[hand].multiply(_q.setFromAxisAngle(_rest, handTwist));
  }
}
