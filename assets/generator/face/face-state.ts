/**
 * The face as a handful of numbers. Every expression is a FaceState; the face builder turns any
 * state into geometry with identical topology, and morph targets are (state − neutral).
 */
export interface EyeState {
  /** 0 closed … 1 normal … 1.3 wide open. */
  readonly open: number;
  /** Shape of the closed lid line: < 0 a relaxed "U", > 0 a happy "∩". */
  readonly arch: number;
  /** Cheek push on the lower lid (smiling eyes), 0 … 1. */
  readonly lowerLift: number;
  /** Gaze offset in face units (+x = toward the model's left / +X). */
  readonly lookX: number;
  readonly lookY: number;
}

export interface BrowState {
  readonly lift: number; // whole brow up (+) / down (−), face units
  readonly inner: number; // inner end up (+, worried) / down (−, angry)
}

export interface MouthState {
  readonly open: number; // vertical gap, face units
  readonly width: number; // 1 = rest width
  readonly smile: number; // corners up (+) / down (−)
  readonly round: number; // 0 wide … 1 round ("o")
}

export interface FaceState {
  readonly leftEye: EyeState;
  readonly rightEye: EyeState;
  readonly leftBrow: BrowState;
  readonly rightBrow: BrowState;
  readonly mouth: MouthState;
}

/** Expression presets bound as morph targets, in target order. */
export const EXPRESSION_NAMES = [
  'aa',
  'ih',
  'ou',
  'ee',
  'oh',
  'blink',
  'blinkLeft',
  'blinkRight',
  'happy',
  'angry',
  'sad',
  'relaxed',
  'surprised',
  'neutral',
  'lookUp',
  'lookDown',
  'lookLeft',
  'lookRight',
] as const;

export type ExpressionName = (typeof EXPRESSION_NAMES)[number];

const EYE: EyeState = { open: 1, arch: -0.3, lowerLift: 0, lookX: 0, lookY: 0 };
const BROW: BrowState = { lift: 0, inner: 0 };

/** The rest face: eyes open, a faint friendly smile. */
export const NEUTRAL_FACE: FaceState = {
  leftEye: EYE,
  rightEye: EYE,
  leftBrow: BROW,
  rightBrow: BROW,
  mouth: { open: 0, width: 1, smile: 0.3, round: 0 },
};

const eyes = (e: Partial<EyeState>): Pick<FaceState, 'leftEye' | 'rightEye'> => ({
  leftEye: { ...EYE, ...e },
  rightEye: { ...EYE, ...e },
});
const brows = (b: Partial<BrowState>): Pick<FaceState, 'leftBrow' | 'rightBrow'> => ({
  leftBrow: { ...BROW, ...b },
  rightBrow: { ...BROW, ...b },
});
const mouth = (m: Partial<MouthState>): Pick<FaceState, 'mouth'> => ({ mouth: { ...NEUTRAL_FACE.mouth, ...m } });

/**
 * The face each expression preset drives toward at weight 1. Visemes open the mouth wide enough to
 * read at stage size: `aa` tallest, `ee` widest, `oh` round (these three and `ih` to a quarter of
 * the face's width or more), `ou` a smaller round. Emotions move brows, lids and mouth corners
 * together.
 */
export const EXPRESSION_FACES: Readonly<Record<ExpressionName, FaceState>> = {
  aa: { ...NEUTRAL_FACE, ...mouth({ open: 0.3, width: 1.4, smile: 0.1, round: 0 }) },
  ih: { ...NEUTRAL_FACE, ...mouth({ open: 0.13, width: 1.36, smile: 0.35 }) },
  ou: { ...NEUTRAL_FACE, ...mouth({ open: 0.2, width: 0.95, smile: 0, round: 1 }) },
  ee: { ...NEUTRAL_FACE, ...mouth({ open: 0.1, width: 1.45, smile: 0.5 }) },
  oh: { ...NEUTRAL_FACE, ...mouth({ open: 0.3, width: 1.36, smile: 0, round: 1 }) },
  blink: { ...NEUTRAL_FACE, ...eyes({ open: 0 }) },
  blinkLeft: { ...NEUTRAL_FACE, leftEye: { ...EYE, open: 0 } },
  blinkRight: { ...NEUTRAL_FACE, rightEye: { ...EYE, open: 0 } },
  happy: {
    ...NEUTRAL_FACE,
    ...eyes({ open: 0.1, arch: 1, lowerLift: 0.8 }),
    ...brows({ lift: 0.03, inner: 0.012 }),
    ...mouth({ open: 0.1, width: 1.25, smile: 1.25 }),
  },
  angry: {
    ...NEUTRAL_FACE,
    ...eyes({ open: 0.72, lowerLift: 0.3 }),
    ...brows({ lift: -0.03, inner: -0.075 }),
    ...mouth({ open: 0.025, width: 0.82, smile: -0.75 }),
  },
  sad: {
    ...NEUTRAL_FACE,
    ...eyes({ open: 0.78, lookY: -0.015 }),
    ...brows({ lift: 0.005, inner: 0.08 }),
    ...mouth({ open: 0.012, width: 0.84, smile: -0.85 }),
  },
  relaxed: {
    ...NEUTRAL_FACE,
    ...eyes({ open: 0.55, arch: 0.2, lowerLift: 0.2 }),
    ...brows({ lift: 0.012 }),
    ...mouth({ width: 1.08, smile: 0.8 }),
  },
  surprised: {
    ...NEUTRAL_FACE,
    ...eyes({ open: 1.28 }),
    ...brows({ lift: 0.08, inner: 0.02 }),
    ...mouth({ open: 0.2, width: 0.72, smile: 0, round: 0.9 }),
  },
  neutral: { ...NEUTRAL_FACE, ...eyes({ open: 0.96 }), ...mouth({ smile: 0.08 }) },
  lookUp: { ...NEUTRAL_FACE, ...eyes({ lookY: 0.05, open: 1.06 }), ...brows({ lift: 0.012 }) },
  lookDown: { ...NEUTRAL_FACE, ...eyes({ lookY: -0.05, open: 0.8 }) },
  lookLeft: { ...NEUTRAL_FACE, ...eyes({ lookX: 0.075 }) },
  lookRight: { ...NEUTRAL_FACE, ...eyes({ lookX: -0.075 }) },
};
