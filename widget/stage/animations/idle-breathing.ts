import type { AnimationContext, AvatarAnimation } from './avatar-animation.js';
import { breathe, lowerArms, rotate, saccades, wave } from './procedural-motion.js';

/** Idle: standing still, arms down, calm breathing, tiny head drift and eye saccades. */
export function createIdleBreathing({ seed, body }: AnimationContext): AvatarAnimation {
  return {
    name: 'idle_breathing',
    evaluate(time, pose) {
      lowerArms(pose, body, 0.02 * wave(time, seed, 0.21), 0.22 + 0.03 * wave(time, seed + 1, 0.17));
      breathe(pose, time, 1);
      rotate(pose, 'spine', 0, 0.01 * wave(time, seed, 0.07, 0.11), 0.008 * wave(time, seed + 2, 0.09));
      rotate(pose, 'neck', 0.02 * wave(time, seed + 3, 0.13, 0.05), 0.04 * wave(time, seed + 4, 0.08, 0.03), 0);
      rotate(pose, 'head', 0.015 * wave(time, seed + 5, 0.19), 0.03 * wave(time, seed + 6, 0.1), 0.025 * wave(time, seed + 7, 0.07, 0.12));
      saccades(pose, time, seed, 3, 1.8);
    },
  };
}
