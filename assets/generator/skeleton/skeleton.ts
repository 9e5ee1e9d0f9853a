import type { CharacterSpec } from '../characters/character-spec.js';
import type { Vec3 } from '../geometry/vec3.js';

/** VRM humanoid bones of the trunk and limbs, parents before children (node order). */
const BODY_BONES = [
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

const FINGERS = ['Thumb', 'Index', 'Middle', 'Ring', 'Little'] as const;
type Finger = (typeof FINGERS)[number];
/** Segments per finger: VRM 1.0 calls the thumb's Metacarpal / Proximal / Distal. */
const SEGMENTS = {
  Thumb: ['Metacarpal', 'Proximal', 'Distal'],
  Index: ['Proximal', 'Intermediate', 'Distal'],
  Middle: ['Proximal', 'Intermediate', 'Distal'],
  Ring: ['Proximal', 'Intermediate', 'Distal'],
  Little: ['Proximal', 'Intermediate', 'Distal'],
} as const;
type FingerBone = `${'left' | 'right'}${Finger}${'Metacarpal' | 'Proximal' | 'Intermediate' | 'Distal'}`;

/** The 30 VRM 1.0 finger bones, `leftThumbMetacarpal` … `rightLittleDistal`, each after its parent. */
const FINGER_BONES: readonly FingerBone[] = (['left', 'right'] as const).flatMap((side) =>
  FINGERS.flatMap((finger) => SEGMENTS[finger].map((segment) => `${side}${finger}${segment}` as FingerBone)),
);

/** The three bones of one finger, base to tip. */
export function fingerChain(side: 'left' | 'right', finger: Finger): readonly [FingerBone, FingerBone, FingerBone] {
  const [a, b, c] = SEGMENTS[finger];
  return [`${side}${finger}${a}`, `${side}${finger}${b}`, `${side}${finger}${c}`] as [FingerBone, FingerBone, FingerBone];
}

/** Every VRM humanoid bone this generator writes, parents before children (node order). */
export const BONE_NAMES: readonly BoneName[] = [...BODY_BONES, ...FINGER_BONES];

export type BoneName = (typeof BODY_BONES)[number] | FingerBone;

/**
 * A joint that is not a humanoid bone: the spring-bone chains of hair and loose clothing
 * (`hairPonytail1`, `skirtFront2`, …). Builders add them while they build (see {@link Skeleton.addJoint}).
 */
export type ExtraJointName = `${'hair' | 'skirt' | 'string'}${string}`;

/** Any joint of the skin: a humanoid bone or an extra joint. */
export type JointName = BoneName | ExtraJointName;

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
} as const satisfies Record<(typeof BODY_BONES)[number], BoneName | null>;

function humanParent(bone: BoneName): BoneName | null {
  if (bone in PARENT) return PARENT[bone as keyof typeof PARENT];
  const side = bone.startsWith('left') ? 'left' : 'right';
  const finger = FINGERS.find((f) => bone.startsWith(`${side}${f}`))!;
  const chain = fingerChain(side, finger);
  const at = chain.indexOf(bone as FingerBone);
  return at === 0 ? `${side}Hand` : chain[at - 1]!;
}

/**
 * Rest pose (T-pose) of one character: world positions of every joint, metres, +Y up, facing +Z.
 * The humanoid bones are fixed when the skeleton is made; hair and clothing builders append their
 * spring-bone joints, so the joint list grows during one avatar's build (and only then).
 */
export interface Skeleton {
  readonly position: Readonly<Record<BoneName, Vec3>>;
  /** All joints in node order: the humanoid bones, then the extra joints in the order added. */
  readonly joints: readonly JointName[];
  readonly jointPosition: (joint: JointName) => Vec3;
  readonly parent: (joint: JointName) => JointName | null;
  readonly index: (joint: JointName) => number;
  /** Appends a non-humanoid joint under `parent` (which must already exist); returns its name. */
  readonly addJoint: (name: ExtraJointName, parent: JointName, position: Vec3) => ExtraJointName;
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
  const body: Record<(typeof BODY_BONES)[number], Vec3> = {
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
  const position = { ...body, ...fingerPositions(body, h) } as Record<BoneName, Vec3>;
  const head = position.head;
  const joints: JointName[] = [...BONE_NAMES];
  const extra = new Map<ExtraJointName, { parent: JointName; position: Vec3 }>();
  const indexOf = new Map<JointName, number>(joints.map((j, i) => [j, i]));
  return {
    position,
    joints,
    jointPosition: (joint) => extra.get(joint as ExtraJointName)?.position ?? position[joint as BoneName],
    parent: (joint) => extra.get(joint as ExtraJointName)?.parent ?? humanParent(joint as BoneName),
    index: (joint) => indexOf.get(joint) ?? -1,
    addJoint: (name, parent, p) => {
      if (indexOf.has(name)) throw new Error(`joint ${name} added twice`);
      if (!indexOf.has(parent)) throw new Error(`joint ${name}: unknown parent ${parent}`);
      extra.set(name, { parent, position: p });
      indexOf.set(name, joints.length);
      joints.push(name);
      return name;
    },
    headRadius,
    headCenter: [0, head[1] + headRadius * 0.9, head[2] + headRadius * 0.1],
  };
}

/** Finger layout of a relaxed flat hand in the T-pose (palm down, thumb forward), per finger. */
export const HAND = {
  /** Knuckle line, metres from the wrist (scaled by height / 1.7). */
  palmLength: 0.08,
  /** Per finger: offset across the palm (+Z = thumb side) and length of the three segments. */
  fingers: {
    Index: { across: 0.029, segments: [0.03, 0.02, 0.018] },
    Middle: { across: 0.0095, segments: [0.033, 0.022, 0.019] },
    Ring: { across: -0.0095, segments: [0.031, 0.021, 0.018] },
    Little: { across: -0.027, segments: [0.024, 0.016, 0.015] },
  },
  /** Thumb: metacarpal root on the palm, direction (left hand), segment lengths. */
  thumb: { root: [0.016, -0.008, 0.022], direction: [0.72, -0.28, 0.62], segments: [0.03, 0.025, 0.021] },
} as const;

function fingerPositions(body: Record<'leftHand' | 'rightHand', Vec3>, h: number): Record<FingerBone, Vec3> {
  const k = h / 1.7;
  const out = {} as Record<FingerBone, Vec3>;
  for (const side of ['left', 'right'] as const) {
    const sgn = side === 'left' ? 1 : -1;
    const [hx, hy, hz] = body[`${side}Hand`];
    for (const finger of ['Index', 'Middle', 'Ring', 'Little'] as const) {
      const f = HAND.fingers[finger];
      let x = hx + sgn * HAND.palmLength * k;
      fingerChain(side, finger).forEach((bone, i) => {
        out[bone] = [x, hy - 0.002 * k, hz + f.across * k];
        x += sgn * f.segments[i]! * k;
      });
    }
    const t = HAND.thumb;
    const len = Math.hypot(...t.direction);
    const dir: Vec3 = [(sgn * t.direction[0]) / len, t.direction[1] / len, t.direction[2] / len];
    let p: Vec3 = [hx + sgn * t.root[0] * k, hy + t.root[1] * k, hz + t.root[2] * k];
    fingerChain(side, 'Thumb').forEach((bone, i) => {
      out[bone] = p;
      const s = t.segments[i]! * k;
      p = [p[0] + dir[0] * s, p[1] + dir[1] * s, p[2] + dir[2] * s];
    });
  }
  return out;
}
