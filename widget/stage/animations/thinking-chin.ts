import { Quaternion, Vector3 } from 'three';
import type { AnimationContext, AvatarAnimation } from './avatar-animation.js';
import { breathe, lowerArms, rotate, rotateInParent, saccades, wave } from './procedural-motion.js';
import { solveArmIk } from './two-bone-ik.js';

/**
 * Thinking: the right hand comes up under the chin (two-bone IK from the shoulder), the left arm
 * folds across the waist, the head tilts and the eyes look up and aside.
 */
export function createThinkingChin({ rig, seed }: AnimationContext): AvatarAnimation {
  const head = new Vector3();
  const headRot = new Quaternion();
  const target = new Vector3();
  const pole = new Vector3(-0.2, -1, 0.5);
  const handUp = new Vector3();
  return {
    name: 'thinking_chin',
    evaluate(time, pose) {
      lowerArms(pose, 0, 0.3);
      // Left forearm across the waist, supporting the right elbow.
      rotateInParent(pose, 'leftUpperArm', -0.2, 0, 0.1);
      rotate(pose, 'leftUpperArm', 0.9, 0, 0);
      rotate(pose, 'leftLowerArm', 0, -1.5, 0);
      breathe(pose, time, 0.7, 0.2);
      rotate(pose, 'spine', 0.03, -0.04, 0);
      rotate(pose, 'chest', 0.02, 0, 0);
      rotate(pose, 'neck', 0.06, -0.08 + 0.02 * wave(time, seed, 0.1), 0);
      rotate(pose, 'head', 0.02 * wave(time, seed + 1, 0.13), 0.02 * wave(time, seed + 2, 0.08), 0.12 + 0.02 * wave(time, seed + 3, 0.09));

      // Wrist a hand's length below the chin and slightly forward, fingers up to the chin.
      rig.worldTransform(pose, 'head', head, headRot);
      target.set(-0.01, -0.115, 0.1).applyQuaternion(headRot).add(head);
      handUp.set(0.2, 1, 0.3).applyQuaternion(headRot);
      solveArmIk(rig, pose, 'right', target, pole, handUp, -1.4);

      pose.lookYaw = 10 + 3 * wave(time, seed + 4, 0.2);
      pose.lookPitch = -14 + 2 * wave(time, seed + 5, 0.17);
      saccades(pose, time, seed, 2, 2.4);
    },
  };
}
