import type { AnimationContext, AvatarAnimation } from './avatar-animation.js';
import { breathe, lowerArms, rotate, rotateInParent, saccades, wave } from './procedural-motion.js';

/** Talking, restrained: hands stay low and loosely together, gentle nods and tilts. */
export function createTalkingCalm({ seed, body }: AnimationContext): AvatarAnimation {
  return {
    name: 'talking_calm',
    evaluate(time, pose) {
      const beat = Math.max(0, Math.sin(2 * Math.PI * 1.6 * time + seed));
      const lift = 0.5 + 0.5 * wave(time, seed, 0.09);
      lowerArms(pose, body, 0, 0.35);
      // Forearms a little forward, hands loosely in front of the body.
      rotateInParent(pose, 'leftUpperArm', -0.12 * lift, 0, 0.05 * lift);
      rotateInParent(pose, 'rightUpperArm', -0.12 * lift, 0, -0.05 * lift);
      // Twist about the arm (same sign on both sides turns the forearms inward).
      rotate(pose, 'leftUpperArm', 0.6 * lift, 0, 0);
      rotate(pose, 'rightUpperArm', 0.6 * lift, 0, 0);
      rotate(pose, 'leftLowerArm', 0, -0.45 * lift, 0);
      rotate(pose, 'rightLowerArm', 0, 0.45 * lift, 0);
      breathe(pose, time, 0.7, 0.28);
      rotate(pose, 'spine', 0, 0.015 * wave(time, seed + 1, 0.1), 0);
      rotate(pose, 'neck', 0.025 * beat * beat, 0.03 * wave(time, seed + 2, 0.12), 0);
      rotate(pose, 'head', 0.02 * beat - 0.01, 0.025 * wave(time, seed + 3, 0.15), 0.04 * wave(time, seed + 4, 0.08, 0.05));
      saccades(pose, time, seed, 2, 2.6);
    },
  };
}
