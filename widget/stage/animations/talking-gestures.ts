import { Quaternion, Vector3 } from 'three';
import { FRAME_BELOW_SHOULDERS } from '../camera-framing.js';
import type { AnimationContext, AvatarAnimation } from './avatar-animation.js';
import { curlFingers } from './finger-pose.js';
import { createPose } from './pose.js';
import { breathe, ease, hash01, lowerArms, rotate, saccades, wave } from './procedural-motion.js';
import { solveArmIk } from './two-bone-ik.js';

/** Length of one gesture phrase (s): the active hand opens out, beats, and comes back. */
const PHRASE = 2.4;
/**
 * Height of the wrists at rest in the gesture above the frame's bottom edge, in head-to-shoulder
 * distances: enough for the hand below the wrist and the perspective of hands held forward.
 */
const READY_ABOVE_FRAME = 0.9;

/**
 * Talking, animated: both forearms come up in front of the chest for as long as the avatar talks
 * and make beat gestures there (one hand leads each phrase, opening out and back), the head nods
 * on a speech-like beat and the torso leans into the words.
 *
 * The hands are placed by two-bone IK at heights measured in head-to-shoulder units, the unit
 * the camera framing uses (`FRAME_BELOW_SHOULDERS`), so the hands stay inside the stage on any
 * body and never cross its bottom edge while the avatar talks.
 */
export function createTalkingGestures({ rig, seed, body }: AnimationContext): AvatarAnimation {
  const rest = createPose();
  const headRest = rig.worldTransform(rest, 'head').position;
  const shoulderRest = rig.worldTransform(rest, 'leftUpperArm').position;
  const unit = Math.max(0.05, headRest.y - shoulderRest.y);
  const chestBone = rig.has('upperChest') ? 'upperChest' : rig.has('chest') ? 'chest' : 'spine';
  const chest = new Vector3();
  const chestRot = new Quaternion();
  const shoulder = new Vector3();
  const target = new Vector3();
  const handDir = new Vector3();
  const pole = new Vector3();
  return {
    name: 'talking_gestures',
    evaluate(time, pose) {
      const phrase = Math.floor(time / PHRASE);
      const local = (time - phrase * PHRASE) / PHRASE;
      // Envelope of the phrase's gesture: out, hold with beats, back.
      const envelope = ease(local / 0.3) * (1 - ease((local - 0.65) / 0.35));
      const which = hash01(phrase, seed);
      const left = which < 0.4 ? 1 : which < 0.7 ? 0.3 : 0.75;
      const right = which < 0.4 ? 0.3 : which < 0.7 ? 1 : 0.75;
      const beat = Math.max(0, Math.sin(2 * Math.PI * 2.1 * time + seed));

      lowerArms(pose, body, 0.05, 0.3);
      breathe(pose, time, 0.6, 0.3);
      rotate(pose, 'spine', -0.015 * envelope, 0.05 * (right - left) * envelope, 0);
      rotate(pose, 'chest', 0.01 * beat, 0.02 * wave(time, seed + 3, 0.3), 0);

      rig.worldTransform(pose, chestBone, chest, chestRot);
      for (const [side, amount] of [['left', left], ['right', right]] as const) {
        const g = envelope * amount;
        const sign = side === 'left' ? 1 : -1;
        rig.worldTransform(pose, `${side}UpperArm`, shoulder);
        // Ready position: wrist in front of the chest, a little inside the shoulder; the phrase's
        // gesture opens it outward and up, the beat dips it on the emphasis.
        const drift = wave(time, seed + (side === 'left' ? 11 : 13), 0.23, 0.37);
        target
          .set(sign * (-0.05 + 0.08 * g) + 0.01 * drift, unit * (READY_ABOVE_FRAME - FRAME_BELOW_SHOULDERS + 0.3 * g) - 0.012 * beat * (0.4 + g), 0.2 + 0.05 * g)
          .applyQuaternion(chestRot)
          .add(shoulder);
        // Elbows down and a little out; the hand points forward and up, turning out as it opens.
        pole.set(sign * 0.5, -1, -0.2).applyQuaternion(chestRot);
        handDir.set(sign * (-0.3 + 0.4 * g), 0.2 + 0.15 * g, 1).applyQuaternion(chestRot);
        solveArmIk(rig, pose, side, target, pole, handDir, -sign * (0.5 + 0.3 * g));
        curlFingers(pose, side, { curl: 0.3 - 0.2 * g, index: -0.1 * g, thumb: 0.15 });
      }

      // Nods: small downward beats on the emphasis, plus slow turns and tilts.
      rotate(pose, 'neck', 0.05 * beat * beat, 0.05 * wave(time, seed + 4, 0.13, 0.21), 0);
      rotate(pose, 'head', 0.04 * beat - 0.02, 0.04 * wave(time, seed + 5, 0.17), 0.05 * wave(time, seed + 6, 0.11, 0.07));
      saccades(pose, time, seed, 2, 2.2);
    },
  };
}
