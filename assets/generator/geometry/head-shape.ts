import { add, normalize, scale, smoothstep, type Vec3 } from './vec3.js';

/** Parameters of the sculpted head: where it is, how big, how it tapers to the chin. */
export interface HeadShapeOptions {
  readonly center: Vec3;
  readonly radius: number;
  /** 0 = narrow pointed chin (stylised female), 1 = broad square jaw. */
  readonly jaw: number;
  /** Height of the nose bump (face units). */
  readonly nose: number;
}

/**
 * The head as an implicit surface f(q) = 1 in head units (q = (p - center) / radius): an ellipsoid
 * whose width and depth taper towards a forward chin, with cheek fullness, a fuller back of the
 * skull and a small nose. Face features are projected onto it, so eyes and mouth hug the surface.
 */
export class HeadShape {
  constructor(readonly options: HeadShapeOptions) {}

  /** < 1 inside, > 1 outside, ~quadratic in distance from the centre. */
  field(q: Vec3): number {
    const [x, y, z] = q;
    const { jaw, nose } = this.options;
    const lower = smoothstep(0.05, -1.05, y);
    const cheek = 0.06 * Math.exp(-(((y + 0.32) / 0.28) ** 2));
    const ax = (1 + cheek) * (1 - (0.36 - 0.2 * jaw) * lower ** 1.5);
    const ay = y > 0 ? 1.1 : 1.02;
    const az = 1.0 - 0.08 * lower - 0.04 * smoothstep(0.3, -0.5, x * x);
    const zoff = 0.07 * lower ** 1.2 - 0.05 * smoothstep(-0.3, 0.6, y) * smoothstep(0.2, -0.6, z);
    let f = (x / ax) ** 2 + (y / ay) ** 2 + ((z - zoff) / az) ** 2;
    // Nose: a soft bump on the front of the face.
    f -= nose * Math.exp(-((x / 0.075) ** 2) - ((y + 0.3) / 0.13) ** 2) * smoothstep(0.4, 0.9, z);
    // Brow ridge: a faint shelf above the eyes.
    f -= 0.03 * Math.exp(-(((y - 0.12) / 0.09) ** 2)) * smoothstep(0.5, 0.9, z) * smoothstep(0.7, 0.2, Math.abs(x));
    return f;
  }

  /** Surface point in the direction `dir` (head units, from the centre). */
  surfaceLocal(dir: Vec3): Vec3 {
    const d = normalize(dir);
    let lo = 0;
    let hi = 2.5;
    for (let k = 0; k < 40; k++) {
      const mid = (lo + hi) / 2;
      if (this.field(scale(d, mid)) < 1) lo = mid;
      else hi = mid;
    }
    return scale(d, (lo + hi) / 2);
  }

  /** World-space surface point in direction `dir`, pushed out by `offset` (head units). */
  surface(dir: Vec3, offset = 0): Vec3 {
    const q = this.surfaceLocal(dir);
    const n = this.normalLocal(q);
    return this.toWorld(add(q, scale(n, offset)));
  }

  normalLocal(q: Vec3): Vec3 {
    const h = 1e-4;
    const g: Vec3 = [
      this.field([q[0] + h, q[1], q[2]]) - this.field([q[0] - h, q[1], q[2]]),
      this.field([q[0], q[1] + h, q[2]]) - this.field([q[0], q[1] - h, q[2]]),
      this.field([q[0], q[1], q[2] + h]) - this.field([q[0], q[1], q[2] - h]),
    ];
    return normalize(g, [0, 0, 1]);
  }

  toWorld(q: Vec3): Vec3 {
    return add(this.options.center, scale(q, this.options.radius));
  }

  /**
   * Projects face coordinates (u right-to-left of the viewer = +X, v up, head units) onto the
   * front of the head, `offset` head units above the skin. Returns world position and normal.
   */
  project(u: number, v: number, offset: number): { position: Vec3; normal: Vec3 } {
    let lo = 0;
    let hi = 2.5;
    for (let k = 0; k < 40; k++) {
      const mid = (lo + hi) / 2;
      if (this.field([u, v, mid]) < 1) lo = mid;
      else hi = mid;
    }
    const q: Vec3 = [u, v, (lo + hi) / 2];
    const normal = this.normalLocal(q);
    return { position: this.toWorld(add(q, scale(normal, offset))), normal };
  }
}

/** Unit direction from spherical angles: theta from +Y (top), phi around Y from +Z (front) to +X. */
export function sphereDir(theta: number, phi: number): Vec3 {
  return [Math.sin(theta) * Math.sin(phi), Math.cos(theta), Math.sin(theta) * Math.cos(phi)];
}
