import type { Vec3 } from './vec3.js';

/**
 * Surface colour of a vertex as a position `t` on a two-colour ramp. MToon (per the VRM spec)
 * ignores vertex colours, so colours live in a small ramp texture: one row per ramp, and a
 * triangle whose vertices share a ramp interpolates exactly like a vertex-colour gradient would.
 */
export interface Paint {
  readonly ramp: readonly [Vec3, Vec3];
  readonly t: number;
}

/** A flat colour. */
export const flat = (c: Vec3): Paint => ({ ramp: [c, c], t: 0 });
