import { cappedBands, type BuildContext } from '../characters/build-context.js';
import { mixColor, shadeColor } from '../geometry/color.js';
import { addGrid } from '../geometry/grid-surface.js';
import { sphereDir } from '../geometry/head-shape.js';
import { tubeRows, type TubeRing } from '../geometry/tube.js';
import { add, normalize, scale, sub, type Vec3 } from '../geometry/vec3.js';
import { rigid } from '../skeleton/skin-weights.js';
import { addHairChain, SOFT_HAIR } from './hair-chain.js';
import { addLock, curve } from './hair-lock.js';
import { hairShine } from './scalp.js';

/**
 * A full high ponytail (Luna): a bundle of locks gathered by a scrunchie high on the back of the
 * head, arching out and falling between the shoulder blades, on one spring.
 */
export function buildPonytail(ctx: BuildContext): void {
  const { head, skeleton, spec } = ctx;
  const r = skeleton.headRadius;
  const tie = head.surface(sphereDir(0.72, Math.PI), 0.1);
  const len = Math.max(spec.hair.length, 1.8 * r);
  const centre = curve(
    [
      tie,
      add(tie, [0, 0.22 * r, -0.38 * r]),
      add(tie, [0, -0.15 * r, -0.78 * r]),
      add(tie, [0, -0.5 * len, -0.85 * r]),
      add(tie, [0, -len, -0.7 * r]),
    ],
    12,
  );
  const chain = addHairChain(ctx, 'Ponytail', centre.filter((_, i) => i >= 2 && (i - 2) % 3 === 0), SOFT_HAIR, ['head', 'neck', 'body']);
  const locks = 11;
  for (let i = 0; i < locks; i++) {
    const a = (2 * Math.PI * i) / locks;
    const spread = (t: number): Vec3 => {
      const s = 0.36 * r * Math.sin(Math.PI * Math.min(1, 0.15 + t * 1.1)) + 0.06 * r;
      return [Math.cos(a) * s, Math.sin(a) * s * 0.5, Math.sin(a) * s * 0.6];
    };
    const path = centre.map((p, k) => add(p, spread(k / (centre.length - 1))));
    addLock(ctx, {
      path,
      width: (t) => r * 0.22 * (1 + 0.3 * Math.sin(Math.PI * t)) * (1 - 0.85 * t ** 2),
      thickness: (t) => r * 0.08 * (1 - 0.5 * t),
      twist: (t) => a + 0.6 * t,
      shine: (t, s) => hairShine(0.9 + t, a + 0.2 * s, t),
      skin: (p) => chain.skinByHeight(p[1]),
    });
  }
  addTie(ctx, tie, normalize(sub(centre[1]!, tie)), 0.2 * r);
}

/**
 * A low chignon (Sofia): sleek hair gathered into a wide coiled bun at the nape, a gold pin,
 * and two fine face-framing wisps at the temples that sway on springs.
 */
export function buildChignon(ctx: BuildContext): void {
  const { head, skeleton, palette } = ctx;
  const r = skeleton.headRadius;
  const base = head.surface(sphereDir(2.0, Math.PI), 0.05);
  const dir = normalize(sub(base, head.options.center));
  const c = add(base, scale(dir, 0.16 * r));
  // The bun body: a flattened ellipsoid, wider than tall.
  const rings: TubeRing[] = [-0.3, -0.18, -0.06, 0.06, 0.18, 0.3].map((t) => {
    const f = Math.sqrt(Math.max(0, 1 - (t / 0.33) ** 2));
    return { center: add(c, scale(dir, t * r)), rx: 1.18 * r * f, ry: 0.46 * r * f };
  });
  addGrid(ctx.builder, 'hair', {
    ...tubeRows(rings, 18, [0, 1, 0], { caps: true }),
    bands: cappedBands(rings.slice(1).map((_, i) => mixColor(palette.hair, palette.hairHighlight, i === 3 ? 0.3 : 0.08))),
    wrap: true,
    skin: () => rigid('head'),
  });
  // Coils: four locks wound round the bun, so it reads as twisted hair, not a ball.
  for (const [turn, lift] of [[0, 0.02], [Math.PI, 0.05], [Math.PI / 2, 0.08], [1.5 * Math.PI, 0.11]] as const) {
    const path: Vec3[] = [];
    for (let s = 0; s <= 16; s++) {
      const a = turn + (s / 16) * 1.6 * Math.PI;
      const rr = (0.95 - 0.5 * (s / 16)) * r;
      path.push(add(c, add(scale([Math.cos(a), 0, 0], rr), add([0, Math.sin(a) * rr * 0.64, 0], scale(dir, (0.24 + lift) * r)))));
    }
    addLock(ctx, {
      path,
      width: (t) => r * 0.1 * (1 - 0.7 * t),
      thickness: (t) => r * 0.06 * (1 - 0.4 * t),
      shine: (t, s) => 0.2 + 0.35 * Math.max(0, s) * (1 - t),
      skin: () => rigid('head'),
    });
  }
  // A gold pin through the bun.
  const pin: TubeRing[] = [-1, 1].map((s) => ({ center: add(c, [s * 0.9 * r, 0.3 * r, -0.05 * r + 0.08 * r * s]), rx: 0.025 * r, ry: 0.025 * r }));
  addGrid(ctx.builder, 'hair', {
    ...tubeRows(pin, 6, [0, 1, 0], { caps: true }),
    bands: cappedBands([palette.hairAccent]),
    wrap: true,
    skin: () => rigid('head'),
  });
  for (const sgn of [1, -1]) addWisp(ctx, sgn, sgn > 0 ? 'WispL' : 'WispR', 1.3, 0.08);
}

/**
 * Face-framing locks in front of the ears (Luna's long side locks, Sofia's fine wisps), `length`
 * in head radii, standing `flare` head units further off the cheek towards the tip.
 */
export function addWisp(ctx: BuildContext, sgn: number, name: string, length: number, flare = 0): void {
  const { head, skeleton, spec } = ctx;
  const r = skeleton.headRadius;
  const phi = sgn * 1.2;
  const top = head.surface(sphereDir(0.95, phi), 0.05 + 0.08 * spec.hair.volume);
  const keys: Vec3[] = [
    top,
    head.surface(sphereDir(1.35, sgn * 1.28), 0.09 + 0.5 * flare),
    head.surface(sphereDir(1.75, sgn * 1.22), 0.11 + flare),
    add(head.surface(sphereDir(2.0, sgn * 1.1), 0.12 + flare), [0, -(length - 1) * r, 0]),
  ];
  const path = curve(keys, 9);
  const chain = addHairChain(ctx, name, [path[3]!, path[6]!, path[8]!], SOFT_HAIR, ['head', 'neck']);
  const thin = length < 1.5;
  addLock(ctx, {
    path,
    width: (t) => r * (thin ? 0.09 : 0.13) * (1 - 0.8 * t ** 1.6),
    thickness: (t) => r * (thin ? 0.03 : 0.04) * (1 - 0.5 * t),
    twist: (t) => sgn * 0.5 * t,
    shine: (t, s) => hairShine(1 + t, phi + 0.1 * s, t),
    skin: (p) => chain.skinByHeight(p[1]),
  });
}

/** A ring of accent colour (scrunchie) round tied hair at `at`, facing along `axis`. */
function addTie(ctx: BuildContext, at: Vec3, axis: Vec3, radius: number): void {
  const { palette } = ctx;
  const rings: TubeRing[] = [-0.5, 0, 0.5].map((t) => ({ center: add(at, scale(axis, t * 0.35 * radius)), rx: radius * (1 - 0.15 * t * t), ry: radius * 0.8 * (1 - 0.15 * t * t) }));
  addGrid(ctx.builder, 'hair', {
    ...tubeRows(rings, 14, Math.abs(axis[1]) > 0.9 ? [0, 0, 1] : [0, 1, 0], { caps: true }),
    bands: cappedBands([palette.hairAccent, shadeColor(palette.hairAccent, 0.85)]),
    wrap: true,
    skin: () => rigid('head'),
  });
}
