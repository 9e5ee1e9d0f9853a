import { Quaternion, Vector3 } from 'three';
import type { AnimationContext, AvatarAnimation } from './avatar-animation.js';
import { curlFingers, fingerReach } from './finger-pose.js';
import { breathe, lowerArms, rotate, rotateInParent, saccades, wave } from './procedural-motion.js';
import { solveArmIk } from './two-bone-ik.js';

/** The thinking hand: a loose fist, the thumb folded alongside. */
const FIST = { curl: 1.25, index: 0.05, thumb: 0.7 } as const;
/** The palm alone, wrist to knuckles, as a share of the whole hand: a floor for the fist's reach. */
const PALM_SHARE = 0.45;

/** Gap (m) aimed for between the fist and the chin; the head's forward tilt adds ≈ 2 cm to it. */
const CLEARANCE = 0.005;

/**
 * Thinking: the right hand comes up under the chin as a loose fist (two-bone IK from the
 * shoulder), the left arm folds across the waist, the head tilts and the eyes look up and aside.
 *
 * The fist is placed from the head's measured volume (`BodyMeasures.head`), below the chin with
 * a gap, so the fingers never pass through the jaw whatever the head's shape or size. The fist's
 * height comes from the curled finger bones (`fingerReach`); on models without finger bones the
 * flat hand counts at full length.
 */
export function createThinkingChin({ rig, seed, body }: AnimationContext): AvatarAnimation {
  const head = new Vector3();
  const headRot = new Quaternion();
  const target = new Vector3();
  const pole = new Vector3(-0.2, -1, 0.5);
  const handUp = new Vector3();
  const box = body.head;
  const chinX = (box.min.x + box.max.x) / 2;
  return {
    name: 'thinking_chin',
    evaluate(time, pose) {
      lowerArms(pose, body, 0, 0.3);
      // Left forearm across the waist, supporting the right elbow.
      rotateInParent(pose, 'leftUpperArm', -0.55, 0, 0.1);
      rotate(pose, 'leftUpperArm', 0.9, 0, 0);
      rotate(pose, 'leftLowerArm', 0, -1.5, 0);
      breathe(pose, time, 0.7, 0.2);
      rotate(pose, 'spine', 0.03, -0.04, 0);
      rotate(pose, 'chest', 0.02, 0, 0);
      rotate(pose, 'neck', 0.06, -0.08 + 0.02 * wave(time, seed, 0.1), 0);
      rotate(pose, 'head', 0.02 * wave(time, seed + 1, 0.13), 0.02 * wave(time, seed + 2, 0.08), 0.1 + 0.02 * wave(time, seed + 3, 0.09));

      // Wrist below the chin by the fist's height plus the gap, a little behind the face's front.
      curlFingers(pose, 'right', FIST);
      // How far the fist reaches up from the wrist (finger bones), else the flat hand's length.
      const reach = Math.max(fingerReach(rig, pose, 'right') ?? body.handLength, PALM_SHARE * body.handLength);
      rig.worldTransform(pose, 'head', head, headRot);
      // Forward enough for the fist to stay in front of the chest (a hand's thickness past it).
      const forward = Math.max(box.max.z - 0.05, body.chestFront + 0.05);
      target.set(chinX - 0.01, box.min.y - CLEARANCE - reach, forward).applyQuaternion(headRot).add(head);
      handUp.set(0.1, 1, 0.12).applyQuaternion(headRot);
      solveArmIk(rig, pose, 'right', target, pole, handUp, -1.4);

      // Looking away on purpose: no eye contact while thinking.
      pose.eyeContact = 0;
      pose.lookYaw = 10 + 3 * wave(time, seed + 4, 0.2);
      pose.lookPitch = -14 + 2 * wave(time, seed + 5, 0.17);
      saccades(pose, time, seed, 2, 2.4);
    },
  };
}
