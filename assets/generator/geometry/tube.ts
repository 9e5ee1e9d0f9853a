import { add, cross, dot, normalize, scale, sub, type Vec3 } from './vec3.js';

/** One cross-section of a tube: centre and half extents across the tube. */
export interface TubeRing {
  readonly center: Vec3;
  /** Half extent along the ring's side axis (perpendicular to `up`). */
  readonly rx: number;
  /** Half extent along the ring's up axis. */
  readonly ry: number;
}

/** Rings + poles for a lofted tube, ready for a {@link GridSurface}. */
export interface TubeRows {
  readonly rows: Vec3[][];
  readonly startPole?: Vec3;
  readonly endPole?: Vec3;
}

/**
 * Lofts elliptical rings along a path. `upHint` fixes the ring orientation (it only has to be
 * non-parallel to the path). `exponent` > 2 squares the section off (superellipse).
 * With `caps`, each end gets a rounded dome (extra shrinking rings and a pole).
 */
export function tubeRows(
  rings: readonly TubeRing[],
  cols: number,
  upHint: Vec3,
  opts: { readonly caps?: boolean; readonly exponent?: number; readonly phase?: number } = {},
): TubeRows {
  const n = rings.length;
  const e = opts.exponent ?? 2;
  const tangent = (i: number): Vec3 =>
    normalize(sub(rings[Math.min(n - 1, i + 1)]!.center, rings[Math.max(0, i - 1)]!.center), [1, 0, 0]);
  const frame = (i: number): { t: Vec3; u: Vec3; s: Vec3 } => {
    const t = tangent(i);
    const u = normalize(sub(upHint, scale(t, dot(upHint, t))));
    return { t, u, s: cross(u, t) };
  };
  const ringAt = (r: TubeRing, f: { u: Vec3; s: Vec3 }, shrink: number): Vec3[] =>
    Array.from({ length: cols }, (_, j) => {
      const a = (2 * Math.PI * j) / cols + (opts.phase ?? 0);
      const c = Math.cos(a);
      const sn = Math.sin(a);
      const pc = Math.sign(c) * Math.abs(c) ** (2 / e);
      const ps = Math.sign(sn) * Math.abs(sn) ** (2 / e);
      return add(r.center, add(scale(f.s, pc * r.rx * shrink), scale(f.u, ps * r.ry * shrink)));
    });

  const rows: Vec3[][] = [];
  const domeSteps = [0.45, 0.75, 0.93] as const;
  if (opts.caps) {
    const r = rings[0]!;
    const f = frame(0);
    const depth = Math.min(r.rx, r.ry);
    for (const s of domeSteps) {
      const back = depth * Math.sqrt(1 - s * s);
      rows.push(ringAt({ ...r, center: sub(r.center, scale(f.t, back)) }, f, s));
    }
  }
  rings.forEach((r, i) => rows.push(ringAt(r, frame(i), 1)));
  if (opts.caps) {
    const r = rings[n - 1]!;
    const f = frame(n - 1);
    const depth = Math.min(r.rx, r.ry);
    for (const s of [...domeSteps].reverse()) {
      const fwd = depth * Math.sqrt(1 - s * s);
      rows.push(ringAt({ ...r, center: add(r.center, scale(f.t, fwd)) }, f, s));
    }
    const first = rings[0]!;
    const f0 = frame(0);
    return {
      rows,
      startPole: sub(first.center, scale(f0.t, Math.min(first.rx, first.ry))),
      endPole: add(r.center, scale(f.t, depth)),
    };
  }
  return { rows };
}
