import type { BuildContext } from '../characters/build-context.js';
import { mixColor, shadeColor } from '../geometry/color.js';
import { clamp, type Vec3 } from '../geometry/vec3.js';
import type { BrowState, EyeState, FaceState } from './face-state.js';

/** A face feature as a grid on the head: positions, normals and ramp positions per point. */
export interface FeatureGrid {
  readonly rows: Vec3[][];
  readonly normals: Vec3[][];
  readonly ramp: readonly [Vec3, Vec3];
  readonly t: number[][];
  readonly wrap: boolean;
  /** `face` for skin-side features (eyes, brows, lips), `mouth` for the mouth interior. */
  readonly slot: 'face' | 'mouth';
}

/** 2D face-space point (head units) with a flat colour, or a ramp position when the grid has a ramp. */
type FacePoint = readonly [number, number, Vec3 | number];

/**
 * Builds every face feature for one state. The point counts never depend on the state, so the
 * grids of two states line up vertex by vertex (the morph target is their difference).
 */
export function faceFeatures(ctx: BuildContext, state: FaceState): FeatureGrid[] {
  const grids: FeatureGrid[] = [];
  const toGrid: ToGrid = (pts, offset, wrap = false, ramp, slot = 'face') => {
    const projected = pts.map((row) => row.map(([u, v]) => ctx.head.project(u, v, offset)));
    const first = pts[0]![0]![2];
    return {
      rows: projected.map((r) => r.map((p) => p.position)),
      normals: projected.map((r) => r.map((p) => p.normal)),
      ramp: ramp ?? [first as Vec3, first as Vec3],
      t: pts.map((r) => r.map((p) => (typeof p[2] === 'number' ? p[2] : 0))),
      wrap,
      slot,
    };
  };
  for (const side of [1, -1] as const) {
    const eye = side === 1 ? state.leftEye : state.rightEye;
    const brow = side === 1 ? state.leftBrow : state.rightBrow;
    grids.push(...eyeGrids(ctx, side, eye, toGrid));
    grids.push(toGrid(browPoints(ctx, side, brow), 0.012));
  }
  grids.push(...mouthGrids(ctx, state, toGrid));
  return grids;
}

type ToGrid = (
  pts: FacePoint[][],
  offset: number,
  wrap?: boolean,
  ramp?: readonly [Vec3, Vec3],
  slot?: 'face' | 'mouth',
) => FeatureGrid;

/** Geometry of one eye in its own frame: x' from inner (−w) to outer (+w) corner. */
function eyeFrame(ctx: BuildContext, side: 1 | -1, eye: EyeState) {
  const f = ctx.spec.face;
  const w = 0.145 * f.eyeSize;
  const hu = 0.17 * f.eyeSize * f.eyeHeight;
  const hl = 0.085 * f.eyeSize * f.eyeHeight;
  // Almond eyes (low eyeHeight) get pointed corners, round eyes soft ones.
  const pu = 0.65 + 0.9 * Math.max(0, 1 - f.eyeHeight);
  const cx = side * 0.36 * f.eyeSpacing;
  const cy = -0.16;
  const t = (x: number): number => (x + w) / (2 * w);
  const tilt = (x: number): number => f.eyeTilt * (t(x) - 0.5);
  const bump = (x: number, p: number): number => Math.sin(Math.PI * clamp(t(x), 0, 1) ** 0.85) ** p;
  const upperOpen = (x: number): number => tilt(x) + hu * bump(x, pu);
  const lowerOpen = (x: number): number => tilt(x) - hl * bump(x, 0.9) * (1 - 0.6 * eye.lowerLift);
  const closed = (x: number): number => tilt(x) + (eye.arch > 0 ? 0.5 * hu * eye.arch : 0.35 * hl * eye.arch) * bump(x, 1) - 0.2 * hl;
  const upper = (x: number): number => closed(x) + (upperOpen(x) - closed(x)) * eye.open;
  const lower = (x: number): number => closed(x) + (lowerOpen(x) - closed(x)) * Math.min(1, eye.open);
  const toFace = (x: number, y: number): [number, number] => [cx + side * x, cy + y];
  return { w, hu, hl, cx, cy, t, upper, lower, toFace };
}

function eyeGrids(ctx: BuildContext, side: 1 | -1, eye: EyeState, toGrid: ToGrid): FeatureGrid[] {
  const { palette, spec } = ctx;
  const e = eyeFrame(ctx, side, eye);
  const out: FeatureGrid[] = [];
  const cols = 14;
  const xs = Array.from({ length: cols + 1 }, (_, i) => -e.w + (2 * e.w * i) / cols);
  const white: Vec3 = [0.93, 0.93, 0.95];
  const whiteShadow: Vec3 = [0.62, 0.64, 0.72];
  // Eye white: rows from the lower lid to the upper lid.
  const whiteRows: FacePoint[][] = [0, 0.35, 0.7, 1].map((r) =>
    xs.map((x) => {
      const [u, v] = e.toFace(x, e.lower(x) + (e.upper(x) - e.lower(x)) * r);
      return [u, v, r ** 3];
    }),
  );
  out.push(toGrid(whiteRows, 0.006, false, [white, whiteShadow]));

  // Iris, pupil and highlights: discs clamped between the lids so they never leave the eye.
  const clampToEye = (x: number, y: number): [number, number] => {
    const cx = clamp(x, -e.w * 0.97, e.w * 0.97);
    const lo = e.lower(cx);
    const hi = Math.max(lo, e.upper(cx) - 0.004);
    return e.toFace(cx, clamp(y, lo, hi));
  };
  const lx = side * eye.lookX;
  const ly = eye.lookY - 0.005;
  const irisR = { x: 0.088 * spec.face.eyeSize, y: 0.108 * spec.face.eyeSize * Math.min(1, 0.55 + 0.45 * spec.face.eyeHeight) };
  const disc = (
    ox: number,
    oy: number,
    rx: number,
    ry: number,
    rings: number,
    segs: number,
    ramp: readonly [Vec3, Vec3],
    color: (ring: number, a: number) => number,
    offset: number,
  ): FeatureGrid => {
    const rows: FacePoint[][] = [];
    for (let r = 1; r <= rings; r++) {
      const f = r / rings;
      rows.push(
        Array.from({ length: segs }, (_, j) => {
          const a = (2 * Math.PI * j) / segs;
          const [u, v] = clampToEye(ox + Math.cos(a) * rx * f, oy + Math.sin(a) * ry * f);
          return [u, v, color(f, a)];
        }),
      );
    }
    const centre = clampToEye(ox, oy);
    rows.unshift(Array.from({ length: segs }, (_, j) => [centre[0], centre[1], color(0, (2 * Math.PI * j) / segs)]));
    // The first row collapses to the centre; use a tiny ring instead of a pole to keep areas > 0.
    rows[0] = rows[0]!.map((_, j) => {
      const a = (2 * Math.PI * j) / segs;
      const [u, v] = clampToEye(ox + Math.cos(a) * rx * 0.08, oy + Math.sin(a) * ry * 0.08);
      return [u, v, color(0, a)];
    });
    return toGrid(rows, offset, true, ramp);
  };
  const iris = palette.iris;
  const irisDark = shadeColor(iris, 0.35);
  // Lighten by scaling, not by mixing in white: a dark brown iris stays brown instead of grey.
  const irisLight = mixColor(shadeColor(iris, Math.min(3, 0.36 / Math.max(...iris, 1e-3))), [1, 1, 1], 0.06);
  out.push(
    disc(lx, ly, irisR.x, irisR.y, 4, 20, [irisLight, irisDark], (f, a) => {
      const top = (Math.sin(a) + 1) / 2; // 1 at the top of the iris
      const t = top ** 1.5 * 0.85;
      return f > 0.9 ? 0.7 + 0.3 * t : t;
    }, 0.009),
  );
  const pupil = shadeColor(iris, 0.08);
  out.push(disc(lx, ly + 0.004, irisR.x * 0.45, irisR.y * 0.47, 2, 14, [pupil, pupil], () => 0, 0.011));
  const hl: Vec3 = [1, 1, 1];
  out.push(disc(lx + 0.032 * side * side, ly + 0.045, 0.03 * spec.face.eyeSize, 0.034 * spec.face.eyeSize, 1, 10, [hl, hl], () => 0, 0.013));
  out.push(disc(lx - 0.03, ly - 0.05, 0.014 * spec.face.eyeSize, 0.014 * spec.face.eyeSize, 1, 8, [[0.85, 0.9, 1], [0.85, 0.9, 1]], () => 0, 0.013));

  // Upper lash line, thicker toward the outer corner, with a small flick.
  const lash: Vec3 = mixColor([0.02, 0.014, 0.014], palette.hairDark, 0.25);
  const lashCols = 16;
  const lx0 = -e.w * 1.04;
  const lx1 = e.w * (1.02 + 0.12 * spec.face.lashes);
  const lashXs = Array.from({ length: lashCols + 1 }, (_, i) => lx0 + ((lx1 - lx0) * i) / lashCols);
  const lidAt = (x: number): number => {
    if (x <= e.w) return e.upper(Math.max(x, -e.w));
    return e.upper(e.w) + (x - e.w) * (0.3 + 0.25 * spec.face.lashes);
  };
  const thick = (x: number): number => spec.face.lashes * 0.024 * (0.3 + 0.9 * clamp(e.t(x), 0, 1.1));
  out.push(
    toGrid(
      [
        lashXs.map((x) => [...e.toFace(x, lidAt(x) - 0.01), lash] as FacePoint),
        lashXs.map((x) => [...e.toFace(x, lidAt(x) + thick(x) * 0.6), lash] as FacePoint),
        lashXs.map((x) => [...e.toFace(x, lidAt(x) + thick(x)), lash] as FacePoint),
      ],
      0.014,
    ),
  );
  // Eyelid crease above the lash line.
  const crease = mixColor(palette.skinShade, lash, 0.15);
  const creaseXs = Array.from({ length: 10 }, (_, i) => -e.w * 0.55 + (e.w * 1.5 * i) / 9);
  out.push(
    toGrid(
      [
        creaseXs.map((x) => [...e.toFace(x, lidAt(x) + 0.045 + 0.006 * spec.face.age), crease] as FacePoint),
        creaseXs.map((x) => [...e.toFace(x, lidAt(x) + 0.054 + 0.006 * spec.face.age), crease] as FacePoint),
      ],
      0.009,
    ),
  );
  // Lower lash / lid line on the outer half.
  const lowerXs = Array.from({ length: 9 }, (_, i) => -e.w * 0.1 + (e.w * 1.1 * i) / 8);
  const lowerLine = mixColor(palette.skinShade, lash, 0.45);
  out.push(
    toGrid(
      [
        lowerXs.map((x) => [...e.toFace(x, e.lower(x) - 0.009), lowerLine] as FacePoint),
        lowerXs.map((x) => [...e.toFace(x, e.lower(x) - 0.001), lowerLine] as FacePoint),
      ],
      0.012,
    ),
  );
  return out;
}

function browPoints(ctx: BuildContext, side: 1 | -1, brow: BrowState): FacePoint[][] {
  const f = ctx.spec.face;
  const e = eyeFrame(ctx, side, { open: 1, arch: 0, lowerLift: 0, lookX: 0, lookY: 0 });
  const color = mixColor(ctx.palette.hairDark, [0.02, 0.015, 0.01], 0.35);
  const n = 10;
  const rows: FacePoint[][] = [[], []];
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    const x = -e.w * 0.95 + e.w * 2.15 * t;
    const arch = (0.01 + 0.05 * f.browArch) * Math.sin(Math.PI * t ** 0.8);
    const y = e.hu + 0.085 + brow.lift + arch + brow.inner * (1 - t) ** 1.5 + (f.browTilt - 0.02) * t;
    const th = 0.032 * f.browThickness * (1 - 0.55 * t);
    rows[0]!.push([...e.toFace(x, y - th * 0.5), color]);
    rows[1]!.push([...e.toFace(x, y + th * 0.5), color]);
  }
  return rows;
}

/**
 * The mouth: its interior (cavity, upper and lower teeth, tongue) goes to the `mouth` slot, the
 * lips around it to the `face` slot. The lips' inner edges are the cavity's edges, so at rest (a
 * gap of a hair's width) the lips hide all of the interior but the dark line between them; an
 * open viseme pulls the lips apart and the interior fills the gap.
 */
function mouthGrids(ctx: BuildContext, state: FaceState, toGrid: ToGrid): FeatureGrid[] {
  const { palette, spec, head } = ctx;
  const f = spec.face;
  const m = state.mouth;
  const my = head.mouthY;
  const a = 0.2 * f.mouthWidth * m.width;
  const p = 0.9 - 0.45 * m.round;
  const curve = (s: number): number => 0.06 * m.smile * s * s - 0.015 * m.smile;
  const opening = (s: number): number => (1 - s * s) ** p;
  const U = (s: number): number => my + curve(s) + 0.36 * m.open * opening(s);
  const L = (s: number): number => my + curve(s) - 0.64 * m.open * opening(s) - 0.008 * Math.sqrt(1 - s * s);
  const gap = (s: number): number => U(s) - L(s);
  // How far the lips are parted beyond the closed line: teeth and tongue only grow past it. A
  // sliver is kept at rest so the strips keep a facing (a zero-area strip has none and could end
  // up culled once it opens).
  const parted = (s: number): number => Math.max(0.003, gap(s) - 0.01 * Math.sqrt(1 - s * s));
  const n = 20;
  const ss = Array.from({ length: n + 1 }, (_, i) => -1 + (2 * i) / n);
  const out: FeatureGrid[] = [];

  // Interior: cavity darkest under the upper lip, teeth in front of the tongue.
  const cavity = mixColor(palette.lips, [0.08, 0.01, 0.015], 0.72);
  const cavityTop = shadeColor(cavity, 0.4);
  out.push(
    toGrid(
      [0, 0.33, 0.67, 1].map((r) => ss.map((s) => [a * s, L(s) + gap(s) * r, r ** 1.5] as FacePoint)),
      0.004,
      false,
      [cavity, cavityTop],
      'mouth',
    ),
  );
  const tongue = mixColor(palette.lips, [0.85, 0.3, 0.32], 0.55);
  const tongueBack = shadeColor(tongue, 0.6);
  const gs = ss.map((s) => s * 0.62);
  out.push(
    toGrid(
      [
        gs.map((s) => [a * s, L(s) + 0.0005, 0] as FacePoint),
        gs.map((s) => [a * s, L(s) + 0.0005 + 0.36 * parted(s) * Math.sqrt(1 - 0.75 * (s / 0.62) ** 2), 1] as FacePoint),
      ],
      0.0052,
      false,
      [tongue, tongueBack],
      'mouth',
    ),
  );
  const teeth: Vec3 = [0.93, 0.93, 0.9];
  const teethShade: Vec3 = [0.7, 0.7, 0.74];
  const upperTeeth = ss.map((s) => s * 0.8);
  out.push(
    toGrid(
      [
        upperTeeth.map((s) => [a * s, U(s) - 0.0005 - Math.min(0.038, 0.22 * parted(s)), 0] as FacePoint),
        upperTeeth.map((s) => [a * s, U(s) - 0.0005, 1] as FacePoint),
      ],
      0.0065,
      false,
      [teeth, teethShade],
      'mouth',
    ),
  );
  const lowerTeeth = ss.map((s) => s * 0.66);
  out.push(
    toGrid(
      [
        lowerTeeth.map((s) => [a * s, L(s) + 0.0005, 1] as FacePoint),
        lowerTeeth.map((s) => [a * s, L(s) + 0.0005 + Math.min(0.03, 0.14 * parted(s)), 0] as FacePoint),
      ],
      0.0065,
      false,
      [teeth, teethShade],
      'mouth',
    ),
  );

  // Lips: the upper one thinner with a cupid's bow, the lower fuller and lighter. Thin lips are
  // mostly skin-coloured, full ones carry the lip colour.
  const lip = mixColor(palette.skin, palette.lips, 0.3 + 0.7 * f.lipFullness);
  const lipLine = mixColor(shadeColor(lip, 0.45), [0.1, 0.02, 0.03], 0.25);
  const upperT = (s: number): number => (0.016 + 0.026 * f.lipFullness) * (1 - s * s) ** 0.7 * (1 - 0.25 * Math.exp(-((s / 0.13) ** 2)));
  const lowerT = (s: number): number => (0.024 + 0.038 * f.lipFullness) * (1 - s * s) ** 0.55;
  out.push(
    toGrid(
      [0, 0.45, 1].map((r) => ss.map((s) => [a * s, U(s) + upperT(s) * r, r] as FacePoint)),
      0.008,
      false,
      [lipLine, mixColor(lip, palette.skin, 0.2)],
    ),
  );
  out.push(
    toGrid(
      [0, 0.35, 1].map((r) => ss.map((s) => [a * s, L(s) - lowerT(s) * r, r * r] as FacePoint)),
      0.008,
      false,
      [mixColor(lip, lipLine, 0.25), mixColor(lip, palette.skin, 0.3)],
    ),
  );
  // Corner marks: short strokes that carry the smile or frown past the lips.
  const corner = mixColor(palette.skinShade, lipLine, 0.5);
  for (const side of [1, -1]) {
    const cs = [0.96, 1.04, 1.12];
    const y = (s: number): number => my + curve(s) - 0.004;
    out.push(
      toGrid(
        [cs.map((s) => [side * a * s, y(s) - 0.005, corner] as FacePoint), cs.map((s) => [side * a * s, y(s) + 0.003, corner] as FacePoint)],
        0.0075,
      ),
    );
  }
  // Soft shadow under the lower lip.
  const shadow = mixColor(palette.skin, palette.skinShade, 0.7);
  const ls = Array.from({ length: 9 }, (_, i) => -0.5 + (1 * i) / 8);
  out.push(
    toGrid(
      [
        ls.map((s) => [a * s, L(s) - lowerT(s) - 0.006, 0] as FacePoint),
        ls.map((s) => [a * s * 0.9, L(s) - lowerT(s) - 0.03 + 0.012 * (s / 0.5) ** 2, 1] as FacePoint),
      ],
      0.004,
      false,
      [shadow, palette.skin],
    ),
  );
  if (f.beard) {
    // Moustache rides on the upper lip so it follows every viseme.
    const hair = ctx.palette.hair;
    const ms = Array.from({ length: 13 }, (_, i) => -1.25 + (2.5 * i) / 12);
    const mu = (s: number): number => U(clamp(s, -1, 1)) + upperT(clamp(s, -1, 1)) * 0.4 + (Math.abs(s) > 1 ? -(Math.abs(s) - 1) * 0.25 : 0);
    out.push(
      toGrid(
        [
          ms.map((s) => [a * s, mu(s) + 0.004, 0] as FacePoint),
          ms.map((s) => [a * s * 1.02, mu(s) + 0.035 + 0.025 * (1 - (s / 1.25) ** 2), 0.35] as FacePoint),
          ms.map((s) => [a * s * 0.9, mu(s) + 0.06 + 0.03 * (1 - (s / 1.25) ** 2), 1] as FacePoint),
        ],
        0.022,
        false,
        [shadeColor(hair, 0.8), mixColor(hair, ctx.palette.hairHighlight, 0.5)],
      ),
    );
  }
  return out;
}
