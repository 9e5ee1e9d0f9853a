import type { AnimationContext, AvatarAnimation } from './avatar-animation.js';
import { breathe, ease, hash01, lowerArms, rotate, rotateInParent, saccades, wave } from './procedural-motion.js';

/** Length of one gesture phrase (s): a hand comes up, beats, and settles. */
const PHRASE = 2.4;

/**
 * Talking, animated: head nods on a speech-like beat, forearms come up into beat gestures that
 * alternate between hands, the torso leans into the words.
 */
export function createTalkingGestures({ seed }: AnimationContext): AvatarAnimation {
  return {
    name: 'talking_gestures',
    evaluate(time, pose) {
      const phrase = Math.floor(time / PHRASE);
      const local = (time - phrase * PHRASE) / PHRASE;
      // Envelope of the phrase's gesture: up, hold with beats, down.
      const envelope = ease(local / 0.25) * (1 - ease((local - 0.7) / 0.3));
      const which = hash01(phrase, seed);
      const left = which < 0.4 ? 1 : which < 0.7 ? 0.35 : 0.8;
      const right = which < 0.4 ? 0.35 : which < 0.7 ? 1 : 0.8;
      const beat = Math.max(0, Math.sin(2 * Math.PI * 2.1 * time + seed));

      lowerArms(pose, 0.05, 0.3);
      for (const [side, amount] of [['left', left], ['right', right]] as const) {
        const g = envelope * amount;
        const sign = side === 'left' ? 1 : -1;
        // Upper arm forward and a little out; forearm up toward the chest; palm turns in.
        rotateInParent(pose, `${side}UpperArm`, -0.55 * g - 0.06 * beat * g, 0, -sign * 0.04 * g);
        rotate(pose, `${side}UpperArm`, 0.35 * g, 0, 0); // twist: the forearm swings in toward the body
        rotate(pose, `${side}LowerArm`, 0, -sign * (1.05 * g + 0.2 * beat * g), 0);
        rotate(pose, `${side}Hand`, 0.3 * g * wave(time, seed + (side === 'left' ? 1 : 2), 0.7), 0, -sign * 0.15 * g);
      }

      breathe(pose, time, 0.6, 0.3);
      rotate(pose, 'spine', -0.015 * envelope, 0.05 * (right - left) * envelope, 0);
      rotate(pose, 'chest', 0.01 * beat, 0.02 * wave(time, seed + 3, 0.3), 0);
      // Nods: small downward beats on the emphasis, plus slow turns and tilts.
      rotate(pose, 'neck', 0.05 * beat * beat, 0.05 * wave(time, seed + 4, 0.13, 0.21), 0);
      rotate(pose, 'head', 0.04 * beat - 0.02, 0.04 * wave(time, seed + 5, 0.17), 0.05 * wave(time, seed + 6, 0.11, 0.07));
      saccades(pose, time, seed, 2, 2.2);
    },
  };
}
