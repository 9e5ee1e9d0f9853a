import type { Vec3 } from './vec3.js';

/** A colour written in the character descriptions as `#rrggbb` (sRGB). */
export type Hex = `#${string}`;

/** sRGB hex → linear RGB (glTF vertex colours are linear). */
export function hexToLinear(hex: Hex): Vec3 {
  const n = Number.parseInt(hex.slice(1), 16);
  const channel = (v: number): number => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return [channel((n >> 16) & 255), channel((n >> 8) & 255), channel(n & 255)];
}

/** Linear-space blend of two linear colours. */
export function mixColor(a: Vec3, b: Vec3, t: number): Vec3 {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

/** Multiplies a linear colour (darker / tinted variants, e.g. brows from hair colour). */
export function shadeColor(a: Vec3, f: number): Vec3 {
  return [a[0] * f, a[1] * f, a[2] * f];
}
