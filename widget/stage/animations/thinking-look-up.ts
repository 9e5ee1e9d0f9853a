import type { AnimationContext, AvatarAnimation } from './avatar-animation.js';
import { breathe, lowerArms, rotate, saccades, wave } from './procedural-motion.js';

/** Thinking: head tilted back and to the side, eyes up and drifting, as if searching memory. */
export function createThinkingLookUp({ seed, body }: AnimationContext): AvatarAnimation {
  return {
    name: 'thinking_look_up',
    evaluate(time, pose) {
      const drift = wave(time, seed, 0.07, 0.11);
      lowerArms(pose, body, 0, 0.3);
      breathe(pose, time, 0.8, 0.2);
      rotate(pose, 'spine', 0.01, 0.02 * drift, 0);
      rotate(pose, 'neck', -0.12, 0.08 * drift, 0);
      rotate(pose, 'head', -0.1, 0.06 * drift, -0.08 + 0.02 * wave(time, seed + 1, 0.09));
      // Searching memory, not the viewer: no eye contact while thinking.
      pose.eyeContact = 0;
      pose.lookYaw = 12 * drift;
      pose.lookPitch = -18 + 3 * wave(time, seed + 2, 0.13);
      saccades(pose, time, seed, 3, 1.9);
    },
  };
}
