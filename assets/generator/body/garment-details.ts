import { cappedBands, type BuildContext } from '../characters/build-context.js';
import { shadeColor } from '../geometry/color.js';
import { addGrid } from '../geometry/grid-surface.js';
import { tubeRows, type TubeRing } from '../geometry/tube.js';
import { add, lerp, type Vec3 } from '../geometry/vec3.js';
import { addSpringChain, type SpringSettings } from '../skeleton/spring-chains.js';
import type { TorsoShape } from './build-torso.js';

/** A point on the chest in panel coordinates: x across (+X = model's left), y up, metres. */
type ChestPoint = readonly [number, number];

/**
 * Lays a patch on the front of the torso: `rows` of chest points, `lift` metres off the surface,
 * one colour per row band. Collars, pockets and plackets are patches, so they follow the chest.
 */
function chestPatch(ctx: BuildContext, torso: TorsoShape, rows: readonly (readonly ChestPoint[])[], lift: number, bands: readonly Vec3[]): void {
  const positions: Vec3[][] = [];
  const normals: Vec3[][] = [];
  for (const row of rows) {
    const pr: Vec3[] = [];
    const nr: Vec3[] = [];
    for (const [x, y] of row) {
      const p = torso.front(x, y, lift);
      pr.push(p.position);
      nr.push(p.normal);
    }
    positions.push(pr);
    normals.push(nr);
  }
  const c = torso.front(0, rows[0]![0]![1], 0).position;
  addGrid(ctx.builder, 'body', {
    rows: positions,
    normals,
    bands,
    wrap: false,
    inside: [c[0], c[1], c[2] - 0.1],
    skin: torso.skin,
  });
}

/** Height of the front neckline (where the neck leaves the torso). */
const necklineY = (ctx: BuildContext): number => ctx.skeleton.position.leftUpperArm[1] + 0.03 * ctx.spec.height;

/** Shirt-collar points over the sweater's collar band (Atlas): two flaps angled down and out. */
export function buildCollarPoints(ctx: BuildContext, torso: TorsoShape): void {
  const { k, palette } = ctx;
  const y0 = necklineY(ctx);
  for (const sgn of [1, -1]) {
    const a: ChestPoint = [sgn * 0.006 * k, y0 - 0.004 * k];
    const b: ChestPoint = [sgn * 0.05 * k, y0 + 0.006 * k];
    const tip: ChestPoint = [sgn * 0.03 * k, y0 - 0.05 * k];
    const rows: ChestPoint[][] = [0, 0.3, 0.6, 0.9].map((t) => {
      const l = lerp([...a, 0], [...tip, 0], t);
      const r = lerp([...b, 0], [...tip, 0], t);
      return [0, 0.5, 1].map((s) => [l[0] + (r[0] - l[0]) * s, l[1] + (r[1] - l[1]) * s] as ChestPoint);
    });
    chestPatch(ctx, torso, rows, 0.006 * k, [palette.topAccent, palette.topAccent, shadeColor(palette.topAccent, 0.85)]);
  }
}

/** A rounded Peter Pan collar (Luna): two soft crescents round the neckline, meeting at the front. */
export function buildRoundCollar(ctx: BuildContext, torso: TorsoShape): void {
  const { k, palette } = ctx;
  const y0 = necklineY(ctx);
  const reach = 0.075 * k;
  for (const sgn of [1, -1]) {
    const cols = 8;
    const inner: ChestPoint[] = [];
    const outer: ChestPoint[] = [];
    for (let j = 0; j <= cols; j++) {
      const s = j / cols;
      const x = sgn * (0.004 * k + reach * s);
      const yIn = y0 - 0.012 * k * (1 - s * s);
      // Round where the two halves meet at the front, widest in the middle.
      const w = 0.03 * k * Math.sqrt(Math.min(1, s / 0.25)) * (1 - 0.25 * s);
      inner.push([x, yIn]);
      outer.push([x + sgn * 0.2 * w * (1 - s), yIn - w]);
    }
    const mid = inner.map((p, j) => [(p[0] + outer[j]![0]) / 2, (p[1] + outer[j]![1]) / 2] as ChestPoint);
    chestPatch(ctx, torso, [inner, mid, outer], 0.005 * k, [palette.topAccent, shadeColor(palette.topAccent, 0.92)]);
  }
}

/** A kangaroo pocket on the hoodie's belly, with darker seams along its edges. */
export function buildHoodiePocket(ctx: BuildContext, torso: TorsoShape): void {
  const { k, palette, spec } = ctx;
  const y0 = torso.waistY + 0.022 * spec.height;
  const y1 = y0 + 0.085 * k;
  const rows: ChestPoint[][] = [0, 0.06, 0.94, 1].map((t) => {
    const y = y0 + (y1 - y0) * t;
    const half = 0.1 * k - 0.03 * k * t;
    return [-half, -half * 0.5, 0, half * 0.5, half].map((x) => [x, y] as ChestPoint);
  });
  const seam = shadeColor(palette.top, 0.72);
  chestPatch(ctx, torso, rows, 0.005 * k, [seam, shadeColor(palette.top, 0.95), seam]);
}

/**
 * Buttons along the left front edge of an open jacket and two pockets: a long-buttoned cardigan
 * with patch pockets (Orion), or a blazer with two buttons at the waist and pocket flaps (Sofia).
 */
export function buildJacketDetails(ctx: BuildContext, torso: TorsoShape, kind: 'cardigan' | 'blazer'): void {
  const { k, palette, spec } = ctx;
  const jacket = palette.jacket ?? palette.top;
  const h = spec.height;
  const bottom = torso.waistY + 0.015 * h;
  const cardigan = kind === 'cardigan';
  const top = cardigan ? h * 0.78 : bottom + 0.07 * h;
  const count = cardigan ? 5 : 2;
  const button = cardigan ? shadeColor(palette.topAccent, 0.55) : palette.hairAccent;
  const radius = (cardigan ? 0.0075 : 0.0095) * k;
  for (let i = 0; i < count; i++) {
    const y = bottom + 0.02 * h + ((top - bottom - 0.02 * h) * i) / (count - 1);
    // The opening widens towards the neck (see the front panel); buttons sit just outside it.
    const f = (y - bottom) / (0.835 * h - bottom);
    const x = 0.004 * k + 0.062 * k * f ** 0.9 + 0.02 * k;
    const p = torso.front(x, y, 0.006 * k);
    const rings: TubeRing[] = [-1, 0, 1].map((t) => ({ center: add(p.position, [0, 0, 0.003 * k * t]), rx: radius, ry: radius }));
    addGrid(ctx.builder, 'body', {
      ...tubeRows(rings, 8, [0, 1, 0], { caps: true }),
      bands: cappedBands([button, button]),
      wrap: true,
      skin: () => torso.skin(p.position),
    });
  }
  for (const sgn of [1, -1]) {
    const y0 = bottom + (cardigan ? 0.012 : 0.032) * h;
    const tall = (cardigan ? 0.07 : 0.014) * k;
    const rows: ChestPoint[][] = [0, 0.1, 1].map((t) => {
      const y = y0 + tall * t;
      return (cardigan ? [0.085, 0.12, 0.155] : [0.045, 0.065, 0.085]).map((x) => [sgn * x * k, y - (cardigan ? 0 : 0.05 * (x - 0.045 * k))] as ChestPoint);
    });
    chestPatch(ctx, torso, rows, 0.005 * k, [shadeColor(jacket, 0.75), shadeColor(jacket, cardigan ? 0.93 : 0.85)]);
  }
}

/** A wristwatch on the left wrist (Atlas): a strap ring and a round face on the back of the wrist. */
export function buildWatch(ctx: BuildContext): void {
  const { k, skeleton, spec, palette } = ctx;
  const P = skeleton.position;
  const hand = P.leftHand;
  const lower = P.leftLowerArm;
  // Just past the cuff, where a long sleeve ends (0.012 m before the wrist joint).
  const u = hand[0] - 0.003 * k;
  const t = (u - lower[0]) / (hand[0] - lower[0]);
  const z = lower[2] + (hand[2] - lower[2]) * t;
  const r = 0.037 * k * spec.body.limb * 0.46 + 0.004 * k;
  const strap = shadeColor(palette.shoes, 0.9);
  const rings: TubeRing[] = [-1, 0, 1].map((s) => ({ center: [u + s * 0.006 * k, hand[1], z], rx: r * 1.05, ry: r }));
  addGrid(ctx.builder, 'body', {
    ...tubeRows(rings, 14, [0, 1, 0]),
    bands: [strap, strap],
    wrap: true,
    skin: () => [['leftLowerArm', 0.3], ['leftHand', 0.7]],
  });
  const face: TubeRing[] = [0, 0.5, 1].map((s) => ({ center: [u, hand[1] + r + 0.002 * k * s, z], rx: 0.011 * k, ry: 0.011 * k }));
  addGrid(ctx.builder, 'body', {
    ...tubeRows(face, 12, [1, 0, 0], { caps: true }),
    bands: cappedBands([[0.55, 0.55, 0.58], [0.85, 0.85, 0.82]]),
    wrap: true,
    skin: () => [['leftLowerArm', 0.3], ['leftHand', 0.7]],
  });
}

/** Hood strings swing a little when the body moves; they rest on the chest. */
const STRING: SpringSettings = { stiffness: 1.2, drag: 0.5, gravity: 0.3, hitRadius: 0.008 };

/**
 * The hood of a hoodie (Kenji): a soft pouch lying on the upper back below the neck, open at the
 * neckline, and two drawstrings with aglets hanging down the chest on springs.
 */
export function buildHood(ctx: BuildContext, torso: TorsoShape): void {
  const { k, palette, skeleton } = ctx;
  const P = skeleton.position;
  const y0 = necklineY(ctx);
  const r0 = 0.082 * k;
  const shell = shadeColor(palette.top, 0.93);
  const lining = shadeColor(palette.top, 0.7);
  const rows: Vec3[][] = [];
  const cols = 16;
  const nRows = 8;
  for (let i = 0; i <= nRows; i++) {
    const v = i / nRows;
    const row: Vec3[] = [];
    for (let j = 0; j <= cols; j++) {
      // Around the neck from the model's right front, behind, to the left front.
      const a = -Math.PI * 0.8 + (1.6 * Math.PI * j) / cols;
      const spread = 1 - 0.75 * v ** 1.5;
      const back = Math.abs(Math.cos(a / 2));
      const ring = r0 * (1 + 0.5 * Math.sin(Math.PI * Math.min(1, v * 1.3)));
      const x = Math.sin(a) * ring * spread;
      const zRing = -Math.cos(a) * ring * (0.75 + 0.25 * v);
      const y = y0 + 0.014 * k - 0.15 * k * v * (0.4 + 0.6 * back);
      row.push([x, y, P.neck[2] + zRing - 0.035 * k * Math.sin(Math.PI * v) * back]);
    }
    rows.push(row);
  }
  addGrid(ctx.builder, 'cloth', {
    rows,
    bands: rows.slice(1).map((_, i) => (i === 0 ? lining : shell)),
    wrap: false,
    inside: [0, y0 - 0.04 * k, P.neck[2] + 0.02 * k],
    skin: (p) => torso.skin([p[0] * 0.6, Math.min(p[1], y0 - 0.01 * k), p[2]]),
  });
  for (const sgn of [1, -1]) {
    const top = torso.front(sgn * 0.028 * k, y0 - 0.004 * k, 0.008 * k).position;
    const len = 0.15 * k;
    const points: Vec3[] = [0, 0.5, 1].map((t) => add(top, [sgn * 0.004 * k * t, -len * t, 0.012 * k * t]));
    const rig = addSpringChain(
      ctx.skeleton,
      ctx.springs,
      { prefix: sgn > 0 ? 'stringL' : 'stringR', parent: 'upperChest', points },
      STRING,
      ['body'],
    );
    const rings: TubeRing[] = [0, 0.25, 0.5, 0.75, 0.9, 1].map((t, i) => ({
      center: lerp(points[0]!, points[2]!, t),
      rx: (i >= 4 ? 0.0055 : 0.0035) * k,
      ry: (i >= 4 ? 0.0055 : 0.0035) * k,
    }));
    const aglet = shadeColor(palette.topAccent, 0.85);
    addGrid(ctx.builder, 'body', {
      ...tubeRows(rings, 6, [0, 0, 1], { caps: true }),
      bands: cappedBands([palette.topAccent, palette.topAccent, palette.topAccent, aglet, aglet]),
      wrap: true,
      skin: (p) => rig.skinByHeight(p[1]),
    });
  }
}
