import type { BuildContext } from '../characters/build-context.js';
import { addGrid } from '../geometry/grid-surface.js';
import { sphereDir } from '../geometry/head-shape.js';
import { profile, smoothstep, type Vec3 } from '../geometry/vec3.js';
import { rigid } from '../skeleton/skin-weights.js';
import { addLock, curve } from './hair-lock.js';

/**
 * A trimmed full beard that follows the jaw: narrow sideburns from the hair at the ears, along
 * the jawline (cheeks stay bare), full on the chin and under it; streaked like hair. Plus a
 * moustache of two curved locks above the upper lip that leaves the mouth visible.
 */
export function buildBeard(ctx: BuildContext): void {
  const { head, palette } = ctx;
  const cols = 34;
  const nRows = 9;
  const span = 1.72;
  const rows: Vec3[][] = [];
  const colors: number[][] = [];
  // Upper edge (polar angle from the top) by azimuth: under the mouth at the front, rising along
  // the jaw to sideburns in front of the ears.
  const top = (a: number): number => profile([[0, 2.38], [0.3, 2.34], [0.75, 2.2], [1.25, 1.95], [1.5, 1.62], [span, 1.5]], a);
  const bottom = (a: number): number => profile([[0, 2.85], [0.8, 2.75], [1.3, 2.3], [span, 1.9]], a);
  for (let i = 0; i <= nRows; i++) {
    const f = i / nRows;
    const row: Vec3[] = [];
    const crow: number[] = [];
    for (let j = 0; j <= cols; j++) {
      const phi = -span + (2 * span * j) / cols;
      const a = Math.abs(phi);
      const theta = top(a) + f * (bottom(a) - top(a));
      // Full on the chin, thin on the sideburns, tapering to the edges.
      const bulk = (0.035 + 0.26 * smoothstep(1.4, 0.2, a) * Math.sin(Math.PI * Math.min(1, 0.2 + f))) * (1 - 0.5 * smoothstep(0.8, 1, f));
      row.push(head.surface(sphereDir(theta, phi), 0.008 + bulk));
      crow.push(0.15 + 0.3 * Math.abs(Math.sin(phi * 13 + f * 2)));
    }
    rows.push(row);
    colors.push(crow);
  }
  addGrid(ctx.builder, 'hair', {
    rows,
    gradient: { ramp: [palette.hair, palette.hairHighlight], t: colors },
    wrap: false,
    inside: head.options.center,
    skin: () => rigid('head'),
  });
  const r = ctx.skeleton.headRadius;
  for (const sgn of [1, -1]) {
    const keys = [
      [0.015, -0.47, 0.05],
      [0.11, -0.49, 0.06],
      [0.2, -0.56, 0.05],
      [0.25, -0.66, 0.03],
    ].map(([u, v, o]) => head.project(sgn * u!, v!, o!).position);
    addLock(ctx, {
      path: curve(keys, 7),
      width: (t) => r * 0.075 * (1 - 0.75 * t ** 1.5),
      thickness: (t) => r * 0.035 * (1 - 0.5 * t),
      shine: (t, s) => 0.2 + 0.3 * Math.abs(s) * (1 - t),
      skin: () => rigid('head'),
    });
  }
}
