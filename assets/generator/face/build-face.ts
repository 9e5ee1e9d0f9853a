import type { BuildContext } from '../characters/build-context.js';
import { mixColor } from '../geometry/color.js';
import { addGrid } from '../geometry/grid-surface.js';
import { tubeRows, type TubeRing } from '../geometry/tube.js';
import { add, scale, sub, type Vec3 } from '../geometry/vec3.js';
import { rigid } from '../skeleton/skin-weights.js';
import { faceFeatures } from './face-features.js';
import { EXPRESSION_FACES, EXPRESSION_NAMES, NEUTRAL_FACE } from './face-state.js';

/**
 * Adds the face features in their neutral state and, for each expression preset, a morph target
 * holding the displacement from neutral to that expression's face.
 */
export function buildFace(ctx: BuildContext): void {
  const { builder, head } = ctx;
  const skin = rigid('head');
  const neutral = faceFeatures(ctx, NEUTRAL_FACE);
  const indices = neutral.map((g) =>
    addGrid(builder, g.slot, {
      rows: g.rows,
      normals: g.normals,
      gradient: { ramp: g.ramp, t: g.t },
      wrap: g.wrap,
      inside: head.options.center,
      skin: () => skin,
    }),
  );
  EXPRESSION_NAMES.forEach((name, target) => {
    const grids = faceFeatures(ctx, EXPRESSION_FACES[name]);
    grids.forEach((g, gi) =>
      g.rows.forEach((row, i) =>
        row.forEach((p, j) => builder.setMorph(g.slot, target, indices[gi]!.rows[i]![j]!, sub(p, neutral[gi]!.rows[i]![j]!))),
      ),
    );
  });
  buildFaceMarks(ctx);
  if (ctx.spec.face.glasses !== 'none') buildGlasses(ctx);
}

/** Static shading marks: nose tip shadow, cheek blush, and smile lines on older faces. */
function buildFaceMarks(ctx: BuildContext): void {
  const { head, palette, spec, builder } = ctx;
  const skin = rigid('head');
  const grid = (pts: [number, number, number][][], offset: number, wrap: boolean, ramp: readonly [Vec3, Vec3]): void => {
    const projected = pts.map((r) => r.map(([u, v]) => head.project(u, v, offset)));
    addGrid(builder, 'face', {
      rows: projected.map((r) => r.map((p) => p.position)),
      normals: projected.map((r) => r.map((p) => p.normal)),
      gradient: { ramp, t: pts.map((r) => r.map((p) => p[2])) },
      wrap,
      inside: head.options.center,
      skin: () => skin,
    });
  };
  // Nose: a soft shadow under the tip and two small nostrils; the ridge itself is sculpted.
  const nose = mixColor(palette.skin, palette.skinShade, 0.8);
  const nostril = mixColor(palette.skinShade, [0.12, 0.04, 0.04], 0.35);
  const tip = head.noseTipY;
  const nw = spec.face.noseWidth;
  const ns = Array.from({ length: 7 }, (_, i) => -1 + (2 * i) / 6);
  grid(
    [
      ns.map((s) => [s * 0.06 * nw, tip - 0.045 + 0.012 * s * s, 0]),
      ns.map((s) => [s * 0.045 * nw, tip - 0.03 + 0.012 * s * s, 1]),
    ],
    0.003,
    false,
    [nose, palette.skin],
  );
  // The side of the nose away from the stage's key light (which comes from the viewer's left):
  // a soft wedge from the bridge to the tip, the way drawn faces mark a nose seen from the front.
  const wedge = mixColor(palette.skin, palette.skinShade, 0.55);
  const len = 0.2 * spec.face.nose;
  const ws = Array.from({ length: 7 }, (_, i) => i / 6);
  grid(
    [
      ws.map((t) => [0.018 * nw + 0.02 * nw * t * t, tip + len * (1 - t) - 0.005, 1]),
      ws.map((t) => [0.03 * nw + 0.04 * nw * t ** 1.5, tip + len * (1 - t) - 0.012 * t, 0]),
    ],
    0.003,
    false,
    [wedge, palette.skin],
  );
  if (spec.face.nose >= 1.1) {
    // Larger noses show their nostrils.
    for (const side of [1, -1]) {
      const rows: [number, number, number][][] = [0.4, 1].map((f) =>
        Array.from({ length: 8 }, (_, j) => {
          const a = (2 * Math.PI * j) / 8;
          return [side * 0.042 * nw + Math.cos(a) * 0.017 * nw * f, tip - 0.046 + Math.sin(a) * 0.008 * f, 0];
        }),
      );
      grid(rows, 0.0035, true, [nostril, mixColor(nostril, palette.skinShade, 0.5)]);
    }
  }
  if (spec.face.blush > 0) {
    const blush = mixColor(palette.skin, [0.9, 0.25, 0.3], 0.3 * spec.face.blush);
    for (const side of [1, -1]) {
      const rows: [number, number, number][][] = [0.15, 0.5, 0.8, 1].map((f) =>
        Array.from({ length: 16 }, (_, j) => {
          const a = (2 * Math.PI * j) / 16;
          return [side * 0.44 + Math.cos(a) * 0.11 * f, -0.36 + Math.sin(a) * 0.055 * f, f ** 2];
        }),
      );
      grid(rows, 0.0025, true, [blush, palette.skin]);
    }
  }
  if (spec.face.age > 0.5) {
    const line = mixColor(palette.skin, palette.skinShade, 0.9);
    const my = head.mouthY;
    for (const side of [1, -1]) {
      // Smile lines from the nose wings past the mouth corners.
      const ts = Array.from({ length: 8 }, (_, i) => i / 7);
      grid(
        [
          ts.map((t) => [side * (0.13 * nw + 0.16 * t - 0.03 * t * t), tip - 0.02 + (my - 0.06 - tip) * t, 0]),
          ts.map((t) => [side * (0.143 * nw + 0.16 * t - 0.03 * t * t), tip - 0.02 + (my - 0.06 - tip) * t, 0]),
        ],
        0.003,
        false,
        [line, line],
      );
      // Eye bags: a soft arc under each eye.
      const ex = side * 0.36 * spec.face.eyeSpacing;
      const w = 0.13 * spec.face.eyeSize;
      const bs = Array.from({ length: 9 }, (_, i) => -1 + (2 * i) / 8);
      grid(
        [
          bs.map((s) => [ex + side * w * s * 0.9, -0.16 - 0.13 * spec.face.eyeSize + 0.03 * s * s, 0]),
          bs.map((s) => [ex + side * w * s, -0.16 - 0.118 * spec.face.eyeSize + 0.03 * s * s, 0]),
        ],
        0.003,
        false,
        [line, line],
      );
      // Crow's feet at the outer eye corners.
      for (const dy of [-0.03, 0.0]) {
        grid(
          [
            [0, 1, 2].map((i) => [side * (0.55 + 0.04 * i), -0.15 + dy - 0.012 * i + 0.02 * dy * i, 0]),
            [0, 1, 2].map((i) => [side * (0.55 + 0.04 * i), -0.15 + dy - 0.012 * i + 0.02 * dy * i + 0.007, 0]),
          ],
          0.003,
          false,
          [line, line],
        );
      }
    }
  }
}

/** Frames around both eyes with a bridge and temples, floating just off the face. */
function buildGlasses(ctx: BuildContext): void {
  const { head, spec, skeleton, builder } = ctx;
  const frame = ctx.palette.glasses;
  const r = skeleton.headRadius;
  const tubeR = 0.016 * r;
  const round = spec.face.glasses === 'round';
  const skin = rigid('head');
  const lensAt = (side: number, a: number): Vec3 => {
    const cx = side * 0.36 * spec.face.eyeSpacing;
    const cy = -0.12;
    const rx = round ? 0.2 : 0.23;
    const ry = round ? 0.19 : 0.15;
    const c = Math.cos(a);
    const s = Math.sin(a);
    const e = round ? 2 : 4;
    const u = cx + rx * Math.sign(c) * Math.abs(c) ** (2 / e);
    const v = cy + ry * Math.sign(s) * Math.abs(s) ** (2 / e);
    const p = head.project(u, v, 0);
    const zFront = head.project(cx, cy, 0).position[2] + 0.09 * r;
    return [p.position[0], p.position[1], Math.max(zFront - 0.06 * r * Math.abs(u - cx) / rx, p.position[2] + 0.06 * r)];
  };
  for (const side of [1, -1]) {
    const n = 24;
    const rings: TubeRing[] = Array.from({ length: n + 1 }, (_, i) => ({ center: lensAt(side, (2 * Math.PI * i) / n), rx: tubeR, ry: tubeR }));
    addGrid(builder, 'body', { ...tubeRows(rings, 6, [0, 0, 1]), bands: rings.slice(1).map(() => frame), wrap: true, skin: () => skin });
    const outer = lensAt(side, side > 0 ? 0 : Math.PI);
    const ear = head.surface([side, 0.02, -0.25], 0.03);
    const temple: TubeRing[] = [0, 0.5, 1].map((t) => ({ center: add(outer, scale(sub(ear, outer), t)), rx: tubeR * 0.8, ry: tubeR }));
    addGrid(builder, 'body', { ...tubeRows(temple, 6, [0, 1, 0]), bands: [frame, frame], wrap: true, skin: () => skin });
  }
  const a = lensAt(1, Math.PI * 0.95);
  const b = lensAt(-1, Math.PI * 0.05);
  const mid: Vec3 = [0, (a[1] + b[1]) / 2 + 0.02 * r, Math.max(a[2], b[2])];
  const bridge: TubeRing[] = [a, mid, b].map((c) => ({ center: c, rx: tubeR, ry: tubeR }));
  addGrid(builder, 'body', { ...tubeRows(bridge, 6, [0, 0, 1]), bands: [frame, frame], wrap: true, skin: () => skin });
}
