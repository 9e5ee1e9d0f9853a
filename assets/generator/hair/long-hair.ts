import type { BuildContext } from '../characters/build-context.js';
import { sphereDir } from '../geometry/head-shape.js';
import { addGrid } from '../geometry/grid-surface.js';
import { add, profile, smoothstep, type Vec3 } from '../geometry/vec3.js';
import { mixWeights, type SkinWeights } from '../skeleton/skin-weights.js';
import { addHairChain, SOFT_HAIR, type HairChain } from './hair-chain.js';

/** Long locks sway, but stiffly enough that a head turn never swings them across the face. */
const LONG_HAIR = { ...SOFT_HAIR, stiffness: 1.8, drag: 0.55 };
import { addLock, curve } from './hair-lock.js';
import { hairShine, wrapPi } from './scalp.js';

const TAU = 2 * Math.PI;

/**
 * Long hair (Maya): locks leave the scalp below the crown all round the back and sides and fall
 * past the shoulders in soft waves, behind the shoulders at the back, framing the face at the
 * front. Six springs around the head carry them; a lock blends between its two nearest springs.
 */
export function buildLongHair(ctx: BuildContext): void {
  const { spec, skeleton } = ctx;
  const r = skeleton.headRadius;
  const open = 1.25;
  const count = 20;
  const wavy = spec.hair.style === 'long-wavy';
  const chainPhis = [open + 0.1, 1.9, 2.65, TAU - 2.65, TAU - 1.9, TAU - open - 0.1];
  const chains: HairChain[] = chainPhis.map((phi, i) =>
    addHairChain(ctx, `Long${i + 1}`, lockPath(ctx, phi, 0, 10, wavy).filter((_, k) => k >= 3 && k % 2 === 1), LONG_HAIR),
  );
  const skinAt = (phi: number): ((p: Vec3) => SkinWeights) => {
    let c = 0;
    while (c < chainPhis.length - 2 && chainPhis[c + 1]! < phi) c++;
    const f = smoothstep(chainPhis[c]!, chainPhis[c + 1]!, phi);
    const a = chains[c]!;
    const b = chains[c + 1]!;
    return (p) => mixWeights(a.skinByHeight(p[1]), b.skinByHeight(p[1]), f);
  };
  buildUnderLayer(ctx, open, wavy, skinAt);
  for (let i = 0; i < count; i++) {
    const phi = open + ((TAU - 2 * open) * (i + 0.5)) / count;
    const path = lockPath(ctx, phi, i, 10, wavy);
    const w0 = r * ((TAU - 2 * open) / count) * 1.6;
    addLock(ctx, {
      path,
      width: (t) => w0 * (1 + 0.25 * Math.sin(Math.PI * Math.min(1, t * 1.5))) * (1 - 0.75 * t ** 2.2),
      thickness: (t) => r * 0.07 * (1 - 0.5 * t),
      twist: (t) => 0.25 * Math.sin(t * 5 + i),
      shine: (t, s) => hairShine(1.2 + t * 1.3, phi + 0.1 * s, t),
      skin: skinAt(phi),
    });
  }
}

/**
 * A continuous sheet just inside the locks, a little shorter than they are, so the gaps between
 * locks show hair rather than the neck and back: the mass of the hair, with the locks as texture.
 */
function buildUnderLayer(ctx: BuildContext, open: number, wavy: boolean, skinAt: (phi: number) => (p: Vec3) => SkinWeights): void {
  const { palette, head } = ctx;
  const cols = 24;
  const samples = 10;
  const phis = Array.from({ length: cols + 1 }, (_, j) => open + ((TAU - 2 * open) * j) / cols);
  const paths = phis.map((phi) => lockPath(ctx, phi, 0, samples, wavy, 0.9, -0.04));
  const rows = Array.from({ length: samples }, (_, i) => paths.map((p) => p[i]!));
  const c = head.options.center;
  addGrid(ctx.builder, 'hair', {
    rows,
    gradient: { ramp: [palette.hair, palette.hairHighlight], t: rows.map((r, i) => r.map(() => 0.04 + 0.08 * (i / samples))) },
    wrap: false,
    inside: [c[0], c[1] - ctx.skeleton.headRadius, c[2]],
    skin: (p) => {
      // The column a vertex belongs to: its azimuth around the head's vertical axis.
      const phi = (Math.atan2(p[0] - c[0], p[2] - c[2]) + TAU) % TAU;
      return skinAt(Math.min(TAU - open, Math.max(open, phi)))(p);
    },
  });
}

/**
 * The centre line of a long lock at `phi`: over the scalp, then down with a wave. `lengthScale`
 * and `inset` (head radii, outward negative) shape the under layer from the same curve.
 */
function lockPath(ctx: BuildContext, phi: number, i: number, samples: number, wavy: boolean, lengthScale = 1, inset = 0): Vec3[] {
  const { head, spec, skeleton } = ctx;
  const r = skeleton.headRadius;
  const a = wrapPi(phi);
  const vol = spec.hair.volume;
  const attach = profile([[1.25, 1.25], [1.6, 1.3], [Math.PI, 1.45]], a);
  const len = (profile([[1.25, 2.2 * r], [1.9, spec.hair.length * 0.92], [Math.PI, spec.hair.length]], a) + 0.06 * r * ((i * 7) % 3)) * lengthScale;
  const out: Vec3 = [Math.sin(phi), 0, Math.cos(phi)];
  const keys: Vec3[] = [];
  keys.push(head.surface(sphereDir(attach - 0.55, phi), 0.03 + 0.06 * vol + inset));
  keys.push(head.surface(sphereDir(attach, phi), 0.05 + 0.1 * vol + inset));
  const base = keys[1]!;
  const back = smoothstep(1.6, Math.PI, a);
  for (const f of [0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1]) {
    const flare = 0.22 * r * Math.sin(Math.min(1, f * 1.5) * Math.PI * 0.5) * vol + inset * r;
    const wave = wavy ? 0.12 * r * Math.sin(f * 11 + phi * 3) * Math.min(1, f * 3) : 0;
    const drift = back * 0.5 * r * smoothstep(0.1, 0.8, f);
    keys.push(add(base, [out[0] * (flare + wave), -len * f, out[2] * (flare + wave) - drift]));
  }
  return curve(keys, samples);
}
