import type { BuildContext } from '../characters/build-context.js';
import { buildBeard } from './beard.js';
import { buildFringe } from './fringe.js';
import { buildLongHair } from './long-hair.js';
import { buildScalp } from './scalp.js';
import { buildFringeOfGrey, buildSidePart, buildTousled } from './short-hair.js';
import { addWisp, buildChignon, buildPonytail } from './tied-hair.js';

/**
 * Hair: a scalp shell, then the style's locks (cards with thickness, tapered, streaked from a
 * darker base to a highlight) and their spring-bone chains, plus the beard. Every style has at
 * least one spring, so hair moves when the head turns.
 */
export function buildHair(ctx: BuildContext): void {
  const { spec } = ctx;
  const style = spec.hair.style;
  const sleek = style === 'bun' ? 0.3 : 1;
  buildScalp(ctx, spec.hair.volume * sleek);
  buildFringe(ctx);
  if (style === 'long-wavy') buildLongHair(ctx);
  if (style === 'ponytail') {
    buildPonytail(ctx);
    for (const sgn of [1, -1]) addWisp(ctx, sgn, sgn > 0 ? 'SideL' : 'SideR', 1.7);
  }
  if (style === 'bun') buildChignon(ctx);
  if (style === 'textured') buildTousled(ctx);
  if (style === 'short-neat') buildSidePart(ctx);
  if (style === 'receding') buildFringeOfGrey(ctx);
  if (spec.face.beard) buildBeard(ctx);
}
