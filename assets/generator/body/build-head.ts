import type { BuildContext } from '../characters/build-context.js';
import { addGrid } from '../geometry/grid-surface.js';
import { sphereDir, warpedSamples } from '../geometry/head-shape.js';
import { tubeRows, type TubeRing } from '../geometry/tube.js';
import { add, cross, normalize, scale, type Vec3 } from '../geometry/vec3.js';
import { chainWeights, rigid } from '../skeleton/skin-weights.js';

/**
 * The sculpted head skin and the ears. The latitude/longitude grid is denser over the face (nose,
 * lips and jaw line need the vertices; the back of the skull is under hair), and carries the
 * head's shading normals so the face shades like one smooth form.
 */
export function buildHead(ctx: BuildContext): void {
  const { head, palette } = ctx;
  const thetas = warpedSamples(34, 0, Math.PI, (t) => 1 + 2.2 * Math.exp(-(((t - 2.0) / 0.6) ** 2)));
  const phis = warpedSamples(48, -Math.PI, Math.PI, (p) => 1 + 3 * Math.exp(-((p / 0.85) ** 2))).slice(0, -1);
  const rows: Vec3[][] = [];
  const normals: Vec3[][] = [];
  for (const theta of thetas.slice(1, -1)) {
    const local = phis.map((phi) => head.surfaceLocal(sphereDir(theta, phi)));
    rows.push(local.map((q) => head.toWorld(q)));
    normals.push(local.map((q) => head.shadingNormal(q)));
  }
  const skin = rigid('head');
  addGrid(ctx.builder, 'body', {
    rows,
    normals,
    bands: rows.slice(1).map(() => palette.skin),
    wrap: true,
    startPole: head.surface([0, 1, 0]),
    endPole: head.surface([0, -1, 0]),
    inside: head.options.center,
    skin: () => skin,
  });
  for (const side of [1, -1] as const) buildEar(ctx, side);
}

/**
 * An ear: a flattened, slightly cupped ellipsoid tilted back, half sunk into the side of the head
 * so it joins the skin without a seam. One closed smooth surface, so its outline stays one line.
 */
function buildEar(ctx: BuildContext, side: 1 | -1): void {
  const { head, palette } = ctx;
  const r = head.options.radius;
  const root = head.surface([side, -0.16, -0.1], -0.02);
  const up = normalize([0, 1, -0.28]);
  const out = normalize([side, 0, -0.35]);
  const fwd = normalize(cross(out, up));
  const [h, w, d] = [0.27 * r, 0.15 * r, 0.09 * r];
  const center = add(root, scale(out, 0.035 * r));
  const rows: Vec3[][] = [];
  const lat = 9;
  const lon = 14;
  for (let i = 1; i < lat; i++) {
    const a = (Math.PI * i) / lat;
    const row: Vec3[] = [];
    for (let j = 0; j < lon; j++) {
      const b = (2 * Math.PI * j) / lon;
      // Lobe narrower than the top rim; the outer face is dished in a little (the concha).
      const along = Math.cos(a);
      const width = w * (0.75 + 0.25 * along);
      const o = Math.sin(a) * Math.cos(b);
      const depth = o > 0 ? d * o * (1 - 0.45 * Math.sin(a) ** 4) : d * o;
      row.push(add(center, add(scale(up, h * along), add(scale(fwd, width * Math.sin(a) * Math.sin(b)), scale(out, depth)))));
    }
    rows.push(row);
  }
  const skin = rigid('head');
  addGrid(ctx.builder, 'body', {
    rows,
    bands: rows.slice(1).map(() => palette.skin),
    wrap: true,
    startPole: add(center, scale(up, h)),
    endPole: add(center, scale(up, -h)),
    inside: center,
    skin: () => skin,
  });
}

/** The neck: a tube from inside the torso into the head, skinned from the neck to the head bone. */
export function buildNeck(ctx: BuildContext): void {
  const { spec, skeleton, palette, k } = ctx;
  const P = skeleton.position;
  const r = 0.054 * k * spec.body.neck;
  const y0 = P.neck[1] - 0.012 * spec.height;
  const y1 = P.head[1] + skeleton.headRadius * 0.35;
  const turtle = spec.outfit.neckline === 'turtle';
  const turtleTop = P.neck[1] + 0.55 * (P.head[1] - P.neck[1]);
  const n = 10;
  const ys = Array.from({ length: n + 1 }, (_, i) => y0 + ((y1 - y0) * i) / n);
  if (turtle) ys.push(turtleTop, turtleTop + 0.002 * k);
  ys.sort((a, b) => a - b);
  const rings: TubeRing[] = ys.map((y) => {
    const t = (y - y0) / (y1 - y0);
    const rr = r * (1.08 - 0.12 * t) + (turtle && y <= turtleTop ? 0.012 * k : 0);
    return { center: [0, y, P.neck[2] + 0.01 * k * t], rx: rr, ry: rr * 0.95 };
  });
  const bands = ys.slice(0, -1).map((y, i) => (turtle && (y + ys[i + 1]!) / 2 < turtleTop ? palette.top : palette.skin));
  addGrid(ctx.builder, 'body', {
    ...tubeRows(rings, 20, [0, 0, 1]),
    bands,
    wrap: true,
    skin: (p) => chainWeights(['neck', 'head'], [P.neck[1], P.head[1]], p[1], 0.02 * k),
  });
}
