import { Box3, Vector3 } from 'three';

/** Direction bins of the radial map: polar angle × azimuth (10° each). */
const POLAR = 18;
const AZIMUTH = 36;

/**
 * The head as a solid, in the head bone's frame, for "no hand inside the head": a radial map
 * around the centre of the head skin's bounds. For each direction (10° bins) it keeps the
 * farthest head skin vertex; a point is inside when it is nearer the centre than `shrink` times
 * that radius. A head (skull, face, jaw, chin) is star-shaped from its centre, so this follows
 * the jaw and chin closely, where a box or an ellipsoid is either far too big (the empty corners
 * beside the jaw, where a thinking hand rightly rests) or misses the jaw altogether. `shrink`
 * (default 0.95, ≈ 5 mm on a 10 cm radius) lets a hand touch the face without counting. Empty
 * bins (the neck opening) take the smallest radius of their non-empty neighbours, or 0.
 */
export class HeadVolume {
  readonly center: Vector3;
  readonly #radius: Float64Array;
  readonly #shrink: number;

  constructor(headSkin: readonly Vector3[], shrink = 0.95) {
    if (headSkin.length === 0) throw new Error('no head skin vertices (body-mtoon / face-mtoon weighted to the head bone)');
    this.center = new Box3().setFromPoints([...headSkin]).getCenter(new Vector3());
    this.#shrink = shrink;
    const radius = new Float64Array(POLAR * AZIMUTH);
    const d = new Vector3();
    for (const p of headSkin) {
      const bin = this.#bin(d.subVectors(p, this.center));
      radius[bin] = Math.max(radius[bin]!, d.length());
    }
    this.#radius = radius.map((r, bin) => {
      if (r > 0) return r;
      const i = Math.floor(bin / AZIMUTH);
      const j = bin % AZIMUTH;
      let min = Infinity;
      for (let di = -1; di <= 1; di++) {
        for (let dj = -1; dj <= 1; dj++) {
          const ii = i + di;
          if (ii < 0 || ii >= POLAR) continue;
          const n = radius[ii * AZIMUTH + ((j + dj + AZIMUTH) % AZIMUTH)]!;
          if (n > 0) min = Math.min(min, n);
        }
      }
      return Number.isFinite(min) ? min : 0;
    });
  }

  #bin(d: Vector3): number {
    const length = d.length() || 1;
    const polar = Math.acos(Math.max(-1, Math.min(1, d.y / length)));
    const azimuth = Math.atan2(d.x, d.z) + Math.PI;
    const i = Math.min(POLAR - 1, Math.floor((polar / Math.PI) * POLAR));
    const j = Math.min(AZIMUTH - 1, Math.floor((azimuth / (2 * Math.PI)) * AZIMUTH));
    return i * AZIMUTH + j;
  }

  /** Distance from the centre relative to the (shrunk) head surface in that direction: < 1 is inside. */
  depth(p: Vector3): number {
    const d = new Vector3().subVectors(p, this.center);
    const r = this.#radius[this.#bin(d)]! * this.#shrink;
    return r > 0 ? d.length() / r : Infinity;
  }

  /** Points of `points` inside the volume. */
  inside(points: readonly Vector3[]): number {
    let n = 0;
    for (const p of points) if (this.depth(p) < 1) n++;
    return n;
  }

  /** Extent of the volume per axis (for the figures): the farthest radius in ±x, ±y, ±z. */
  extent(): { min: number[]; max: number[] } {
    const axes = [new Vector3(1, 0, 0), new Vector3(0, 1, 0), new Vector3(0, 0, 1)];
    const at = (v: Vector3) => this.#radius[this.#bin(v)]! * this.#shrink;
    return {
      min: axes.map((a, k) => this.center.getComponent(k) - at(a.clone().negate())),
      max: axes.map((a, k) => this.center.getComponent(k) + at(a)),
    };
  }
}
