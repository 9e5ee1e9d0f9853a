import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildHead } from '../../assets/generator/body/build-head.js';
import { createBuildContext, type BuildContext } from '../../assets/generator/characters/build-context.js';
import { CHARACTERS } from '../../assets/generator/characters/characters.js';
import { buildFace } from '../../assets/generator/face/build-face.js';
import { EXPRESSION_NAMES, type ExpressionName } from '../../assets/generator/face/face-state.js';
import type { PrimitiveData } from '../../assets/generator/geometry/mesh-builder.js';
import { dot, normalize, sub, type Vec3 } from '../../assets/generator/geometry/vec3.js';

/**
 * The faces as geometry, before any rendering: the mouth interior is a primitive of its own that
 * the lips hide at rest and the visemes open wide, the lower face shades as one lit form under
 * the stage's key light, and no two characters share a face outline. The committed files are
 * this generator's output byte for byte (avatar-models.test.ts), so these hold for them too.
 */

/** Direction toward the stage's key light (`widget/stage/stage-lighting.ts`: position −0.8, 2.2, 2.5). */
const KEY_LIGHT = normalize([-0.8, 2.2, 2.5]);

/** Where MToon's toon step turns a body-slot surface to shadow: dot(n, l) + shift = 0 (shift −0.05). */
const SHADOW_EDGE = 0.05;

/** The head and face of one character, and how many `body` vertices are head skin and ears. */
function buildFaceOnly(index: number): { ctx: BuildContext; headVertices: number } {
  const ctx = createBuildContext(CHARACTERS[index]!, EXPRESSION_NAMES.length);
  buildHead(ctx);
  const headVertices = ctx.builder.primitive('body').vertices.length;
  buildFace(ctx);
  return { ctx, headVertices };
}

/** Positions of a primitive with one expression applied at weight 1. */
function posed(prim: PrimitiveData, expression: ExpressionName | null): Vec3[] {
  const target = expression === null ? -1 : EXPRESSION_NAMES.indexOf(expression);
  return prim.vertices.map((v, i) => {
    const d = target < 0 ? undefined : prim.morphs[target]!.get(i);
    return d ? [v.position[0] + d[0], v.position[1] + d[1], v.position[2] + d[2]] : v.position;
  });
}

/** Area of the primitive's triangles seen from the front (projected on the XY plane). */
function frontArea(prim: PrimitiveData, positions: readonly Vec3[]): number {
  let area = 0;
  for (let t = 0; t < prim.indices.length; t += 3) {
    const [a, b, c] = [0, 1, 2].map((k) => positions[prim.indices[t + k]!]!) as [Vec3, Vec3, Vec3];
    area += Math.abs((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) / 2;
  }
  return area;
}

/** Widest width of the head (ears excluded), in metres, from the head's own surface. */
function faceWidth(ctx: BuildContext): number {
  let widest = 0;
  for (let v = -1.1; v <= 0.3; v += 0.02) {
    for (let z = -0.6; z <= 0.9; z += 0.05) widest = Math.max(widest, surfaceX(ctx, v, z));
  }
  return 2 * widest * ctx.head.options.radius;
}

/** Where the head's surface crosses x ≥ 0 at height `v` and depth `z` (head units), by bisection. */
function surfaceX(ctx: BuildContext, v: number, z: number): number {
  let lo = 0;
  let hi = 2;
  for (let k = 0; k < 30; k++) {
    const mid = (lo + hi) / 2;
    if (ctx.head.field([mid, v, z]) < 1) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Half width of the face outline at heights −1 … 0 (head units), seen from the front. */
function outline(ctx: BuildContext): number[] {
  return Array.from({ length: 21 }, (_, i) => {
    const v = -1 + i * 0.05;
    let widest = 0;
    for (let z = -0.2; z <= 0.9; z += 0.05) widest = Math.max(widest, surfaceX(ctx, v, z));
    return widest;
  });
}

describe('generated faces', () => {
  const built = CHARACTERS.map((_, i) => buildFaceOnly(i));

  CHARACTERS.forEach((spec, i) => {
    describe(spec.id, () => {
      const { ctx, headVertices } = built[i]!;
      const mouth = ctx.builder.primitive('mouth');

      it('has the mouth interior as its own primitive, rigid on the head bone', () => {
        assert.ok(mouth.indices.length > 0);
        for (const v of mouth.vertices) assert.deepEqual(v.skin, [['head', 1]]);
      });

      it('moves the interior with every viseme and hides it behind the lips at rest', () => {
        const rest = frontArea(mouth, posed(mouth, null));
        for (const viseme of ['aa', 'ih', 'ou', 'ee', 'oh'] as const) {
          assert.ok(mouth.morphs[EXPRESSION_NAMES.indexOf(viseme)]!.size > 0, `${viseme} moves the interior`);
        }
        const aa = frontArea(mouth, posed(mouth, 'aa'));
        assert.ok(aa >= 8 * rest, `interior area at aa ${aa.toExponential(2)} vs rest ${rest.toExponential(2)}`);
      });

      it('opens aa, ee, ih and oh to at least a quarter of the face width', () => {
        const width = faceWidth(ctx);
        for (const viseme of ['aa', 'ee', 'ih', 'oh'] as const) {
          const xs = posed(mouth, viseme).map((p) => p[0]);
          const opening = Math.max(...xs) - Math.min(...xs);
          assert.ok(opening >= 0.25 * width, `${viseme}: ${(opening / width).toFixed(3)} of the face width`);
        }
      });

      it('keeps the lower face lit under the stage key light (no toon shadow patch on the cheeks)', () => {
        const { head } = ctx;
        const r = head.options.radius;
        const skin = ctx.builder.primitive('body').vertices.slice(0, headVertices);
        let checked = 0;
        for (const v of skin) {
          const q = sub(v.position, head.options.center).map((x) => x / r) as unknown as Vec3;
          // Cheeks and jaw as the camera sees them: beside the nose, in front of the ears, below the eyes,
          // above the chin (the nose keeps its shadow on purpose).
          if (q[2] < 0.35 || q[1] > -0.2 || q[1] < -0.85 || Math.abs(q[0]) < 0.2 || Math.abs(q[0]) > 0.8) continue;
          checked++;
          const lit = dot(v.normal, KEY_LIGHT);
          assert.ok(lit > SHADOW_EDGE, `vertex at ${q.map((x) => x.toFixed(2)).join(', ')} lit ${lit.toFixed(3)}`);
        }
        assert.ok(checked > 100, `${checked} cheek vertices checked`);
      });
    });
  });

  it('gives the six characters face outlines that differ pairwise', () => {
    const outlines = built.map(({ ctx }) => outline(ctx));
    for (let a = 0; a < outlines.length; a++) {
      for (let b = a + 1; b < outlines.length; b++) {
        const gap = Math.max(...outlines[a]!.map((w, k) => Math.abs(w - outlines[b]![k]!)));
        assert.ok(gap >= 0.04, `${CHARACTERS[a]!.id} vs ${CHARACTERS[b]!.id}: outlines differ by at most ${gap.toFixed(3)} head units`);
      }
    }
  });
});
