import type { CharacterSpec } from '../characters/character-spec.js';
import type { Vec3 } from '../geometry/vec3.js';

/** VRM humanoid bones this generator writes, parents before children (node order). */
export const BONE_NAMES = [
  'hips',
  'spine',
  'chest',
  'upperChest',
  'neck',
  'head',
  'leftShoulder',
  'leftUpperArm',
  'leftLowerArm',
  'leftHand',
  'rightShoulder',
  'rightUpperArm',
  'rightLowerArm',
  'rightHand',
  'leftUpperLeg',
  'leftLowerLeg',
  'leftFoot',
  'leftToes',
  'rightUpperLeg',
  'rightLowerLeg',
  'rightFoot',
  'rightToes',
] as const;

export type BoneName = (typeof BONE_NAMES)[number];

const PARENT = {
  hips: null,
  spine: 'hips',
  chest: 'spine',
  upperChest: 'chest',
  neck: 'upperChest',
  head: 'neck',
  leftShoulder: 'upperChest',
  leftUpperArm: 'leftShoulder',
  leftLowerArm: 'leftUpperArm',
  leftHand: 'leftLowerArm',
  rightShoulder: 'upperChest',
  rightUpperArm: 'rightShoulder',
  rightLowerArm: 'rightUpperArm',
  rightHand: 'rightLowerArm',
  leftUpperLeg: 'hips',
  leftLowerLeg: 'leftUpperLeg',
  leftFoot: 'leftLowerLeg',
  leftToes: 'leftFoot',
  rightUpperLeg: 'hips',
  rightLowerLeg: 'rightUpperLeg',
  rightFoot: 'rightLowerLeg',
  rightToes: 'rightFoot',
} as const satisfies Record<BoneName, BoneName | null>;

/** Rest pose (T-pose) of one character: world positions of every joint, metres, +Y up, facing +Z. */
export interface Skeleton {
  readonly position: Readonly<Record<BoneName, Vec3>>;
  readonly parent: (bone: BoneName) => BoneName | null;
  readonly index: (bone: BoneName) => number;
  /** Radius of the stylised head (its horizontal half width), metres. */
  readonly headRadius: number;
  /** Centre of the head shape. */
  readonly headCenter: Vec3;
}

/**
 * Places the joints from the character's height and proportions. The head is larger than a
 * realistic one (about 1/6.3 of the height) — the stylised look the previews are built for.
 */
export function buildSkeleton(spec: CharacterSpec): Skeleton {
  const h = spec.height;
  const b = spec.body;
  const headRadius = 0.108 * (h / 1.7) ** 0.5 * b.headScale;
  const hipsY = 0.53 * h;
  const legY = 0.495 * h;
  const neckY = 0.835 * h;
  const shoulderY = 0.815 * h;
  const armY = 0.808 * h;
  const upperArm = 0.175 * h;
  const lowerArm = 0.15 * h;
  const sx = b.shoulderWidth;
  const lx = b.hipWidth * 0.62;
  const position: Record<BoneName, Vec3> = {
    hips: [0, hipsY, 0],
    spine: [0, 0.585 * h, -0.004],
    chest: [0, 0.655 * h, -0.006],
    upperChest: [0, 0.73 * h, -0.006],
    neck: [0, neckY, -0.012],
    head: [0, neckY + 0.048 * h, -0.004],
    leftShoulder: [0.022 * h, shoulderY, -0.01],
    leftUpperArm: [sx, armY, -0.012],
    leftLowerArm: [sx + upperArm, armY, -0.016],
    leftHand: [sx + upperArm + lowerArm, armY, -0.012],
    rightShoulder: [-0.022 * h, shoulderY, -0.01],
    rightUpperArm: [-sx, armY, -0.012],
    rightLowerArm: [-(sx + upperArm), armY, -0.016],
    rightHand: [-(sx + upperArm + lowerArm), armY, -0.012],
    leftUpperLeg: [lx, legY, 0],
    leftLowerLeg: [lx, 0.27 * h, 0.004],
    leftFoot: [lx, 0.045 * h, -0.01],
    leftToes: [lx, 0.012 * h, 0.1 * (h / 1.7)],
    rightUpperLeg: [-lx, legY, 0],
    rightLowerLeg: [-lx, 0.27 * h, 0.004],
    rightFoot: [-lx, 0.045 * h, -0.01],
    rightToes: [-lx, 0.012 * h, 0.1 * (h / 1.7)],
  };
  const head = position.head;
  return {
    position,
    parent: (bone) => PARENT[bone],
    index: (bone) => BONE_NAMES.indexOf(bone),
    headRadius,
    headCenter: [0, head[1] + headRadius * 0.9, head[2] + headRadius * 0.1],
  };
}
