import { cappedBands, type BuildContext } from '../characters/build-context.js';
import { mixColor, shadeColor } from '../geometry/color.js';
import { addGrid } from '../geometry/grid-surface.js';
import { tubeRows, type TubeRing } from '../geometry/tube.js';
import { add, dot, normalize, profile, scale, smoothstep, sub, type Vec3 } from '../geometry/vec3.js';
import { fingerChain, HAND } from '../skeleton/skeleton.js';
import { blendToward, chainWeights, rigid } from '../skeleton/skin-weights.js';

type Side = 'left' | 'right';
const SIDES = ['left', 'right'] as const;

/**
 * Both arms: a set-in sleeve whose closed root sits deep inside the shoulder (no dome at the
 * joint, so the sleeve meets the torso instead of ballooning over it), a hem, bare forearms and five-fingered hands.
 */
export function buildArms(ctx: BuildContext): void {
  for (const side of SIDES) buildArm(ctx, side);
}

function buildArm(ctx: BuildContext, side: Side): void {
  const { spec, skeleton, palette, k } = ctx;
  const P = skeleton.position;
  const sgn = side === 'left' ? 1 : -1;
  const ua = Math.abs(P[`${side}UpperArm`][0]);
  const la = Math.abs(P[`${side}LowerArm`][0]);
  const hd = Math.abs(P[`${side}Hand`][0]);
  const y = P[`${side}UpperArm`][1];
  const r0 = 0.037 * k * spec.body.limb;
  const root = ua - 0.075 * k;
  const radius = (u: number): number =>
    profile(
      [
        [root, r0 * 0.8],
        [ua - 0.01 * k, r0 * 1.06],
        [ua + 0.35 * (la - ua), r0 * 0.8],
        [la, r0 * 0.64],
        [la + 0.3 * (hd - la), r0 * 0.68],
        [hd - 0.01, r0 * 0.46],
      ],
      u,
    );
  const sleeveEnd = spec.outfit.sleeve <= 0 ? ua - r0 : ua + spec.outfit.sleeve * (hd - 0.012 - ua);
  const sleeveColor = palette.jacket ?? palette.top;
  const loose = 0.004 * k;
  const us: number[] = [];
  const n = 20;
  for (let i = 0; i <= n; i++) us.push(root + ((hd + 0.012 - root) * i) / n);
  const hasSleeve = sleeveEnd > ua;
  if (hasSleeve) us.push(sleeveEnd - 0.014 * k, sleeveEnd - 0.002 * k, sleeveEnd);
  us.sort((a, b) => a - b);
  const dedup = us.filter((u, i) => i === 0 || u - us[i - 1]! > 1e-4);
  const rings: TubeRing[] = dedup.map((u) => {
    let r = radius(u);
    if (hasSleeve && u <= sleeveEnd - 0.0015 * k) r = Math.max(r, radius(Math.min(u, ua + 0.3 * (la - ua)))) + loose;
    if (hasSleeve && Math.abs(u - sleeveEnd + 0.002 * k) < 1e-6) r += 0.002 * k;
    const z = profile([[ua, P[`${side}UpperArm`][2]], [la, P[`${side}LowerArm`][2]], [hd, P[`${side}Hand`][2]]], u);
    // The root sinks a little so the sleeve's top line runs into the shoulder slope.
    const drop = 0.018 * k * smoothstep(ua, root, u);
    return { center: [sgn * u, y - drop, z], rx: r * 1.04, ry: r };
  });
  const cuff = shadeColor(sleeveColor, 0.6);
  // A fold line at the elbow crease on long sleeves gives the fabric some structure.
  const crease = (u: number): boolean => spec.outfit.sleeve > 0.7 && Math.abs(u - la) < 0.006 * k;
  const bands = dedup.slice(0, -1).map((u, i) => {
    const mid = (u + dedup[i + 1]!) / 2;
    if (!hasSleeve || mid > sleeveEnd) return palette.skin;
    if (mid > sleeveEnd - 0.002 * k) return cuff;
    if (mid > sleeveEnd - 0.014 * k && spec.outfit.sleeve > 0.7) return palette.topAccent;
    return crease(mid) ? shadeColor(sleeveColor, 0.88) : sleeveColor;
  });
  // The root inside the torso follows the shoulder, not the upper arm, so a lowered arm does
  // not lever it up through the top of the shoulder.
  // The fade to the shoulder is wider than the elbow's, so a lowered arm rounds over the joint
  // like a deltoid instead of folding at a corner.
  const chain = [`${side}UpperArm`, `${side}LowerArm`, `${side}Hand`] as const;
  addGrid(ctx.builder, 'body', {
    ...tubeRows(rings, 18, [0, 1, 0], { caps: true }),
    bands: cappedBands(bands),
    wrap: true,
    skin: (p) => {
      const u = Math.abs(p[0]);
      const limb = chainWeights(chain, [ua, la, hd], u, 0.03 * k);
      return blendToward(limb, `${side}Shoulder`, 1 - smoothstep(ua - 0.06 * k, ua + 0.035 * k, u));
    },
  });
  buildHand(ctx, side);
}

/**
 * A flat T-pose hand: palm, four fingers of three segments and a thumb that leaves the palm
 * forward, each skinned along its finger bones (knuckles cross-fade, so a curled finger bends
 * smoothly) and separated by small gaps so the hand reads as fingers, not a mitten.
 */
function buildHand(ctx: BuildContext, side: Side): void {
  const { skeleton, palette, k } = ctx;
  const P = skeleton.position;
  const sgn = side === 'left' ? 1 : -1;
  const [hx, hy, hz] = P[`${side}Hand`];
  const u0 = Math.abs(hx);
  const palmLen = HAND.palmLength * k;
  const palmRings: TubeRing[] = [0, 0.25, 0.5, 0.75, 1].map((t) => ({
    center: [sgn * (u0 - 0.004 * k + palmLen * t), hy - 0.003 * k, hz + 0.002 * k],
    rx: k * profile([[0, 0.025], [0.4, 0.036], [1, 0.038]], t),
    ry: k * profile([[0, 0.018], [0.5, 0.015], [1, 0.011]], t),
  }));
  // rx lies along the ring's side axis; with up=+Y and the tube along X the side axis is ±Z.
  addGrid(ctx.builder, 'body', {
    ...tubeRows(palmRings, 14, [0, 1, 0], { caps: true, exponent: 2.4 }),
    bands: cappedBands(palmRings.slice(1).map(() => palette.skin)),
    wrap: true,
    skin: (p) => chainWeights([`${side}LowerArm`, `${side}Hand`], [0, u0], Math.abs(p[0]), 0.01 * k),
  });
  const radii = { Index: 0.0074, Middle: 0.0077, Ring: 0.0072, Little: 0.0062 } as const;
  for (const finger of ['Index', 'Middle', 'Ring', 'Little'] as const) {
    const bones = fingerChain(side, finger);
    const at = bones.map((b) => Math.abs(P[b][0]));
    const tip = at[2]! + HAND.fingers[finger].segments[2] * k;
    const r = radii[finger] * k;
    const base = P[bones[0]];
    const us = [at[0]! - 0.012 * k, at[0]!, at[1]!, at[2]!, tip - r];
    const rings: TubeRing[] = us.map((u, i) => {
      const knuckle = i >= 1 && i <= 3 ? 1.06 : 1;
      const taper = 1 - 0.2 * (u - at[0]!) / (tip - at[0]!);
      return { center: [sgn * u, base[1], base[2]], rx: r * taper * knuckle, ry: r * 0.9 * taper * knuckle };
    });
    addGrid(ctx.builder, 'body', {
      ...tubeRows(rings, 8, [0, 1, 0], { caps: true }),
      bands: cappedBands(rings.slice(1).map(() => palette.skin)),
      wrap: true,
      skin: (p) => chainWeights([`${side}Hand`, ...bones], [u0, ...at], Math.abs(p[0]), 0.004 * k),
    });
  }
  const thumb = fingerChain(side, 'Thumb');
  const root = P[thumb[0]];
  const dir = normalize(sub(P[thumb[2]], P[thumb[1]]));
  const along = (p: Vec3): number => dot(sub(p, root), dir);
  const at = thumb.map((b) => along(P[b]));
  const tipS = at[2]! + HAND.thumb.segments[2] * k;
  const ss = [-0.008 * k, at[0]!, at[1]!, at[2]!, tipS - 0.007 * k];
  const thumbRings: TubeRing[] = ss.map((s) => ({
    center: add(root, scale(dir, s)),
    rx: k * profile([[0, 0.013], [at[1]! / k, 0.0092], [tipS / k, 0.0078]], s / k),
    ry: k * profile([[0, 0.011], [at[1]! / k, 0.0085], [tipS / k, 0.007]], s / k),
  }));
  addGrid(ctx.builder, 'body', {
    ...tubeRows(thumbRings, 8, [0, 1, 0], { caps: true }),
    bands: cappedBands(thumbRings.slice(1).map(() => palette.skin)),
    wrap: true,
    skin: (p) => chainWeights([`${side}Hand`, ...thumb], [-1, 0.4 * at[1]!, at[1]!, at[2]!], along(p), 0.005 * k),
  });
}

/** Both legs with trousers, tights or bare skin, optional boots, and rounded shoes. */
export function buildLegs(ctx: BuildContext): void {
  for (const side of SIDES) buildLeg(ctx, side);
}

function buildLeg(ctx: BuildContext, side: Side): void {
  const { spec, skeleton, palette, k } = ctx;
  const P = skeleton.position;
  const h = spec.height;
  const [lx, legY] = P[`${side}UpperLeg`];
  const kneeY = P[`${side}LowerLeg`][1];
  const ankleY = P[`${side}Foot`][1];
  const rT = (0.058 + spec.body.hipWidth * 0.1) * k * spec.body.limb;
  const trousers = spec.outfit.bottomKind === 'trousers';
  const radius = (y: number): number => {
    const r = profile(
      [
        [ankleY, rT * 0.38],
        [kneeY - 0.45 * (kneeY - ankleY), rT * 0.62],
        [kneeY - 0.1 * (kneeY - ankleY), rT * 0.58],
        [kneeY + 0.05 * (legY - kneeY), rT * 0.58],
        [legY - 0.3 * (legY - kneeY), rT * 0.86],
        [legY, rT * 0.9],
        [legY + 0.03 * h, rT * 0.62],
      ],
      y,
    );
    return trousers ? Math.max(r + 0.008 * k, y < kneeY ? rT * 0.66 : 0) : r;
  };
  const topY = legY + 0.03 * h;
  const endY = ankleY - 0.012 * h;
  const bootTop = spec.outfit.boots ? ankleY + 0.45 * (kneeY - ankleY) : -1;
  const ys: number[] = [];
  // Under a long skirt only the ankles show: fewer rings there keep the file small.
  const n = spec.outfit.bottomKind === 'long-skirt' ? 12 : 22;
  for (let i = 0; i <= n; i++) ys.push(topY + ((endY - topY) * i) / n);
  if (spec.outfit.boots) ys.push(bootTop, bootTop - 0.004 * k);
  // Trousers end in a turned-up hem a little above the shoe.
  const hemTop = trousers ? ankleY + 0.012 * h : -1;
  if (trousers) ys.push(hemTop, hemTop - 0.003 * k);
  ys.sort((a, b) => b - a);
  const rings: TubeRing[] = ys.map((y) => {
    let r = radius(y);
    if (y <= bootTop) r = Math.max(r, rT * 0.5) + 0.005 * k;
    return { center: [lx * (0.92 - 0.06 * (topY - y) / (topY - endY)), y, 0.004 * k], rx: r, ry: r * 1.02 };
  });
  const legColor = trousers ? palette.bottom : palette.legs;
  const skirtHem = trousers
    ? Infinity
    : spec.outfit.bottomKind === 'long-skirt'
      ? ankleY + 0.05 * h
      : kneeY + 0.075 * h;
  const bands = ys.slice(0, -1).map((y, i) => {
    const mid = (y + ys[i + 1]!) / 2;
    if (mid <= bootTop) return mid > bootTop - 0.004 * k ? shadeColor(palette.shoes, 0.7) : palette.shoes;
    if (mid <= hemTop) return shadeColor(palette.bottom, mid > hemTop - 0.003 * k ? 0.5 : 0.78);
    // Under a skirt the thigh takes the skirt colour, so nothing skin-coloured peeks through.
    return mid > skirtHem ? palette.bottom : legColor;
  });
  const chain = ['hips', `${side}UpperLeg`, `${side}LowerLeg`, `${side}Foot`] as const;
  const at = [-(legY + 0.035 * h), -legY, -kneeY, -ankleY];
  addGrid(ctx.builder, 'body', {
    ...tubeRows(rings, 20, [0, 0, 1], { caps: true }),
    bands: cappedBands(bands),
    wrap: true,
    skin: (p) => chainWeights(chain, at, -p[1], 0.03 * k),
  });
  buildShoe(ctx, side, lx * 0.92);
}

function buildShoe(ctx: BuildContext, side: Side, x: number): void {
  const { skeleton, palette, k } = ctx;
  const foot = skeleton.position[`${side}Foot`];
  const len = 0.26 * k;
  const z0 = foot[2] - 0.055 * k;
  const rings: TubeRing[] = [0, 0.15, 0.35, 0.55, 0.75, 0.9, 1].map((t) => {
    const hh = k * profile([[0, 0.04], [0.3, 0.042], [0.6, 0.03], [1, 0.022]], t);
    return {
      center: [x + 0.004 * k * (x > 0 ? 1 : -1) * t, hh, z0 + len * t],
      rx: k * profile([[0, 0.036], [0.6, 0.047], [1, 0.038]], t),
      ry: hh,
    };
  });
  const sole = mixColor(palette.shoes, [0.9, 0.88, 0.85], 0.15);
  addGrid(ctx.builder, 'body', {
    ...tubeRows(rings, 18, [0, 1, 0], { caps: true, exponent: 2.6 }),
    bands: cappedBands(rings.slice(1).map((_, i) => (i === 0 ? sole : palette.shoes))),
    wrap: true,
    skin: () => rigid(`${side}Foot`),
  });
}
