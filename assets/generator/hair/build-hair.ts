import { cappedBands, type BuildContext } from '../characters/build-context.js';
import { mixColor } from '../geometry/color.js';
import { addGrid } from '../geometry/grid-surface.js';
import { sphereDir } from '../geometry/head-shape.js';
import { tubeRows, type TubeRing } from '../geometry/tube.js';
import { add, normalize, profile, scale, smoothstep, sub, type Vec3 } from '../geometry/vec3.js';
import { rigid } from '../skeleton/skin-weights.js';

const TAU = 2 * Math.PI;
const wrapPi = (phi: number): number => Math.abs(((phi + Math.PI) % TAU + TAU) % TAU - Math.PI);

/**
 * Hair: a scalp shell with volume, an optional fringe, and the style's extra shapes (curtain of
 * long hair, ponytail, bun, spikes), plus the beard. Colours run from darker roots to a glossy
 * "angel ring" highlight, all as vertex colours so one double-sided material serves every style.
 */
export function buildHair(ctx: BuildContext): void {
  const { spec } = ctx;
  const style = spec.hair.style;
  buildCap(ctx);
  if (spec.hair.bangs !== 'none') buildBangs(ctx);
  if (style === 'long-wavy' || style === 'bob') buildCurtain(ctx);
  if (style === 'ponytail') buildPonytail(ctx);
  if (style === 'bun') buildBun(ctx);
  if (style === 'spiky') buildSpikes(ctx);
  if (spec.face.beard) buildBeard(ctx);
}

/** Position on the hair ramp (base → highlight): glossy ring on the crown, lighter tips. */
function hairShine(theta: number, phi: number, tip: number): number {
  const ring = Math.exp(-(((theta - 0.62 - 0.04 * Math.cos(phi * 14)) / 0.09) ** 2)) * smoothstep(1.9, 1.2, wrapPi(phi));
  return 1 - (1 - 0.25 * tip) * (1 - 0.75 * ring);
}

const hairRamp = (ctx: BuildContext): readonly [Vec3, Vec3] => [ctx.palette.hair, ctx.palette.hairHighlight];

function hairline(ctx: BuildContext, phi: number): number {
  const a = wrapPi(phi);
  const s = ctx.spec.hair.style;
  if (s === 'receding') return profile([[0, 0.72], [0.45, 0.66], [0.8, 1.15], [1.6, 1.62], [Math.PI, 2.2]], a);
  if (s === 'spiky' || s === 'short-neat') return profile([[0, 0.85], [0.6, 1.05], [1.2, 1.45], [1.6, 1.6], [Math.PI, 2.25]], a);
  return profile([[0, 0.9], [0.7, 1.2], [1.35, 1.62], [1.7, 1.75], [Math.PI, 2.3]], a);
}

function buildCap(ctx: BuildContext): void {
  const { head, spec } = ctx;
  const cols = 44;
  const nRows = 14;
  const vol = spec.hair.volume;
  const rows: Vec3[][] = [];
  const colors: number[][] = [];
  for (let i = 1; i <= nRows; i++) {
    const f = i / nRows;
    const row: Vec3[] = [];
    const crow: number[] = [];
    for (let j = 0; j < cols; j++) {
      const phi = (TAU * j) / cols;
      const theta = f * hairline(ctx, phi);
      const lift = (0.07 + 0.07 * Math.cos(theta * 0.9)) * vol * (1 - 0.85 * smoothstep(0.8, 1, f));
      row.push(head.surface(sphereDir(theta, phi), 0.012 + lift));
      crow.push(hairShine(theta, phi, 0));
    }
    rows.push(row);
    colors.push(crow);
  }
  addGrid(ctx.builder, 'hair', {
    rows,
    gradient: { ramp: hairRamp(ctx), t: colors },
    wrap: true,
    startPole: head.surface([0, 1, 0], 0.012 + 0.14 * vol),
    inside: head.options.center,
    skin: () => rigid('head'),
  });
}

function buildBangs(ctx: BuildContext): void {
  const { head, spec } = ctx;
  const kind = spec.hair.bangs;
  const vol = spec.hair.volume;
  const cols = 28;
  const span = kind === 'parted' ? 1.25 : 1.05;
  const tip = (phi: number): number => {
    const zig = 0.09 * Math.abs(Math.sin(phi * 6.5));
    if (kind === 'full') return 1.32 - zig;
    if (kind === 'parted') return 0.95 + 0.45 * smoothstep(0.05, 0.9, Math.abs(phi)) - zig;
    return 0.95 + 0.42 * smoothstep(-0.9, 0.9, phi) - zig; // side-swept: longer over the model's left
  };
  const rows: Vec3[][] = [];
  const colors: number[][] = [];
  const nRows = 10;
  for (let i = 0; i <= nRows; i++) {
    const f = i / nRows;
    const row: Vec3[] = [];
    const crow: number[] = [];
    for (let j = 0; j <= cols; j++) {
      const phi0 = -span + (2 * span * j) / cols;
      const sweep = kind === 'side-swept' ? 0.35 * f * f : kind === 'parted' ? 0.25 * f * Math.sign(phi0) : 0;
      const phi = phi0 + sweep;
      const theta = 0.2 + f * (tip(phi0) - 0.2);
      const lift = (0.075 + 0.07 * Math.cos(theta * 0.9)) * vol * (1 - 0.75 * f) + 0.025;
      row.push(head.surface(sphereDir(theta, phi), 0.012 + lift));
      crow.push(hairShine(theta, phi, f));
    }
    rows.push(row);
    colors.push(crow);
  }
  addGrid(ctx.builder, 'hair', { rows, gradient: { ramp: hairRamp(ctx), t: colors }, wrap: false, inside: head.options.center, skin: () => rigid('head') });
}

/** Long hair / bob: a sheet that leaves the scalp below the crown and falls, flaring slightly. */
function buildCurtain(ctx: BuildContext): void {
  const { head, spec, skeleton } = ctx;
  const bob = spec.hair.style === 'bob';
  const r = skeleton.headRadius;
  const open = bob ? 0.78 : 0.72;
  const cols = 40;
  const nRows = bob ? 8 : 16;
  const wavy = spec.hair.style === 'long-wavy';
  const rows: Vec3[][] = [];
  const colors: number[][] = [];
  const length = (phi: number): number => {
    const a = wrapPi(phi);
    const base = bob ? 1.15 * r : spec.hair.length;
    const front = bob ? 1.05 * r : 1.4 * r;
    return profile([[open, front], [1.9, base * 0.9], [Math.PI, base]], a) + 0.1 * r * Math.abs(Math.sin(phi * 7));
  };
  for (let i = 0; i <= nRows; i++) {
    const f = i / nRows;
    const row: Vec3[] = [];
    const crow: number[] = [];
    for (let j = 0; j <= cols; j++) {
      const phi = open + ((TAU - 2 * open) * j) / cols;
      const attachTheta = profile([[open, 1.25], [1.6, 1.35], [Math.PI, 1.45]], wrapPi(phi));
      const top = head.surface(sphereDir(attachTheta, phi), 0.02 + 0.08 * spec.hair.volume);
      const drop = length(phi) * f;
      const outward = normalize([Math.sin(phi), 0, Math.cos(phi)]);
      const flare = (bob ? 0.28 : 0.2) * r * Math.sin(Math.min(1, f * 1.6) * Math.PI * 0.5) + (bob ? -0.1 * r * f * f : 0);
      const wave = wavy ? 0.05 * r * Math.sin(f * 9 + phi * 3) * f : 0;
      // Hair behind the back drifts backward so it drapes over the shoulders.
      const back = smoothstep(1.7, Math.PI, wrapPi(phi)) * 0.5 * r * smoothstep(0.3, 1, f);
      row.push(add(add(top, [0, -drop, 0]), add(scale(outward, flare + wave), [0, 0, -back])));
      crow.push(hairShine(attachTheta + f * 1.2, phi, f));
    }
    rows.push(row);
    colors.push(crow);
  }
  addGrid(ctx.builder, 'hair', {
    rows,
    gradient: { ramp: hairRamp(ctx), t: colors },
    wrap: false,
    inside: [head.options.center[0], head.options.center[1] - r, head.options.center[2]],
    skin: () => rigid('head'),
  });
}

function buildPonytail(ctx: BuildContext): void {
  const { head, skeleton, palette } = ctx;
  const r = skeleton.headRadius;
  const attach = head.surface(sphereDir(1.3, Math.PI), 0.12);
  const path: Vec3[] = [
    attach,
    add(attach, [0, -0.05 * r, -0.35 * r]),
    add(attach, [0, -0.6 * r, -0.55 * r]),
    add(attach, [0, -1.4 * r, -0.5 * r]),
    add(attach, [0, -2.1 * r, -0.4 * r]),
    add(attach, [0, -2.6 * r, -0.28 * r]),
  ];
  const radii = [0.2, 0.24, 0.34, 0.3, 0.2, 0.06].map((x) => x * r);
  const rings: TubeRing[] = path.map((c, i) => ({ center: c, rx: radii[i]!, ry: radii[i]! * 0.85 }));
  const bands = rings.slice(1).map((_, i) => (i === 0 ? palette.hairAccent : mixColor(palette.hair, palette.hairHighlight, 0.12 * i)));
  addGrid(ctx.builder, 'hair', {
    ...tubeRows(rings, 14, [1, 0, 0], { caps: true }),
    bands: cappedBands(bands),
    wrap: true,
    skin: () => rigid('head'),
  });
}

function buildBun(ctx: BuildContext): void {
  const { head, skeleton, palette } = ctx;
  const r = skeleton.headRadius;
  const base = head.surface(sphereDir(1.0, Math.PI), 0.1);
  const dir = normalize(sub(base, head.options.center));
  const c = add(base, scale(dir, 0.2 * r));
  const rings: TubeRing[] = [-0.28, -0.14, 0, 0.14, 0.28].map((t) => ({
    center: add(c, scale(dir, t * r)),
    rx: 0.42 * r * Math.sqrt(1 - (t / 0.42) ** 2),
    ry: 0.38 * r * Math.sqrt(1 - (t / 0.42) ** 2),
  }));
  const bands = rings.slice(1).map((_, i) => (i === 0 ? palette.hairAccent : mixColor(palette.hair, palette.hairHighlight, i === 2 ? 0.35 : 0.1)));
  addGrid(ctx.builder, 'hair', {
    ...tubeRows(rings, 16, [0, 1, 0], { caps: true }),
    bands: cappedBands(bands),
    wrap: true,
    skin: () => rigid('head'),
  });
}

function buildSpikes(ctx: BuildContext): void {
  const { head, skeleton, palette } = ctx;
  const r = skeleton.headRadius;
  const spikes: [number, number, number][] = [];
  for (const [theta, count, len] of [[0.3, 3, 0.42], [0.72, 7, 0.48], [1.12, 9, 0.4], [1.45, 8, 0.26]] as const) {
    for (let j = 0; j < count; j++) spikes.push([theta, (TAU * (j + (theta > 0.6 ? 0.5 : 0))) / count, len]);
  }
  for (const [theta, phi, len] of spikes) {
    const front = Math.cos(phi) > 0.3 && theta > 0.8;
    if (theta >= 1.4 && Math.cos(phi) > 0.2) continue; // keep the face clear
    const base = head.surface(sphereDir(theta, phi), 0.06);
    const n = normalize(sub(base, head.options.center));
    const axis = normalize(add(n, front ? [0, 0.9, 0.25] : [0, 0.9, -0.9]));
    const tip = add(base, scale(axis, len * r));
    const rings: TubeRing[] = [0, 0.35, 0.7, 1].map((t) => ({
      center: add(base, scale(sub(tip, base), t)),
      rx: 0.3 * r * (1 - t) ** 1.3 + 0.004 * r,
      ry: 0.17 * r * (1 - t) ** 1.3 + 0.004 * r,
    }));
    const bands = rings.slice(1).map((_, i) => mixColor(palette.hair, palette.hairHighlight, 0.2 * i));
    const t = tubeRows(rings, 8, n[1] > 0.9 ? [1, 0, 0] : [0, 1, 0]);
    addGrid(ctx.builder, 'hair', { ...t, endPole: add(tip, scale(axis, 0.02 * r)), bands, wrap: true, skin: () => rigid('head') });
  }
}

function buildBeard(ctx: BuildContext): void {
  const { head, palette } = ctx;
  const cols = 30;
  const nRows = 10;
  const span = 1.75;
  const rows: Vec3[][] = [];
  const colors: number[][] = [];
  for (let i = 0; i <= nRows; i++) {
    const f = i / nRows;
    const row: Vec3[] = [];
    const crow: number[] = [];
    for (let j = 0; j <= cols; j++) {
      const phi = -span + (2 * span * j) / cols;
      const top = profile([[0, 2.28], [0.35, 2.2], [0.9, 1.95], [span, 1.55]], Math.abs(phi));
      const theta = top + f * (2.75 - top);
      const bulk = (0.04 + 0.22 * smoothstep(1.9, 2.6, theta) * Math.cos(phi * 0.7)) * (1 - 0.6 * smoothstep(0.75, 1, f));
      row.push(head.surface(sphereDir(theta, phi), 0.01 + bulk));
      crow.push(0.3 * Math.abs(Math.sin(phi * 9 + f * 3)));
    }
    rows.push(row);
    colors.push(crow);
  }
  addGrid(ctx.builder, 'hair', { rows, gradient: { ramp: hairRamp(ctx), t: colors }, wrap: false, inside: head.options.center, skin: () => rigid('head') });
}
