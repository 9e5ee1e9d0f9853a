import type { Hex } from '../geometry/color.js';

/** Hair silhouettes the hair builder knows; each adds locks (and springs) over the scalp shell. */
export type HairStyle = 'ponytail' | 'bun' | 'textured' | 'long-wavy' | 'short-neat' | 'receding';

/** Fringe over the forehead. */
export type Bangs = 'none' | 'side-swept' | 'full' | 'parted';

/** Everything that makes one character: proportions, face, hair, clothes, VRM metadata. */
export interface CharacterSpec {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  /** Standing height in metres. */
  readonly height: number;
  readonly body: {
    readonly shoulderWidth: number; // half width at the shoulder joints, in metres
    readonly hipWidth: number; // half width of the pelvis
    readonly waist: number; // half width of the waist
    readonly chestDepth: number; // half depth of the chest
    readonly bust: number; // 0 = flat, ~0.025 = pronounced
    readonly belly: number; // forward bulge at the waist (older characters)
    readonly limb: number; // limb thickness multiplier
    readonly headScale: number; // 1 = default stylised head size
    readonly neck: number; // neck radius multiplier
  };
  readonly skin: Hex;
  readonly face: {
    readonly jaw: number; // 0 = pointed chin, 1 = square jaw
    readonly faceWidth: number; // 1 = default width of cheeks and jaw
    readonly cheekbones: number; // 0 = flat … 1 = high, full cheekbones
    readonly chin: number; // −1 short … 0 … 1 long, forward chin
    readonly nose: number; // 1 = default nose length and height
    readonly noseWidth: number; // 1 = default width of the nose tip
    readonly eyeSize: number; // 1 = default
    readonly eyeSpacing: number; // 1 = default
    readonly eyeTilt: number; // outer corner lift in face units
    readonly eyeHeight: number; // vertical opening relative to eyeSize: < 1 almond … > 1 round
    readonly iris: Hex;
    readonly lashes: number; // lash line thickness multiplier
    readonly browThickness: number;
    readonly browArch: number; // 0 straight … 1 high arch
    readonly browTilt: number; // outer end up (+) / down (−), face units
    readonly lips: Hex;
    readonly mouthWidth: number; // 1 = default rest width
    readonly lipFullness: number; // 0 thin, skin-toned … 1 full, coloured
    readonly blush: number; // 0..1 strength of cheek tint
    readonly glasses: 'none' | 'round' | 'square';
    readonly glassesColor: Hex;
    readonly beard: boolean;
    readonly age: number; // 0 young .. 1 old: wrinkle lines, heavier lids
  };
  readonly hair: {
    readonly style: HairStyle;
    readonly bangs: Bangs;
    readonly color: Hex;
    readonly highlight: Hex;
    readonly volume: number; // shell offset multiplier
    readonly length: number; // metres below the head joint for long styles
    readonly accent: Hex; // hair tie, clip or band
  };
  readonly outfit: {
    readonly top: Hex;
    readonly topAccent: Hex; // collar, cuffs, trims
    readonly sleeve: number; // 0 sleeveless .. 1 to the wrist
    readonly stripes: number; // knit stripes in topAccent across the top (0 = plain)
    readonly neckline: 'crew' | 'round-collar' | 'collar' | 'turtle' | 'v' | 'hood';
    readonly jacket: Hex | null; // open jacket / cardigan over the top
    readonly bottom: Hex;
    readonly bottomKind: 'trousers' | 'skirt' | 'long-skirt';
    readonly legs: Hex; // tights or skin under a skirt
    readonly shoes: Hex;
    readonly boots: boolean;
    readonly watch: boolean; // a wristwatch on the left wrist
  };
  readonly voice: 'female' | 'male';
}
