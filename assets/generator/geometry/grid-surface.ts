import type { SkinWeights } from '../skeleton/skin-weights.js';
import type { MaterialSlot, MeshBuilder } from './mesh-builder.js';
import { flat, type Paint } from './paint.js';
import { add, cross, dot, normalize, scale, sub, type Vec3 } from './vec3.js';

/**
 * A quad grid surface: `rows[i][j]` positions, rows running along the part (rings of a limb,
 * latitudes of a head) and columns around it. Every body part, hair shell and face feature is
 * one of these, so normals, winding, colour seams and skinning live in one place.
 */
export interface GridSurface {
  readonly rows: readonly (readonly Vec3[])[];
  /** Colour of the band between row i and i+1 (length rows-1). Colour changes split vertices, so
   * seams between sleeve and skin stay crisp. */
  readonly bands?: readonly Vec3[];
  /** A smooth gradient instead of bands: one ramp, a ramp position per grid point. */
  readonly gradient?: { readonly ramp: readonly [Vec3, Vec3]; readonly t: readonly (readonly number[])[] };
  /** Explicit normals (face features use the head's normals); computed from the grid otherwise. */
  readonly normals?: readonly (readonly Vec3[])[];
  /** Columns close around (tubes, shells); false for strips. */
  readonly wrap: boolean;
  readonly startPole?: Vec3;
  readonly endPole?: Vec3;
  /** Normals face away from this point; default: each row's centroid. */
  readonly inside?: Vec3;
  readonly skin: (p: Vec3) => SkinWeights;
}

/** Vertex indices of a grid as added, so a caller can attach morph deltas to them. */
export interface GridIndices {
  readonly rows: readonly (readonly number[])[];
}

const key = (p: Paint): string => `${p.ramp[0].join(',')}|${p.ramp[1].join(',')}|${p.t}`;

/** Emits `grid` into `builder` under `slot` and returns the vertex indices used per grid point
 * (the first copy where a seam duplicated it). */
export function addGrid(builder: MeshBuilder, slot: MaterialSlot, grid: GridSurface): GridIndices {
  const { rows, wrap } = grid;
  const nr = rows.length;
  const nc = rows[0]!.length;
  const cols = wrap ? nc : nc - 1;
  const at = (i: number, j: number): Vec3 => rows[i]![j % nc]!;

  // Canonical triangles on logical points; pole points are -1 (start) and -2 (end).
  type P = readonly [number, number];
  const tris: [P, P, P][] = [];
  for (let i = 0; i + 1 < nr; i++) {
    for (let j = 0; j < cols; j++) {
      const a: P = [i, j], b: P = [i + 1, j], c: P = [i + 1, (j + 1) % nc], d: P = [i, (j + 1) % nc];
      tris.push([a, b, c], [a, c, d]);
    }
  }
  if (grid.startPole) for (let j = 0; j < cols; j++) tris.push([[-1, 0], [0, j], [0, (j + 1) % nc]]);
  if (grid.endPole) for (let j = 0; j < cols; j++) tris.push([[-2, 0], [nr - 1, (j + 1) % nc], [nr - 1, j]]);

  const pos = (p: P): Vec3 => (p[0] === -1 ? grid.startPole! : p[0] === -2 ? grid.endPole! : at(p[0], p[1]));
  const centroid = rows.map((r) => scale(r.reduce<Vec3>((s, v) => add(s, v), [0, 0, 0]), 1 / r.length));
  const ref = (p: P): Vec3 =>
    grid.inside ?? (p[0] === -1 ? centroid[0]! : p[0] === -2 ? centroid[nr - 1]! : centroid[p[0]]!);

  // Orientation: the majority of face normals must point away from the reference points.
  let sign = 0;
  const faceNormals = tris.map(([a, b, c]) => {
    const n = cross(sub(pos(b), pos(a)), sub(pos(c), pos(a)));
    sign += dot(n, sub(pos(a), ref(a)));
    return n;
  });
  const flip = sign < 0;

  // Smooth normals on the logical grid (area weighted), independent of colour seams.
  const acc: Vec3[][] = rows.map((r) => r.map((): Vec3 => [0, 0, 0]));
  let startAcc: Vec3 = [0, 0, 0];
  let endAcc: Vec3 = [0, 0, 0];
  tris.forEach((t, k) => {
    const n = faceNormals[k]!;
    for (const p of t) {
      if (p[0] === -1) startAcc = add(startAcc, n);
      else if (p[0] === -2) endAcc = add(endAcc, n);
      else acc[p[0]]![p[1]] = add(acc[p[0]]![p[1]]!, n);
    }
  });
  const normalAt = (p: P): Vec3 => {
    if (grid.normals && p[0] >= 0) return grid.normals[p[0]]![p[1]]!;
    const raw = p[0] === -1 ? startAcc : p[0] === -2 ? endAcc : acc[p[0]]![p[1]]!;
    const n = normalize(raw, normalize(sub(pos(p), ref(p))));
    return flip ? scale(n, -1) : n;
  };

  const bandColor = (i: number): Vec3 => grid.bands![Math.min(Math.max(i, 0), grid.bands!.length - 1)]!;
  const cache = new Map<string, number>();
  const vertexFor = (p: P, band: number): number => {
    const g = grid.gradient;
    const paint: Paint = g
      ? { ramp: g.ramp, t: p[0] >= 0 ? g.t[p[0]]![p[1]]! : g.t[p[0] === -1 ? 0 : nr - 1]![0]! }
      : flat(bandColor(band));
    const k = `${p[0]}:${p[1]}:${key(paint)}`;
    const hit = cache.get(k);
    if (hit !== undefined) return hit;
    const position = pos(p);
    const v = builder.addVertex(slot, { position, normal: normalAt(p), paint, skin: grid.skin(position) });
    cache.set(k, v);
    return v;
  };

  const nq = (nr - 1) * cols;
  tris.forEach((t, k) => {
    // Band of a triangle: quads by row; pole fans use the first / last band.
    const band = k < 2 * nq ? Math.floor(k / (2 * cols)) : t[0][0] === -1 ? 0 : nr - 2;
    const [a, b, c] = t.map((p) => vertexFor(p, band)) as [number, number, number];
    if (flip) builder.addTriangle(slot, a, c, b);
    else builder.addTriangle(slot, a, b, c);
  });

  return { rows: rows.map((r, i) => r.map((_, j) => vertexFor([i, j], Math.min(i, nr - 2)))) };
}
