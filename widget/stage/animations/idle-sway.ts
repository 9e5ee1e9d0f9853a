import type { AnimationContext, AvatarAnimation } from './avatar-animation.js';
import { breathe, lowerArms, rotate, saccades, wave } from './procedural-motion.js';

/** Idle: a slow weight shift from side to side, the head counter-balancing, glances around. */
export function createIdleSway({ seed, body }: AnimationContext): AvatarAnimation {
  return {
    name: 'idle_sway',
    evaluate(time, pose) {
      const sway = wave(time, seed, 0.11, 0.17);
      lowerArms(pose, body, 0.03 + 0.02 * sway, 0.25);
      // The arms hang: counter the torso roll at the upper arms so they stay vertical.
      rotate(pose, 'leftUpperArm', 0, 0, -0.05 * sway);
      rotate(pose, 'rightUpperArm', 0, 0, -0.05 * sway);
      breathe(pose, time, 0.9, 0.23);
      rotate(pose, 'hips', 0, 0.03 * wave(time, seed + 1, 0.07), 0.03 * sway);
      rotate(pose, 'spine', 0, 0.02 * wave(time, seed + 2, 0.09), -0.02 * sway);
      rotate(pose, 'chest', 0, 0, -0.015 * sway);
      rotate(pose, 'neck', 0.02 * wave(time, seed + 3, 0.12), 0.06 * wave(time, seed + 4, 0.05, 0.08), -0.02 * sway);
      rotate(pose, 'head', 0.02 * wave(time, seed + 5, 0.15), 0.03 * wave(time, seed + 6, 0.09), 0.05 * wave(time, seed + 7, 0.06, 0.1));
      saccades(pose, time, seed, 6, 1.4);
    },
  };
}
