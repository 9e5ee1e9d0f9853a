import { cappedBands, type BuildContext } from '../characters/build-context.js';
import { addGrid } from '../geometry/grid-surface.js';
import { sphereDir } from '../geometry/head-shape.js';
import { tubeRows, type TubeRing } from '../geometry/tube.js';
import { type Vec3 } from '../geometry/vec3.js';
import { chainWeights, rigid } from '../skeleton/skin-weights.js';

/** The sculpted head skin (latitude/longitude grid on the implicit head) and the ears. */
export function buildHead(ctx: BuildContext): void {
  const { head, palette } = ctx;
  const latitudes = 30;
  const longitudes = 40;
  const rows: Vec3[][] = [];
  for (let i = 1; i < latitudes; i++) {
    const theta = (Math.PI * i) / latitudes;
    rows.push(
      Array.from({ length: longitudes }, (_, j) => head.surface(sphereDir(theta, (2 * Math.PI * j) / longitudes))),
    );
  }
  const skin = rigid('head');
  addGrid(ctx.builder, 'body', {
    rows,
    bands: rows.slice(1).map(() => palette.skin),
    wrap: true,
    startPole: head.surface([0, 1, 0]),
    endPole: head.surface([0, -1, 0]),
    inside: head.options.center,
    skin: () => skin,
  });
  for (const sgn of [1, -1]) {
    const base = head.surface([sgn, -0.12, -0.12], -0.05);
    const r = head.options.radius;
    const rings: TubeRing[] = [0, 0.5, 1].map((t) => ({
      center: [base[0] + sgn * r * 0.07 * t, base[1] + r * 0.01 * t, base[2] - r * 0.02 * t],
      rx: r * (0.15 - 0.02 * t),
      ry: r * (0.24 - 0.03 * t),
    }));
    addGrid(ctx.builder, 'body', {
      ...tubeRows(rings, 12, [0, 1, 0], { caps: true }),
      bands: cappedBands(rings.slice(1).map(() => palette.skin)),
      wrap: true,
      skin: () => skin,
    });
  }
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
