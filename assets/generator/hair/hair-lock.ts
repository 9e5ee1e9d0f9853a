import type { BuildContext } from '../characters/build-context.js';
import { addGrid } from '../geometry/grid-surface.js';
import { add, cross, dot, length, normalize, scale, sub, type Vec3 } from '../geometry/vec3.js';
import type { SkinWeights } from '../skeleton/skin-weights.js';

/**
 * One lock of hair: a flat ribbon with thickness lofted along a centre line, its broad side
 * facing away from the head. Hair styles are built from many overlapping locks (cards with real
 * volume) over a scalp shell, so silhouettes get texture and every lock can hang from a spring.
 */
export interface HairLock {
  /** Centre line from the root (on the scalp) to the tip; a handful of points is enough. */
  readonly path: readonly Vec3[];
  /** Half width across the lock at `t` (0 root … 1 tip), metres. */
  readonly width: (t: number) => number;
  /** Half thickness at `t`, metres. */
  readonly thickness: (t: number) => number;
  /** Skin weights of a vertex at `p`, `t` along the lock. */
  readonly skin: (p: Vec3, t: number) => SkinWeights;
  /** Hair-ramp position (0 base colour … 1 highlight) at `t` and across-lock position `s` (−1…1). */
  readonly shine?: (t: number, s: number) => number;
  /** Twist of the ribbon about its centre line, radians at `t`. */
  readonly twist?: (t: number) => number;
}

/** Columns around a lock's cross-section: a lens, wide across and thin through. */
const COLS = 6;

/** Adds a lock to the hair slot. The tip closes in a point; the root stays open (it is buried). */
export function addLock(ctx: BuildContext, lock: HairLock): void {
  const { head, palette } = ctx;
  const c = head.options.center;
  const pts = lock.path;
  const n = pts.length;
  const arc: number[] = [0];
  for (let i = 1; i < n; i++) arc.push(arc[i - 1]! + length(sub(pts[i]!, pts[i - 1]!)));
  const total = arc[n - 1]! || 1;
  const rows: Vec3[][] = [];
  const shade: number[][] = [];
  const ts: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = arc[i]! / total;
    ts.push(t);
    const p = pts[i]!;
    const tangent = normalize(sub(pts[Math.min(n - 1, i + 1)]!, pts[Math.max(0, i - 1)]!), [0, -1, 0]);
    // "Out" points away from the head's vertical axis below its centre, from its centre above.
    const ref: Vec3 = [c[0], Math.min(p[1], c[1]), c[2]];
    let out = sub(p, ref);
    out = sub(out, scale(tangent, dot(out, tangent)));
    const up0 = normalize(out, [0, 0, -1]);
    const side0 = cross(up0, tangent);
    const tw = lock.twist?.(t) ?? 0;
    const up = add(scale(up0, Math.cos(tw)), scale(side0, Math.sin(tw)));
    const side = cross(up, tangent);
    const w = lock.width(t);
    const th = lock.thickness(t);
    const row: Vec3[] = [];
    const srow: number[] = [];
    for (let j = 0; j < COLS; j++) {
      const a = (2 * Math.PI * j) / COLS;
      const ca = Math.cos(a);
      row.push(add(p, add(scale(side, ca * w), scale(up, Math.sin(a) * th))));
      srow.push(lock.shine?.(t, ca) ?? 0.15 + 0.25 * t);
    }
    rows.push(row);
    shade.push(srow);
  }
  const tipDir = normalize(sub(pts[n - 1]!, pts[n - 2]!));
  const tip = add(pts[n - 1]!, scale(tipDir, Math.max(lock.width(1), 0.003)));
  const tOf = (p: Vec3): number => {
    // The vertex's t: nearest ring by distance (rings are what the skin needs to follow).
    let best = 0;
    let bestD = Infinity;
    for (let i = 0; i < n; i++) {
      const d = length(sub(p, pts[i]!));
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    return ts[best]!;
  };
  addGrid(ctx.builder, 'hair', {
    rows,
    gradient: { ramp: [palette.hair, palette.hairHighlight], t: shade },
    wrap: true,
    endPole: tip,
    skin: (p) => lock.skin(p, p === tip ? 1 : tOf(p)),
  });
}

/** Points along a smooth curve through `keys` (Catmull-Rom), `count` samples from first to last. */
export function curve(keys: readonly Vec3[], count: number): Vec3[] {
  const out: Vec3[] = [];
  const m = keys.length - 1;
  for (let s = 0; s < count; s++) {
    const u = (s / (count - 1)) * m;
    const i = Math.min(m - 1, Math.floor(u));
    const f = u - i;
    const p0 = keys[Math.max(0, i - 1)]!;
    const p1 = keys[i]!;
    const p2 = keys[i + 1]!;
    const p3 = keys[Math.min(m, i + 2)]!;
    const f2 = f * f;
    const f3 = f2 * f;
    const w0 = -0.5 * f3 + f2 - 0.5 * f;
    const w1 = 1.5 * f3 - 2.5 * f2 + 1;
    const w2 = -1.5 * f3 + 2 * f2 + 0.5 * f;
    const w3 = 0.5 * f3 - 0.5 * f2;
    out.push([
      w0 * p0[0] + w1 * p1[0] + w2 * p2[0] + w3 * p3[0],
      w0 * p0[1] + w1 * p1[1] + w2 * p2[1] + w3 * p3[1],
      w0 * p0[2] + w1 * p1[2] + w2 * p2[2] + w3 * p3[2],
    ]);
  }
  return out;
}
