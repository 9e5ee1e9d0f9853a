import type { BuildContext } from '../characters/build-context.js';
import { shadeColor } from '../geometry/color.js';
import { addGrid } from '../geometry/grid-surface.js';
import { normalize, profile, smoothstep, sub, type Vec3 } from '../geometry/vec3.js';
import { blendToward, chainWeights, type SkinWeights } from '../skeleton/skin-weights.js';

/** The torso's analytic surface, shared with the clothing panels that lie on it. */
export interface TorsoShape {
  /** Surface point at height y, angle a around the body (0 = +X side, π/2 = front). */
  readonly point: (y: number, a: number) => Vec3;
  /** Front surface point for a given x (used to lay panels such as a V-neck on the chest). */
  readonly front: (x: number, y: number, lift: number) => { position: Vec3; normal: Vec3 };
  readonly bottomY: number;
  readonly topY: number;
  readonly waistY: number;
  readonly skin: (p: Vec3) => SkinWeights;
}

export function torsoShape(ctx: BuildContext): TorsoShape {
  const { spec, skeleton, k } = ctx;
  const h = spec.height;
  const b = spec.body;
  const P = skeleton.position;
  const armY = P.leftUpperArm[1];
  const sw = b.shoulderWidth;
  const neckR = 0.054 * k * b.neck;
  const bottomY = 0.455 * h;
  const topY = 0.85 * h;
  const widthKeys: [number, number][] = [
    [bottomY, b.hipWidth * 0.6],
    [0.5 * h, b.hipWidth],
    [0.535 * h, b.hipWidth * 0.98],
    [0.615 * h, b.waist],
    [0.7 * h, sw * 0.74 + b.bust * 0.3],
    [0.765 * h, sw * 0.86],
    [armY, sw * 0.93],
    [armY + 0.022 * h, sw * 0.78],
    [armY + 0.034 * h, neckR * 2.1],
    [topY, neckR * 1.05],
  ];
  const depthKeys: [number, number][] = [
    [bottomY, 0.07 * k],
    [0.5 * h, 0.095 * k],
    [0.615 * h, 0.083 * k + b.belly * 0.5],
    [0.7 * h, b.chestDepth],
    [armY, b.chestDepth * 0.82],
    [armY + 0.03 * h, neckR * 1.25],
    [topY, neckR * 0.95],
  ];
  const zShift = (y: number): number => profile([[0.5 * h, -0.008 * k], [0.7 * h, 0.006 * k], [topY, -0.01 * k]], y);
  const exponent = (y: number): number => profile([[0.5 * h, 2.3], [0.7 * h, 2.7], [topY, 2.2]], y);
  const bumps = (x: number, y: number, front: number): number => {
    let z = 0;
    if (front > 0) {
      const bx = 0.078 * k;
      z += b.bust * Math.exp(-(((Math.abs(x) - bx) / (0.05 * k)) ** 2) - ((y - 0.708 * h) / (0.038 * h)) ** 2) * front;
      z += b.belly * Math.exp(-((x / (0.11 * k)) ** 2) - ((y - 0.6 * h) / (0.07 * h)) ** 2) * front;
    } else {
      z -= 0.018 * k * Math.exp(-((x / (0.09 * k)) ** 2) - ((y - 0.49 * h) / (0.04 * h)) ** 2) * -front;
      z -= 0.01 * k * Math.exp(-(((y - 0.72 * h) / (0.06 * h)) ** 2)) * -front; // shoulder blades
    }
    return z;
  };
  const point = (y: number, a: number): Vec3 => {
    const w = profile(widthKeys, y);
    const d = profile(depthKeys, y);
    const e = exponent(y);
    const c = Math.cos(a);
    const s = Math.sin(a);
    const x = w * Math.sign(c) * Math.abs(c) ** (2 / e);
    const z = d * Math.sign(s) * Math.abs(s) ** (2 / e) + zShift(y) + bumps(x, y, s);
    return [x, y, z];
  };
  const frontLocal = (x: number, y: number): Vec3 => {
    const w = profile(widthKeys, y);
    const e = exponent(y);
    const c = Math.min(1, Math.abs(x) / w);
    const cosA = c ** (e / 2);
    const a = Math.acos(Math.min(1, cosA));
    return point(y, x >= 0 ? a : Math.PI - a);
  };
  const front = (x: number, y: number, lift: number): { position: Vec3; normal: Vec3 } => {
    const e = 1e-4;
    const p = frontLocal(x, y);
    const dx = sub(frontLocal(x + e, y), frontLocal(x - e, y));
    const dy = sub(frontLocal(x, y + e), frontLocal(x, y - e));
    const n = normalize([dy[1] * dx[2] - dy[2] * dx[1], dy[2] * dx[0] - dy[0] * dx[2], dy[0] * dx[1] - dy[1] * dx[0]], [0, 0, 1]);
    const nn: Vec3 = n[2] < 0 ? [-n[0], -n[1], -n[2]] : n;
    return { position: [p[0] + nn[0] * lift, p[1] + nn[1] * lift, p[2] + nn[2] * lift], normal: nn };
  };

  const chain = ['hips', 'spine', 'chest', 'upperChest', 'neck'] as const;
  const at = chain.map((bone) => P[bone][1]);
  const skin = (p: Vec3): SkinWeights => {
    let w = chainWeights(chain, at, p[1], 0.035 * h);
    const side = p[0] >= 0 ? 'left' : 'right';
    const ax = Math.abs(p[0]);
    const shoulder = smoothstep(0.3 * sw, 0.9 * sw, ax) * smoothstep(P.chest[1], armY, p[1]) * 0.7;
    w = blendToward(w, `${side}Shoulder`, shoulder);
    const arm = smoothstep(0.78 * sw, 1.02 * sw, ax) * smoothstep(armY - 0.07 * h, armY - 0.01 * h, p[1]) * 0.45;
    return blendToward(w, `${side}UpperArm`, arm);
  };
  return { point, front, bottomY, topY, waistY: 0.548 * h, skin };
}

/**
 * Torso skin: trousers / skirt waistband below, the top (or jacket) above, a belt between, a
 * knitted hem on the top (alternating narrow bands) so the garment has an edge, not just a colour,
 * and optional knit stripes in the accent colour.
 */
export function buildTorso(ctx: BuildContext, torso: TorsoShape): void {
  const { spec, palette } = ctx;
  const h = spec.height;
  const upper = palette.jacket ?? palette.top;
  const belt = spec.outfit.bottomKind === 'trousers' && !palette.jacket;
  const beltLow = torso.waistY - 0.006 * h;
  const beltHigh = torso.waistY + 0.006 * h;
  const ys: number[] = [];
  const rowsCount = 30;
  for (let i = 0; i <= rowsCount; i++) {
    const t = i / rowsCount;
    ys.push(torso.bottomY + (torso.topY - torso.bottomY) * (1 - (1 - t) ** 1.15));
  }
  const ribs = 4;
  const rib = 0.0045 * h;
  const hemTop = beltHigh + ribs * rib;
  ys.push(beltLow, beltHigh, ...Array.from({ length: ribs }, (_, i) => beltHigh + (i + 1) * rib));
  // Knit stripes across the top, from the hem to the chest (a jacket covers them, so none there).
  const stripes = palette.jacket ? 0 : spec.outfit.stripes;
  const stripeTop = 0.765 * h;
  const stripe = (stripeTop - hemTop) / Math.max(1, 2 * stripes - 1);
  for (let i = 1; i < 2 * stripes; i++) ys.push(hemTop + i * stripe);
  ys.sort((a, b) => a - b);
  const cols = 40;
  const rows = ys.map((y) => Array.from({ length: cols }, (_, j) => torso.point(y, (2 * Math.PI * j) / cols)));
  const bands = ys.slice(0, -1).map((y, i) => {
    const mid = (y + ys[i + 1]!) / 2;
    if (mid < beltLow) return palette.bottom;
    if (mid < beltHigh) return belt ? shadeColor(palette.bottom, 0.45) : spec.outfit.bottomKind === 'trousers' ? palette.bottom : upper;
    if (mid < hemTop) return shadeColor(upper, Math.floor((mid - beltHigh) / rib) % 2 === 0 ? 0.8 : 0.9);
    if (stripes > 0 && mid < stripeTop && Math.floor((mid - hemTop) / stripe) % 2 === 1) return palette.topAccent;
    return upper;
  });
  addGrid(ctx.builder, 'body', {
    rows,
    bands,
    wrap: true,
    startPole: [0, torso.bottomY - 0.006 * h, 0],
    endPole: [0, torso.topY + 0.004 * h, -0.01 * ctx.k],
    skin: torso.skin,
  });
}
