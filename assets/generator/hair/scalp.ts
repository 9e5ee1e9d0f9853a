import type { BuildContext } from '../characters/build-context.js';
import { addGrid } from '../geometry/grid-surface.js';
import { sphereDir } from '../geometry/head-shape.js';
import { profile, smoothstep, type Vec3 } from '../geometry/vec3.js';
import { rigid } from '../skeleton/skin-weights.js';

const TAU = 2 * Math.PI;
/** |phi| folded into [0, π]: 0 at the front of the head, π at the back. */
export const wrapPi = (phi: number): number => Math.abs((((phi + Math.PI) % TAU) + TAU) % TAU - Math.PI);

/**
 * Hair-ramp position for the scalp and locks: strand streaks across the hair, a glossy
 * "angel ring" on the crown, lighter tips.
 */
export function hairShine(theta: number, phi: number, tip: number): number {
  const ring = Math.exp(-(((theta - 0.62 - 0.04 * Math.cos(phi * 14)) / 0.09) ** 2)) * smoothstep(1.9, 1.2, wrapPi(phi));
  const streak = 0.1 * (0.5 + 0.5 * Math.sin(phi * 23 + theta * 4));
  return Math.min(1, 1 - (1 - 0.25 * tip) * (1 - 0.75 * ring) * (1 - streak) - 0.1);
}

/** Polar angle of the hairline (from the top of the head) around the head. */
function hairline(ctx: BuildContext, phi: number): number {
  const a = wrapPi(phi);
  const s = ctx.spec.hair.style;
  if (s === 'receding') return profile([[0, 0.72], [0.45, 0.66], [0.8, 1.15], [1.6, 1.62], [Math.PI, 2.2]], a);
  if (s === 'textured' || s === 'short-neat') return profile([[0, 0.85], [0.6, 1.05], [1.2, 1.45], [1.6, 1.6], [Math.PI, 2.25]], a);
  if (s === 'bun' || s === 'ponytail') return profile([[0, 0.88], [0.7, 1.18], [1.35, 1.6], [1.7, 1.72], [Math.PI, 2.25]], a);
  return profile([[0, 0.9], [0.7, 1.2], [1.35, 1.62], [1.7, 1.75], [Math.PI, 2.3]], a);
}

/**
 * The scalp shell every style starts from: hair over the skull up to the hairline, with
 * volume on the crown, shallow grooves between strands (so the outline is not a smooth dome)
 * and strand streaks in the shading. Receding hair leaves the crown bare.
 */
export function buildScalp(ctx: BuildContext, volume: number): void {
  const { head, palette } = ctx;
  const receding = ctx.spec.hair.style === 'receding';
  const neat = ctx.spec.hair.style === 'short-neat';
  // Receding: an open band from temple to temple round the back, bare on top; a full cap otherwise.
  const cols = 40;
  const nRows = receding ? 8 : 14;
  const phiAt = (j: number): number => (receding ? 0.85 + ((TAU - 1.7) * j) / cols : (TAU * j) / cols);
  const top = (a: number): number => profile([[0.85, 1.32], [1.6, 1.05], [Math.PI, 0.95]], a);
  const rows: Vec3[][] = [];
  const colors: number[][] = [];
  for (let i = receding ? 0 : 1; i <= nRows; i++) {
    const f = i / nRows;
    const row: Vec3[] = [];
    const crow: number[] = [];
    for (let j = 0; j < (receding ? cols + 1 : cols); j++) {
      const phi = phiAt(j);
      const line = hairline(ctx, phi);
      const t0 = receding ? top(wrapPi(phi)) : 0;
      const theta = t0 + f * (Math.max(line, t0 + 0.25) - t0);
      const groove = 1 - 0.25 * Math.abs(Math.sin(phi * 12 + theta * 2));
      const edge = receding ? Math.sin(Math.PI * Math.min(1, 0.15 + f)) : 1;
      // Short neat hair keeps its volume on top (tight sides); other styles spread it evenly.
      const profileLift = neat ? 0.02 + 0.2 * Math.max(0, Math.cos(theta * 1.25)) ** 1.5 : 0.05 + 0.07 * Math.cos(theta * 0.9);
      const lift = profileLift * volume * groove * edge * (1 - 0.85 * smoothstep(0.8, 1, f));
      row.push(head.surface(sphereDir(theta, phi), 0.012 + lift));
      crow.push(hairShine(theta, phi, 0));
    }
    rows.push(row);
    colors.push(crow);
  }
  addGrid(ctx.builder, 'hair', {
    rows,
    gradient: { ramp: [palette.hair, palette.hairHighlight], t: colors },
    wrap: !receding,
    ...(receding ? {} : { startPole: head.surface([0, 1, 0], 0.012 + (neat ? 0.22 : 0.12) * volume) }),
    inside: head.options.center,
    skin: () => rigid('head'),
  });
}
