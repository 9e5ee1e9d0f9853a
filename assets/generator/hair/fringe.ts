import type { BuildContext } from '../characters/build-context.js';
import { sphereDir } from '../geometry/head-shape.js';
import { smoothstep, type Vec3 } from '../geometry/vec3.js';
import { mixWeights } from '../skeleton/skin-weights.js';
import { addHairChain, SHORT_HAIR } from './hair-chain.js';
import { addLock } from './hair-lock.js';
import { hairShine } from './scalp.js';

/**
 * The fringe as a row of tapered locks from the crown over the forehead (full, parted or swept
 * to one side), hung on two short springs so it stirs when the head moves.
 */
export function buildFringe(ctx: BuildContext): void {
  const { head, spec, skeleton } = ctx;
  const kind = spec.hair.bangs;
  if (kind === 'none') return;
  const r = skeleton.headRadius;
  const vol = spec.hair.volume;
  const count = kind === 'full' ? 11 : 10;
  const span = kind === 'parted' ? 1.3 : 1.1;
  const tipTheta = (phi0: number, i: number): number => {
    const zig = 0.07 * (i % 2);
    if (kind === 'full') return 1.3 - zig;
    if (kind === 'parted') return 0.95 + 0.5 * smoothstep(0.05, 0.9, Math.abs(phi0)) - zig;
    return 0.92 + 0.48 * smoothstep(-0.9, 0.9, phi0) - zig; // side-swept: longer over the model's left
  };
  const sweep = (phi0: number, f: number): number =>
    kind === 'side-swept' ? 0.38 * f * f : kind === 'parted' ? 0.28 * f * Math.sign(phi0) : 0.04 * f * Math.sin(phi0 * 5);
  const pathAt = (phi0: number, i: number, samples: number): { p: Vec3; theta: number; phi: number }[] =>
    Array.from({ length: samples }, (_, s) => {
      const f = s / (samples - 1);
      const theta = 0.22 + f * (tipTheta(phi0, i) - 0.22);
      const phi = phi0 + sweep(phi0, f);
      const lift = (0.07 + 0.07 * Math.cos(theta * 0.9)) * vol * (1 - 0.7 * f) + 0.03;
      return { p: head.surface(sphereDir(theta, phi), 0.012 + lift), theta, phi };
    });
  const chainAt = (phi0: number, name: string) =>
    addHairChain(ctx, name, pathAt(phi0, 0, 9).slice(4).filter((_, i) => i % 2 === 0).map((q) => q.p), SHORT_HAIR);
  const left = chainAt(0.45, 'FringeL');
  const right = chainAt(-0.45, 'FringeR');
  for (let i = 0; i < count; i++) {
    const phi0 = -span + (2 * span * (i + 0.5)) / count;
    const path = pathAt(phi0, i, 7);
    const w0 = r * ((2 * span) / count) * 0.72;
    const side = smoothstep(-0.45, 0.45, phi0);
    addLock(ctx, {
      path: path.map((q) => q.p),
      width: (t) => w0 * (1 - 0.82 * t ** 1.4),
      thickness: (t) => r * 0.035 * (1 - 0.5 * t),
      shine: (t, s) => hairShine(path[0]!.theta + t * 1.1, phi0 + 0.1 * s, t),
      skin: (p) => mixWeights(right.skinByHeight(p[1]), left.skinByHeight(p[1]), side),
    });
  }
}
