import { hexToLinear, mixColor, shadeColor } from '../geometry/color.js';
import { HeadShape } from '../geometry/head-shape.js';
import { MeshBuilder } from '../geometry/mesh-builder.js';
import type { Vec3 } from '../geometry/vec3.js';
import { buildSkeleton, type Skeleton } from '../skeleton/skeleton.js';
import { SpringChains } from '../skeleton/spring-chains.js';
import type { CharacterSpec } from './character-spec.js';

/** Linear colours of one character, resolved once from its description. */
export interface Palette {
  readonly skin: Vec3;
  readonly skinShade: Vec3;
  readonly hair: Vec3;
  readonly hairDark: Vec3;
  readonly hairHighlight: Vec3;
  readonly hairAccent: Vec3;
  readonly top: Vec3;
  readonly topAccent: Vec3;
  readonly jacket: Vec3 | null;
  readonly bottom: Vec3;
  readonly legs: Vec3;
  readonly shoes: Vec3;
  readonly iris: Vec3;
  readonly lips: Vec3;
  readonly glasses: Vec3;
}

/** Everything the part builders share while one avatar is generated. */
export interface BuildContext {
  readonly spec: CharacterSpec;
  readonly skeleton: Skeleton;
  /** Spring-bone chains added by the hair and clothing builders. */
  readonly springs: SpringChains;
  readonly builder: MeshBuilder;
  readonly head: HeadShape;
  readonly palette: Palette;
  /** Height scale relative to a 1.7 m reference figure. */
  readonly k: number;
}

export function createBuildContext(spec: CharacterSpec, targetCount: number): BuildContext {
  const skeleton = buildSkeleton(spec);
  const hair = hexToLinear(spec.hair.color);
  const skin = hexToLinear(spec.skin);
  return {
    spec,
    skeleton,
    springs: new SpringChains(),
    builder: new MeshBuilder(targetCount),
    head: new HeadShape({
      center: skeleton.headCenter,
      radius: skeleton.headRadius,
      jaw: spec.face.jaw,
      faceWidth: spec.face.faceWidth,
      cheekbones: spec.face.cheekbones,
      chin: spec.face.chin,
      nose: spec.face.nose,
      noseWidth: spec.face.noseWidth,
    }),
    palette: {
      skin,
      skinShade: mixColor(shadeColor(skin, 0.72), [0.6, 0.12, 0.1], 0.12),
      hair,
      hairDark: shadeColor(hair, 0.55),
      hairHighlight: hexToLinear(spec.hair.highlight),
      hairAccent: hexToLinear(spec.hair.accent),
      top: hexToLinear(spec.outfit.top),
      topAccent: hexToLinear(spec.outfit.topAccent),
      jacket: spec.outfit.jacket ? hexToLinear(spec.outfit.jacket) : null,
      bottom: hexToLinear(spec.outfit.bottom),
      legs: hexToLinear(spec.outfit.legs),
      shoes: hexToLinear(spec.outfit.shoes),
      iris: hexToLinear(spec.face.iris),
      lips: hexToLinear(spec.face.lips),
      glasses: hexToLinear(spec.face.glassesColor),
    },
    k: spec.height / 1.7,
  };
}

/** Band colours for a capped tube: the caps repeat the first and last ring band. */
export function cappedBands(ringBands: readonly Vec3[]): Vec3[] {
  const first = ringBands[0]!;
  const last = ringBands[ringBands.length - 1]!;
  return [first, first, first, ...ringBands, last, last, last];
}
