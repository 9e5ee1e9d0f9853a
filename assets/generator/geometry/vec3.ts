/**
 * Minimal immutable 3-vector helpers. Tuples keep the generator free of dependencies and make
 * every intermediate value a plain, deterministic number triple.
 */
export type Vec3 = readonly [number, number, number];

export const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
export const length = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);
export const lerp = (a: Vec3, b: Vec3, t: number): Vec3 => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];

/** Unit vector in the direction of `a`; `fallback` when `a` is (nearly) zero. */
export function normalize(a: Vec3, fallback: Vec3 = [0, 1, 0]): Vec3 {
  const l = length(a);
  return l < 1e-12 ? fallback : [a[0] / l, a[1] / l, a[2] / l];
}

/** Hermite smoothstep from 0 at `e0` to 1 at `e1` (either order). */
export function smoothstep(e0: number, e1: number, x: number): number {
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
}

export const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
export const mix = (a: number, b: number, t: number): number => a + (b - a) * t;

/**
 * Piecewise smooth curve through `(x, y)` keys (sorted by x): smoothstep between neighbours,
 * constant outside. Used for body profiles (width by height, radius along a limb).
 */
export function profile(keys: readonly (readonly [number, number])[], x: number): number {
  const first = keys[0]!;
  const last = keys[keys.length - 1]!;
  if (x <= first[0]) return first[1];
  if (x >= last[0]) return last[1];
  for (let i = 1; i < keys.length; i++) {
    const a = keys[i - 1]!;
    const b = keys[i]!;
    if (x <= b[0]) {
      const t = (x - a[0]) / (b[0] - a[0]);
      // Cosine easing keeps the curve's slope continuous at the keys.
      return mix(a[1], b[1], (1 - Math.cos(Math.PI * t)) / 2);
    }
  }
  return last[1];
}
