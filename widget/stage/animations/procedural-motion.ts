import { Euler, Quaternion } from 'three';
import type { BodyMeasures } from './body-measures.js';
import { curlFingers } from './finger-pose.js';
import type { Pose, PosedBone } from './pose.js';

/**
 * Building blocks shared by the procedural animations: smooth pseudo-random motion, the arms
 * lowered from the T-pose, breathing, and eye saccades. Everything is a pure function of time
 * (plus a per-animation seed), so an animation needs no per-frame state.
 */

const _euler = new Euler();
const _q = new Quaternion();

/** Smooth organic motion in −1…1: a sum of sines at unrelated frequencies (Hz), offset by `seed`. */
export function wave(time: number, seed: number, ...frequencies: number[]): number {
  let sum = 0;
  for (let i = 0; i < frequencies.length; i++) sum += Math.sin(2 * Math.PI * frequencies[i]! * time + seed * (i + 1) * 1.618);
  return sum / Math.max(1, frequencies.length);
}

/** Deterministic hash of an integer slot and a seed to 0…1. */
export function hash01(slot: number, seed: number): number {
  const x = Math.sin(slot * 127.1 + seed * 311.7) * 43758.5453;
  return x - Math.floor(x);
}

/** Smoothstep 0…1. */
export function ease(t: number): number {
  const c = Math.max(0, Math.min(1, t));
  return c * c * (3 - 2 * c);
}

/**
 * Turns `bone` about its own (already posed) axes: Euler angles in radians, XYZ. For an arm that
 * is already lowered, X is then a twist along the arm.
 */
export function rotate(pose: Pose, bone: PosedBone, x: number, y: number, z: number): void {
  _q.setFromEuler(_euler.set(x, y, z, 'XYZ'));
  pose.bones[bone].multiply(_q);
}

/**
 * Turns `bone` about its parent's axes (world-aligned at rest): for a lowered arm, X swings it
 * forward (negative) or back, whatever it was posed to before.
 */
export function rotateInParent(pose: Pose, bone: PosedBone, x: number, y: number, z: number): void {
  _q.setFromEuler(_euler.set(x, y, z, 'XYZ'));
  pose.bones[bone].premultiply(_q);
}

/**
 * Arms down beside the body from the T-pose: the upper arms hang at the angle where they just
 * clear the torso (measured per model), elbows slightly bent forward, wrists and fingers relaxed
 * (a loose natural curl where the model has finger bones). `spread` (radians) opens the arms.
 */
export function lowerArms(pose: Pose, body: BodyMeasures, spread = 0, elbowBend = 0.25): void {
  const down = Math.PI / 2 - body.armClearance - 0.08;
  rotate(pose, 'leftShoulder', 0, 0, -0.08);
  rotate(pose, 'rightShoulder', 0, 0, 0.08);
  rotate(pose, 'leftUpperArm', -0.06, 0, -down + spread);
  rotate(pose, 'rightUpperArm', -0.06, 0, down - spread);
  // Forearms bend forward about the bone's local Y (the arm points along ±X in its own frame).
  rotate(pose, 'leftLowerArm', 0, -elbowBend, 0);
  rotate(pose, 'rightLowerArm', 0, elbowBend, 0);
  rotate(pose, 'leftHand', 0, 0, -0.08);
  rotate(pose, 'rightHand', 0, 0, 0.08);
  curlFingers(pose, 'left', RELAXED_HAND);
  curlFingers(pose, 'right', RELAXED_HAND);
}

/** A hand at rest: fingers loosely bent, the index a touch straighter. */
const RELAXED_HAND = { curl: 0.35, index: -0.08, thumb: 0.2 } as const;

/** Breathing (~15 breaths a minute): chest rises, shoulders lift a touch. `depth` scales it. */
export function breathe(pose: Pose, time: number, depth = 1, rate = 0.25): void {
  const b = (Math.sin(2 * Math.PI * rate * time) * 0.5 + 0.5) * depth;
  rotate(pose, 'spine', -0.012 * b, 0, 0);
  rotate(pose, 'chest', -0.02 * b, 0, 0);
  rotate(pose, 'upperChest', -0.015 * b, 0, 0);
  rotate(pose, 'neck', 0.03 * b, 0, 0);
  rotate(pose, 'leftShoulder', 0, 0, 0.025 * b);
  rotate(pose, 'rightShoulder', 0, 0, -0.025 * b);
}

/**
 * Small eye jumps (saccades) to random nearby points every `interval` seconds on average, with a
 * quick 60 ms move; `range` in degrees. Adds to the pose's gaze.
 */
export function saccades(pose: Pose, time: number, seed: number, range = 4, interval = 1.6): void {
  const slot = Math.floor(time / interval);
  const local = time - slot * interval;
  const target = (s: number) => [(hash01(s, seed) * 2 - 1) * range, (hash01(s, seed + 7) * 2 - 1) * range * 0.6] as const;
  const [y0, p0] = target(slot - 1);
  const [y1, p1] = target(slot);
  const t = ease(local / 0.06);
  pose.lookYaw += y0 + (y1 - y0) * t;
  pose.lookPitch += p0 + (p1 - p0) * t;
}
