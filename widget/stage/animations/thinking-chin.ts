import { Quaternion, Vector3 } from 'three';
import type { AnimationContext, AvatarAnimation } from './avatar-animation.js';
import { curlFingers } from './finger-pose.js';
import { breathe, lowerArms, rotate, rotateInParent, saccades, wave } from './procedural-motion.js';
import { solveArmIk } from './two-bone-ik.js';

/** Gap (m) kept between the hand and the head's measured volume: room for a tilt, a beard. */
const CLEARANCE = 0.03;

/**
 * Thinking: the right hand comes up under the chin as a loose fist (two-bone IK from the
 * shoulder), the left arm folds across the waist, the head tilts and the eyes look up and aside.
 *
 * The fist is placed from the head's measured volume (`BodyMeasures.head`), below the chin with
 * a gap, so the fingers never pass through the jaw whatever the head's shape or size; on models
 * without finger bones the flat hand is measured at full length.
 */
export function createThinkingChin({ rig, seed, body }: AnimationContext): AvatarAnimation {
  const head = new Vector3();
  const headRot = new Quaternion();
  const target = new Vector3();
  const pole = new Vector3(-0.2, -1, 0.5);
  const handUp = new Vector3();
  const box = body.head;
  // How far the hand reaches up from the wrist: a fist is about 60 % of the flat hand.
  const reach = body.handLength * (body.fingers ? 0.62 : 1);
  const chinX = (box.min.x + box.max.x) / 2;
  return {
    name: 'thinking_chin',
    evaluate(time, pose) {
      lowerArms(pose, body, 0, 0.3);
      // Left forearm across the waist, supporting the right elbow.
      rotateInParent(pose, 'leftUpperArm', -0.2, 0, 0.1);
      rotate(pose, 'leftUpperArm', 0.9, 0, 0);
      rotate(pose, 'leftLowerArm', 0, -1.5, 0);
      breathe(pose, time, 0.7, 0.2);
      rotate(pose, 'spine', 0.03, -0.04, 0);
      rotate(pose, 'chest', 0.02, 0, 0);
      rotate(pose, 'neck', 0.06, -0.08 + 0.02 * wave(time, seed, 0.1), 0);
      rotate(pose, 'head', 0.02 * wave(time, seed + 1, 0.13), 0.02 * wave(time, seed + 2, 0.08), 0.1 + 0.02 * wave(time, seed + 3, 0.09));

      // Wrist below the chin by the fist's height plus the gap, a little behind the face's front.
      rig.worldTransform(pose, 'head', head, headRot);
      target.set(chinX - 0.01, box.min.y - CLEARANCE - reach, box.max.z - 0.05).applyQuaternion(headRot).add(head);
      handUp.set(0.1, 1, 0.12).applyQuaternion(headRot);
      solveArmIk(rig, pose, 'right', target, pole, handUp, -1.4);
      curlFingers(pose, 'right', { curl: 1.25, index: 0.05, thumb: 0.7 });

      // Looking away on purpose: no eye contact while thinking.
      pose.eyeContact = 0;
      pose.lookYaw = 10 + 3 * wave(time, seed + 4, 0.2);
      pose.lookPitch = -14 + 2 * wave(time, seed + 5, 0.17);
      saccades(pose, time, seed, 2, 2.4);
    },
  };
}
