import type { BuildContext } from '../characters/build-context.js';
import { mixColor, shadeColor } from '../geometry/color.js';
import { addGrid } from '../geometry/grid-surface.js';
import { tubeRows, type TubeRing } from '../geometry/tube.js';
import { smoothstep, type Vec3 } from '../geometry/vec3.js';
import { mixWeights, type SkinWeights } from '../skeleton/skin-weights.js';
import { addSpringChain, type SpringSettings } from '../skeleton/spring-chains.js';
import type { TorsoShape } from './build-torso.js';
import { buildCollarPoints, buildHood, buildHoodiePocket, buildJacketDetails, buildRoundCollar, buildWatch } from './garment-details.js';

/**
 * Garment pieces that sit over the body: skirt, neckline / jacket front panel, collars, hood
 * with drawstrings, pockets, buttons and a watch.
 */
export function buildClothing(ctx: BuildContext, torso: TorsoShape): void {
  const { outfit } = ctx.spec;
  if (outfit.bottomKind !== 'trousers') buildSkirt(ctx, torso, outfit.bottomKind === 'long-skirt');
  buildFrontPanel(ctx, torso);
  if (outfit.neckline === 'collar') {
    buildCollar(ctx);
    buildCollarPoints(ctx, torso);
  }
  if (outfit.neckline === 'round-collar') buildRoundCollar(ctx, torso);
  if (outfit.neckline === 'hood') {
    buildHood(ctx, torso);
    buildHoodiePocket(ctx, torso);
  }
  if (outfit.jacket) buildJacketDetails(ctx, torso, outfit.bottomKind === 'trousers' ? 'cardigan' : 'blazer');
  if (outfit.watch) buildWatch(ctx);
}

const SKIRT_CHAINS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'] as const;
/** Cloth is heavier and stiffer than hair: a slow, small sway. */
const SKIRT: SpringSettings = { stiffness: 2.2, drag: 0.6, gravity: 0.1, hitRadius: 0.03 };

/** The point of a ring of `cols` evenly spaced points at angle `a` (linear between neighbours). */
function lerpRing(row: readonly Vec3[], a: number, cols: number): Vec3 {
  const u = (a / (2 * Math.PI)) * cols;
  const j = Math.floor(u) % cols;
  const f = u - Math.floor(u);
  const p = row[j]!;
  const q = row[(j + 1) % cols]!;
  return [p[0] + (q[0] - p[0]) * f, p[1] + (q[1] - p[1]) * f, p[2] + (q[2] - p[2]) * f];
}

function buildSkirt(ctx: BuildContext, torso: TorsoShape, long: boolean): void {
  const { spec, skeleton, palette, k } = ctx;
  const h = spec.height;
  const P = skeleton.position;
  const top = torso.waistY + 0.004 * h;
  const hem = long ? P.leftFoot[1] + 0.05 * h : P.leftLowerLeg[1] + 0.06 * h;
  const cols = 48;
  const n = long ? 16 : 10;
  const rows: Vec3[][] = [];
  for (let i = 0; i <= n; i++) {
    const f = i / n;
    const y = top + (hem - top) * f;
    const flare = (long ? 0.075 : 0.09) * k * smoothstep(0, 1, f * 1.3) + (long ? 0.03 * k * f : 0);
    rows.push(
      Array.from({ length: cols }, (_, j) => {
        const a = (2 * Math.PI * j) / cols;
        const onBody = torso.point(Math.max(y, 0.5 * h), a);
        const fold = 0.012 * k * f * Math.cos(a * 8);
        // Out from the body's own surface point (a superellipse, not an ellipse), so the
        // waistband never dips into the torso between the axes.
        const out = 0.01 * k + flare + fold;
        return [onBody[0] + Math.cos(a) * out, y, onBody[2] + Math.sin(a) * (out + 0.002 * k - 0.1 * flare) + 0.004 * k];
      }),
    );
  }
  const hemColor = shadeColor(palette.bottom, 0.75);
  const bands = rows.slice(1).map((_, i) => (i === n - 1 ? mixColor(palette.bottom, hemColor, 0.6) : palette.bottom));
  // Eight springs round the skirt from a little below the waist to the hem, colliding with the
  // thighs, so the hem sways and the skirt rests on the legs instead of passing through them.
  const chains = SKIRT_CHAINS.map((letter, c) => {
    const a = (2 * Math.PI * c) / SKIRT_CHAINS.length;
    const at = (f: number): Vec3 => {
      const i = Math.round(f * n);
      const row = rows[i]!;
      return lerpRing(row, a, cols);
    };
    return addSpringChain(
      ctx.skeleton,
      ctx.springs,
      { prefix: `skirt${letter}`, parent: 'hips', points: [0.3, 0.55, 0.8, 1].map(at) },
      SKIRT,
      ['legs'],
    );
  });
  const skin = (p: Vec3): SkinWeights => {
    const a = (Math.atan2(p[2] - 0.004 * k, p[0]) + 2 * Math.PI) % (2 * Math.PI);
    const u = (a / (2 * Math.PI)) * chains.length;
    const c = Math.floor(u) % chains.length;
    return mixWeights(chains[c]!.skinByHeight(p[1]), chains[(c + 1) % chains.length]!.skinByHeight(p[1]), smoothstep(0, 1, u - Math.floor(u)));
  };
  addGrid(ctx.builder, 'cloth', { rows, bands, wrap: true, inside: [0, (top + hem) / 2, 0], skin });
}

/** V-shaped panel on the chest: skin for a V-neck, the shirt under an open jacket. */
function buildFrontPanel(ctx: BuildContext, torso: TorsoShape): void {
  const { spec, palette, k } = ctx;
  const jacket = palette.jacket;
  const neck = spec.outfit.neckline;
  if (!jacket && neck !== 'v') return;
  const h = spec.height;
  const topY = spec.height * 0.835;
  const bottomY = jacket ? torso.waistY + 0.015 * h : h * 0.765;
  const halfTop = (jacket ? 0.062 : 0.05) * k;
  const color = jacket ? palette.top : palette.skin;
  const n = 10;
  const cols = 6;
  const rows: Vec3[][] = [];
  const normals: Vec3[][] = [];
  for (let i = 0; i <= n; i++) {
    const f = i / n;
    const y = bottomY + (topY - bottomY) * f;
    const half = 0.004 * k + halfTop * f ** 0.9;
    const row: Vec3[] = [];
    const nrow: Vec3[] = [];
    for (let j = 0; j <= cols; j++) {
      const x = -half + (2 * half * j) / cols;
      const p = torso.front(x, y, 0.0035 * k);
      row.push(p.position);
      nrow.push(p.normal);
    }
    rows.push(row);
    normals.push(nrow);
  }
  addGrid(ctx.builder, 'body', {
    rows,
    normals,
    bands: rows.slice(1).map(() => color),
    wrap: false,
    inside: [0, (topY + bottomY) / 2, -0.05],
    skin: torso.skin,
  });
  if (jacket) {
    // Lapel edges: darker strips along both sides of the opening.
    for (const sgn of [1, -1]) {
      const lrows: Vec3[][] = [[], []];
      const lnorm: Vec3[][] = [[], []];
      for (let i = 0; i <= n; i++) {
        const f = i / n;
        const y = bottomY + (topY - bottomY) * f;
        const half = 0.004 * k + halfTop * f ** 0.9;
        for (const [r, w] of [[0, 0], [1, 0.012 * k + 0.012 * k * f]] as const) {
          const p = torso.front(sgn * (half + w), y, 0.004 * k);
          lrows[r]!.push(p.position);
          lnorm[r]!.push(p.normal);
        }
      }
      addGrid(ctx.builder, 'body', {
        rows: lrows,
        normals: lnorm,
        bands: [shadeColor(jacket, 0.78)],
        wrap: false,
        inside: [0, (topY + bottomY) / 2, -0.05],
        skin: torso.skin,
      });
    }
  }
}

function buildCollar(ctx: BuildContext): void {
  const { spec, skeleton, palette, k } = ctx;
  const P = skeleton.position;
  const r = 0.054 * k * spec.body.neck;
  const y = P.neck[1] - 0.004 * spec.height;
  const rings: TubeRing[] = [0, 0.5, 1].map((t) => ({
    center: [0, y + 0.03 * k * t, P.neck[2] + 0.002 * k],
    rx: r * (1.5 - 0.3 * t),
    ry: r * (1.4 - 0.3 * t),
  }));
  addGrid(ctx.builder, 'cloth', {
    ...tubeRows(rings, 24, [0, 0, 1]),
    bands: [palette.topAccent, palette.topAccent],
    wrap: true,
    skin: () => [['neck', 0.3], ['upperChest', 0.7]],
  });
}
