import type { BuildContext } from '../characters/build-context.js';
import { sphereDir } from '../geometry/head-shape.js';
import type { Vec3 } from '../geometry/vec3.js';
import { rigid } from '../skeleton/skin-weights.js';
import { addHairChain, SHORT_HAIR, type HairChain } from './hair-chain.js';
import { addLock, curve } from './hair-lock.js';
import { hairShine, wrapPi } from './scalp.js';

/** A point on the head at polar `theta`, azimuth `phi`, `offset` head units out. */
const onHead = (ctx: BuildContext, theta: number, phi: number, offset: number): Vec3 => ctx.head.surface(sphereDir(theta, phi), offset);

/**
 * A short lock that lies along the head from (theta0, phi0) to (theta1, phi1), lifting off at the
 * tip by `lift` head units: the unit of textured short styles.
 */
function surfaceLock(
  ctx: BuildContext,
  from: readonly [number, number],
  to: readonly [number, number],
  opts: { base: number; lift: number; width: number; thickness: number; taper?: number; chain?: HairChain; seed: number },
): void {
  const r = ctx.skeleton.headRadius;
  const keys = [0, 0.33, 0.66, 1].map((f) => {
    const theta = from[0] + (to[0] - from[0]) * f;
    const phi = from[1] + (to[1] - from[1]) * f;
    return onHead(ctx, theta, phi, opts.base + opts.lift * f * f);
  });
  const path = curve(keys, 6);
  const chain = opts.chain;
  addLock(ctx, {
    path,
    width: (t) => r * opts.width * (1 - (opts.taper ?? 0.85) * t ** 1.3),
    thickness: (t) => r * opts.thickness * (1 - 0.5 * t),
    twist: (t) => 0.3 * Math.sin(opts.seed) * t,
    shine: (t, s) => hairShine(from[0] + (to[0] - from[0]) * t, from[1] + 0.1 * s, t),
    skin: (_, t) => (chain ? chain.skinAlong(t) : rigid('head')),
  });
}

/**
 * Short textured hair (Kenji): layers of tapered tufts combed forward and down over a full
 * scalp, their tips lifting off so the outline is choppy; the front tufts hang on springs.
 */
export function buildTousled(ctx: BuildContext): void {
  const vol = ctx.spec.hair.volume;
  let seed = 1;
  const next = (): number => {
    // A fixed pseudo-random sequence (deterministic: no Math.random).
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  // Crown and back: tufts radiating from a whorl on the crown.
  for (const [theta, count, len] of [[0.35, 7, 0.55], [0.75, 11, 0.6], [1.15, 14, 0.55], [1.55, 12, 0.45]] as const) {
    for (let j = 0; j < count; j++) {
      const phi = (2 * Math.PI * (j + 0.5 * (theta > 0.6 ? 1 : 0))) / count + 0.15 * next();
      const a = wrapPi(phi);
      if (theta > 1.1 && a < 1.0) continue; // the face stays clear
      const toward = a < 1.6 ? -0.25 : 0.25; // sides comb forward, back combs down
      surfaceLock(ctx, [theta - 0.1, phi], [theta + len * (0.8 + 0.4 * next()), phi + toward * Math.sign(Math.sin(phi))], {
        base: 0.08 + 0.12 * vol * Math.cos(theta * 0.8),
        lift: 0.07 + 0.08 * next(),
        width: 0.3,
        thickness: 0.05,
        taper: 0.65,
        seed: next() * 6,
      });
    }
  }
  // Front: choppy fringe tufts over the forehead, three of them on springs.
  const chains = [-0.35, 0, 0.35].map((phi, i) =>
    addHairChain(ctx, `Tuft${i + 1}`, [onHead(ctx, 0.8, phi, 0.2), onHead(ctx, 1.05, phi + 0.1, 0.2), onHead(ctx, 1.28, phi + 0.15, 0.16)], SHORT_HAIR),
  );
  for (let j = 0; j < 9; j++) {
    const phi = -0.9 + (1.8 * j) / 8;
    const chain = Math.abs(phi) < 0.5 ? chains[Math.round((phi + 0.35) / 0.35)] : undefined;
    surfaceLock(ctx, [0.35, phi * 0.6], [1.22 + 0.08 * next(), phi + 0.2], {
      base: 0.1 + 0.08 * vol,
      lift: 0.04 + 0.05 * next(),
      width: 0.3,
      thickness: 0.05,
      taper: 0.7,
      ...(chain ? { chain } : {}),
      seed: next() * 6,
    });
  }
}

/**
 * Short neat hair with a side part (Atlas): locks combed from a part over the model's left
 * towards the right and back, close to the head, with a soft front wave on a spring.
 */
export function buildSidePart(ctx: BuildContext): void {
  const part = 0.55; // azimuth of the parting line (model's left)
  for (let j = 0; j < 20; j++) {
    const phi = part - 0.05 - (2.6 * j) / 19;
    surfaceLock(ctx, [0.25 + 0.02 * j, part - 0.05], [0.9 + 0.35 * Math.min(1, j / 8), phi], {
      base: 0.15,
      lift: -0.1,
      width: 0.2,
      thickness: 0.03,
      seed: j,
    });
  }
  for (let j = 0; j < 5; j++) {
    const phi = part + 0.05 + 0.35 * j;
    surfaceLock(ctx, [0.25, part + 0.05], [1.0 + 0.1 * j, phi + 0.2], { base: 0.15, lift: -0.11, width: 0.18, thickness: 0.03, seed: j + 20 });
  }
  // Back and sides: short locks combed down to a tapered nape, lying close to the head.
  for (let j = 0; j < 22; j++) {
    const phi = 1.25 + ((2 * Math.PI - 2.5) * j) / 21;
    const a = wrapPi(phi);
    surfaceLock(ctx, [0.95, phi], [a > 2.2 ? 2.1 : 1.75, phi + 0.05 * Math.sin(phi)], {
      base: 0.05,
      lift: -0.015,
      width: 0.26,
      thickness: 0.025,
      taper: 0.5,
      seed: j + 40,
    });
  }
  // The front wave: a wider lock lifting over the forehead.
  const chain = addHairChain(ctx, 'Wave', [onHead(ctx, 0.55, 0.1, 0.2), onHead(ctx, 0.8, -0.15, 0.18), onHead(ctx, 0.98, -0.35, 0.14)], SHORT_HAIR);
  for (const [dp, w] of [[0, 0.26], [0.18, 0.2], [-0.18, 0.2]] as const) {
    surfaceLock(ctx, [0.3, part - 0.1 + dp], [0.98, -0.35 + dp], { base: 0.17, lift: -0.04, width: w, thickness: 0.04, chain, seed: dp * 10 });
  }
}

/**
 * Receding grey hair (Orion): short locks combed back and down over the temples, sides and
 * back of the head; the two tufts over the ears sway on springs.
 */
export function buildFringeOfGrey(ctx: BuildContext): void {
  const chains = [1, -1].map((sgn) =>
    addHairChain(ctx, sgn > 0 ? 'SideL' : 'SideR', [onHead(ctx, 1.2, sgn * 1.7, 0.1), onHead(ctx, 1.45, sgn * 1.85, 0.12), onHead(ctx, 1.65, sgn * 1.95, 0.1)], SHORT_HAIR),
  );
  // Two rows: a lower row combed down and back over the ears and nape, an upper row (shorter,
  // starting higher) over its roots, so the band reads as layered hair with a soft top edge.
  for (const [row, count, start, len, base] of [[0, 20, 0, 0.62, 0.1], [1, 16, -0.28, 0.45, 0.16]] as const) {
    for (let j = 0; j < count; j++) {
      const phi = 0.95 + ((2 * Math.PI - 1.9) * (j + 0.5 * row)) / (count - 1 + 0.5 * row);
      const a = wrapPi(phi);
      const sgn = Math.sin(phi) >= 0 ? 1 : -1;
      const theta0 = (a < 1.6 ? 1.22 : 1.02) + start;
      const chain = row === 0 && Math.abs(a - 1.75) < 0.3 ? chains[sgn > 0 ? 0 : 1] : undefined;
      // Fuller over the ears than at the nape: the sides puff out a little.
      const puff = 0.1 * Math.exp(-(((a - 1.75) / 0.55) ** 2));
      surfaceLock(ctx, [theta0, phi], [theta0 + len, phi + sgn * 0.1], {
        base: base + puff,
        lift: 0.03 + puff,
        width: 0.26,
        thickness: 0.03,
        taper: 0.55,
        ...(chain ? { chain } : {}),
        seed: j,
      });
    }
  }
}

