import { add, lerp, normalize, scale, smoothstep, sub, type Vec3 } from './vec3.js';

/** Parameters of the sculpted head: where it is, how big, and the character's bone structure. */
export interface HeadShapeOptions {
  readonly center: Vec3;
  readonly radius: number;
  /** 0 = narrow pointed chin (stylised female), 1 = broad square jaw. */
  readonly jaw: number;
  /** Width of cheeks and jaw relative to the skull (1 = default). */
  readonly faceWidth: number;
  /** 0 = flat … 1 = high, full cheekbones. */
  readonly cheekbones: number;
  /** −1 short … 1 long, forward chin. */
  readonly chin: number;
  /** Nose length and height (1 = default). */
  readonly nose: number;
  /** Width of the nose tip and wings (1 = default). */
  readonly noseWidth: number;
}

/**
 * The head as an implicit surface f(q) = 1 in head units (q = (p - center) / radius): an ellipsoid
 * whose width and depth taper towards a forward chin, with cheekbones, a fuller back of the skull,
 * a brow ridge and a nose with wings. Face features are projected onto it, so eyes and mouth hug
 * the surface.
 */
export class HeadShape {
  constructor(readonly options: HeadShapeOptions) {}

  /** Height of the nose tip in face units (v), where the nose decals and the mouth take their cue. */
  get noseTipY(): number {
    return -0.36 - 0.035 * (this.options.nose - 1);
  }

  /** Height of the mouth line at rest in face units. */
  get mouthY(): number {
    return -0.56 - 0.03 * this.options.chin;
  }

  /**
   * < 1 inside, > 1 outside, ~quadratic in distance from the centre. Without `detail` the nose and
   * brow ridge are left out: the smooth base the shading normals are made from.
   */
  field(q: Vec3, detail = true): number {
    const [x, y, z] = q;
    const { jaw, faceWidth, cheekbones, chin } = this.options;
    const lower = smoothstep(0.05, -1.05, y);
    const front = smoothstep(-0.3, 0.5, z);
    const cheekY = -0.26 - 0.08 * (1 - cheekbones);
    const cheek = (0.025 + 0.065 * cheekbones) * Math.exp(-(((y - cheekY) / 0.24) ** 2)) * front;
    const width = 1 + (faceWidth - 1) * smoothstep(0.35, -0.35, y);
    // A pointed jaw tapers early and far (a V), a square one holds its width and turns late.
    const ax = width * (1 + cheek) * (1 - (0.44 - 0.26 * jaw) * lower ** (1.2 + 2.2 * jaw));
    const ay = y > 0 ? 1.1 : 1.08 + 0.07 * chin;
    const az = 1.0 - 0.08 * lower - 0.04 * smoothstep(0.3, -0.5, x * x);
    const zoff = (0.07 + 0.035 * chin) * lower ** 1.2 - 0.05 * smoothstep(-0.3, 0.6, y) * smoothstep(0.2, -0.6, z);
    let f = (x / ax) ** 2 + (y / ay) ** 2 + ((z - zoff) / az) ** 2;
    if (detail) f -= this.#nose(x, y, z) + this.#browRidge(x, y, z);
    return f;
  }

  /** Nose: a ridge that rises from the brows to the tip, then the tip and two wings. */
  #nose(x: number, y: number, z: number): number {
    const { nose, noseWidth } = this.options;
    const tip = this.noseTipY;
    const top = -0.1;
    const facing = smoothstep(0.4, 0.85, z);
    if (facing === 0) return 0;
    const t = Math.min(1, Math.max(0, (top - y) / (top - tip)));
    const along = y > tip ? t ** 1.6 : Math.exp(-(((y - tip) / 0.045) ** 2));
    const wx = (0.03 + 0.035 * t) * noseWidth;
    const ridge = 0.15 * nose * along * Math.exp(-((x / wx) ** 2));
    const wingX = 0.068 * noseWidth;
    const wings = 0.045 * nose * Math.exp(-(((Math.abs(x) - wingX) / 0.035) ** 2) - ((y - tip + 0.02) / 0.04) ** 2);
    return (ridge + wings) * facing;
  }

  /** A faint shelf above the eyes. */
  #browRidge(x: number, y: number, z: number): number {
    return 0.03 * Math.exp(-(((y - 0.12) / 0.09) ** 2)) * smoothstep(0.5, 0.9, z) * smoothstep(0.7, 0.2, Math.abs(x));
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

  /** Geometric normal of the surface at `q` (head units). */
  normalLocal(q: Vec3, detail = true): Vec3 {
    const h = 1e-4;
    const f = (p: Vec3): number => this.field(p, detail);
    const g: Vec3 = [
      f([q[0] + h, q[1], q[2]]) - f([q[0] - h, q[1], q[2]]),
      f([q[0], q[1] + h, q[2]]) - f([q[0], q[1] - h, q[2]]),
      f([q[0], q[1], q[2] + h]) - f([q[0], q[1], q[2] - h]),
    ];
    return normalize(g, [0, 0, 1]);
  }

  /**
   * Normal used for lighting. Toon shading turns every dip of the normal away from the light
   * into a hard shadow band, and the tapering jaw tilts the lower cheeks down and sideways: with
   * the stage's key light from above front-left that left a dark patch on the lower right cheek.
   * On the face the smooth base normal is bent toward the normal of a plain ball around a point
   * behind the mouth (the usual toon-face treatment), then the nose and brow detail is added
   * back so the nose still casts its small shadow.
   */
  shadingNormal(q: Vec3): Vec3 {
    const base = this.normalLocal(q, false);
    const full = this.normalLocal(q);
    const ball = normalize(sub(q, [0, -0.2, -0.9]));
    const face = smoothstep(-0.45, 0.35, q[2]) * smoothstep(0.3, -0.1, q[1]);
    const smooth = normalize(lerp(base, ball, 0.9 * face));
    return normalize(add(smooth, sub(full, base)));
  }

  toWorld(q: Vec3): Vec3 {
    return add(this.options.center, scale(q, this.options.radius));
  }

  /**
   * Projects face coordinates (u right-to-left of the viewer = +X, v up, head units) onto the
   * front of the head, `offset` head units above the skin. Returns world position and the
   * shading normal (so decals shade exactly like the skin under them).
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
    const normal = this.shadingNormal(q);
    return { position: this.toWorld(add(q, scale(this.normalLocal(q), offset))), normal };
  }
}

/** Unit direction from spherical angles: theta from +Y (top), phi around Y from +Z (front) to +X. */
export function sphereDir(theta: number, phi: number): Vec3 {
  return [Math.sin(theta) * Math.sin(phi), Math.cos(theta), Math.sin(theta) * Math.cos(phi)];
}

/**
 * `n + 1` samples of [a, b] spaced inversely to `density` (denser where it is larger), so the
 * head grid spends its vertices on the face rather than the back of the skull.
 */
export function warpedSamples(n: number, a: number, b: number, density: (x: number) => number): number[] {
  const steps = 2048;
  const cdf = [0];
  for (let i = 1; i <= steps; i++) {
    const x = a + ((b - a) * (i - 0.5)) / steps;
    cdf.push(cdf[i - 1]! + density(x));
  }
  const total = cdf[steps]!;
  const out: number[] = [];
  let k = 0;
  for (let i = 0; i <= n; i++) {
    const target = (total * i) / n;
    while (k < steps && cdf[k + 1]! < target) k++;
    const span = cdf[k + 1]! - cdf[k]!;
    const frac = span > 0 ? Math.min(1, Math.max(0, (target - cdf[k]!) / span)) : 0;
    out.push(a + ((b - a) * (k + frac)) / steps);
  }
  return out;
}
