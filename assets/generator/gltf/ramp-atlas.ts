import type { Paint } from '../geometry/paint.js';
import type { Vec3 } from '../geometry/vec3.js';
import { encodePng } from './png-encoder.js';

/** Texels per ramp row; each ramp also spans two texel rows so bilinear sampling never bleeds. */
const RAMP_WIDTH = 16;

/** Collects the ramps used by the mesh (first-use order) and maps paints to texture coordinates. */
export class RampAtlas {
  readonly #rows = new Map<string, number>();
  readonly #ramps: (readonly [Vec3, Vec3])[] = [];

  /** Registers the ramp of `paint` (if new). */
  add(paint: Paint): void {
    const key = rampKey(paint.ramp);
    if (this.#rows.has(key)) return;
    this.#rows.set(key, this.#ramps.length);
    this.#ramps.push(paint.ramp);
  }

  /** UV of `paint` inside the finished atlas (call after every paint was added). */
  uv(paint: Paint): readonly [number, number] {
    const row = this.#rows.get(rampKey(paint.ramp))!;
    const t = Math.min(1, Math.max(0, paint.t));
    return [(0.5 + t * (RAMP_WIDTH - 1)) / RAMP_WIDTH, (2 * row + 1) / this.height];
  }

  get height(): number {
    // Power of two keeps every sampler happy.
    let h = 2;
    while (h < this.#ramps.length * 2) h *= 2;
    return h;
  }

  /** The atlas as sRGB PNG bytes. */
  png(): Uint8Array {
    const h = this.height;
    const rgb = new Uint8Array(RAMP_WIDTH * h * 3);
    this.#ramps.forEach(([a, b], r) => {
      for (let x = 0; x < RAMP_WIDTH; x++) {
        const t = x / (RAMP_WIDTH - 1);
        const c = [0, 1, 2].map((i) => toSrgb8(a[i]! + (b[i]! - a[i]!) * t));
        for (const y of [2 * r, 2 * r + 1]) rgb.set(c, (y * RAMP_WIDTH + x) * 3);
      }
    });
    return encodePng(RAMP_WIDTH, h, rgb);
  }
}

const rampKey = (r: readonly [Vec3, Vec3]): string => `${r[0].join(',')}|${r[1].join(',')}`;

function toSrgb8(linear: number): number {
  const c = Math.min(1, Math.max(0, linear));
  const s = c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055;
  return Math.round(s * 255);
}
