import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { VRMSpringBoneJoint, VRMSpringBoneManager, VRMUtils, type VRM } from '@pixiv/three-vrm';
import { Object3D, PerspectiveCamera, Vector3, type Camera } from 'three';
import { AnimationRegistry, AnimationStates, DefaultAnimations, resolveAnimation, type AnimationState } from '../../widget/stage/animations/animation-registry.js';
import type { AnimationFactory } from '../../widget/stage/animations/avatar-animation.js';
import { solveArmIk } from '../../widget/stage/animations/two-bone-ik.js';
import { loadVrm } from '../../widget/stage/vrm-loader.js';
import { ArtAvatar } from './support/art-avatar.js';
import { ArtRenderer } from './support/art-renderer.js';
import {
  Emotions,
  headSilhouette,
  headSkinBox,
  headVolume,
  measureMouth,
  measureSprings,
  MOUTH_MATERIAL,
  peakFrames,
  sampleAnimation,
  Visemes,
  type AnimationSample,
  type MouthFigures,
  type SpringFigures,
} from './support/art-measurements.js';
import { contactSheet, type SheetRow } from './support/contact-sheet.js';
import type { PixelMask } from './support/pixel-mask.js';
import { readStageView } from './support/stage-view.js';

// The "done when" of issue 16, measured on the committed preset avatars in Chromium (SwiftShader):
// each avatar loaded by the widget's loader, posed by the widget's own animations at fixed times,
// rendered lit as on the stage and flat for pixel counts. Writes test-artifacts/avatar-art-contact-sheet.png
// and test-artifacts/avatar-art-figures.json, and logs the figures.

const IDS = ['luna-001', 'atlas-002', 'sofia-003', 'kenji-004', 'maya-005', 'orion-006'] as const;
const url = (id: string) => `/assets/avatars/${id}.vrm`;
/** Stage sizes whose framing camera the gesture hands must fit: AvatarStage's own 3:4 default and the widget's 360 px stage in a 480 px element. */
const STAGES = { 'stage 240×320': [240, 320], 'widget 480×360': [480, 360] } as const;
/** The stage whose camera, lights and colour settings draw the contact sheet's upper-body tiles (same aspect as a tile). */
const SHEET_STAGE = 'stage 240×320';
const TILE = { width: 150, height: 200 } as const;
const COLUMNS = ['rest', ...Visemes, ...Emotions, 'thinking', 'gesture', 'head+hair mask'];
const SEED = 1;
/** Animations are sampled every 0.1 s over 9.6 s (several gesture phrases). */
const SAMPLING = { seconds: 9.6, step: 0.1, seed: SEED } as const;
const SILHOUETTE_MAX_IOU = 0.85;
const MOUTH_MIN_RATIO = 8;
const MOUTH_MIN_WIDTH_SHARE = 0.25;
const HAIR_MIN_MOVE = 0.005;
/** Pixels of a face close-up tile an expression at 1.0 must change (≈ 0.3 % of the tile). */
const EXPRESSION_MIN_CHANGE = 100;
/** A hand raised this much (metres) above where it hangs at rest is gesturing, and must be seen. */
const GESTURE_RISE = 0.15;

interface AnimationFigures {
  readonly state: AnimationState;
  readonly samples: number;
  /** Worst frame for the head: most hand vertices inside it. */
  readonly worstHead: { time: number; inHead: number; minDepth: number };
  /**
   * Per stage camera: the mid-gesture frames (hands highest, ≥ 1 s apart), where each hand was
   * (`in`, `cut` by the frame's edge, `out`) and whether the hands were raised (a gesture: the
   * highest hand vertex ≥ GESTURE_RISE above where it hangs in the rest pose).
   */
  readonly peaks?: Record<string, { time: number; raised: boolean; left: string; right: string }[]>;
  /** Per stage camera: share of sampled frames with a hand cut by the frame's edge. */
  readonly cutShare?: Record<string, number>;
}

interface AvatarFigures {
  readonly materials: string[];
  readonly handVertices: number;
  readonly mouth: MouthFigures;
  /** Pixels of the lit face close-up that change from rest at each viseme and emotion (1.0); missing expressions are left out. */
  readonly expressionChange: Record<string, number>;
  /** Viseme and emotion presets the model does not have. */
  readonly missingExpressions: string[];
  /** Head volume (head bone frame, metres): centre and extent along the axes. */
  readonly head: { center: number[]; min: number[]; max: number[] };
  readonly animations: Record<string, AnimationFigures>;
  readonly springs: SpringFigures;
}

const round = (n: number, digits = 3) => Number(n.toFixed(digits));

function summarise(state: AnimationState, samples: readonly AnimationSample[], cameras: readonly string[], restHandTop: number): AnimationFigures {
  const worst = samples.reduce((a, b) => (b.inHead > a.inHead || (b.inHead === a.inHead && b.minDepth < a.minDepth) ? b : a));
  const figures: AnimationFigures = { state, samples: samples.length, worstHead: { time: round(worst.time, 1), inHead: worst.inHead, minDepth: round(worst.minDepth) } };
  if (state === 'idle') return figures;
  const peaks = peakFrames(samples, 3, 1);
  const byCamera: Record<string, { time: number; raised: boolean; left: string; right: string }[]> = {};
  const cutShare: Record<string, number> = {};
  for (const c of cameras) {
    byCamera[c] = peaks.map((p) => ({ time: round(p.time, 1), raised: p.handTop - restHandTop >= GESTURE_RISE, left: p.frame[c]![0], right: p.frame[c]![1] }));
    cutShare[c] = round(samples.filter((s) => s.frame[c]!.includes('cut')).length / samples.length);
  }
  return { ...figures, peaks: byCamera, cutShare };
}

/** A perspective close-up of the face (the stage's 22° lens), fitted to the head skin. */
function faceCamera(avatar: ArtAvatar): PerspectiveCamera {
  avatar.pose(undefined, 0);
  const box = headSkinBox(avatar);
  const center = box.getCenter(new Vector3());
  const camera = new PerspectiveCamera(22, TILE.width / TILE.height, 0.05, 20);
  const distance = ((box.max.y - box.min.y) * 0.85) / Math.tan((11 * Math.PI) / 180);
  camera.position.set(center.x, center.y, box.max.z + distance);
  camera.lookAt(center);
  camera.updateMatrixWorld(true);
  return camera;
}

/** A mask as a tile: set pixels dark on transparent, centred. */
function maskTile(mask: PixelMask): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = TILE.width;
  canvas.height = TILE.height;
  const image = new ImageData(mask.width, mask.height);
  mask.bits.forEach((b, i) => image.data.set(b ? [40, 40, 60, 255] : [0, 0, 0, 0], i * 4));
  const scratch = document.createElement('canvas');
  scratch.width = mask.width;
  scratch.height = mask.height;
  scratch.getContext('2d')!.putImageData(image, 0, 0);
  const size = Math.min(TILE.width, TILE.height);
  canvas.getContext('2d')!.drawImage(scratch, (TILE.width - size) / 2, (TILE.height - size) / 2, size, size);
  return canvas;
}

function changedPixels(a: HTMLCanvasElement, b: HTMLCanvasElement): number {
  const da = a.getContext('2d')!.getImageData(0, 0, a.width, a.height).data;
  const db = b.getContext('2d')!.getImageData(0, 0, b.width, b.height).data;
  let n = 0;
  for (let i = 0; i < da.length; i += 4) {
    if (Math.abs(da[i]! - db[i]!) + Math.abs(da[i + 1]! - db[i + 1]!) + Math.abs(da[i + 2]! - db[i + 2]!) + Math.abs(da[i + 3]! - db[i + 3]!) > 24) n++;
  }
  return n;
}

describe('avatar art: the six presets on the stage (issue 16, "done when")', function () {
  this.timeout(60000);
  let renderer: ArtRenderer;
  const figures: Record<string, AvatarFigures> = {};
  const silhouettes = new Map<string, PixelMask>();
  const rows: SheetRow[] = [];
  const pairs: Record<string, number> = {};

  before(() => {
    renderer = new ArtRenderer();
  });

  after(async () => {
    renderer.dispose();
    if (rows.length > 0) {
      const dataUrl = contactSheet(COLUMNS, rows, TILE.width, TILE.height);
      await executeServerCommand('write-artifact', { name: 'avatar-art-contact-sheet.png', dataUrl });
    }
    const text = `${JSON.stringify({ avatars: figures, silhouetteIoU: pairs }, null, 2)}\n`;
    await executeServerCommand('write-artifact', { name: 'avatar-art-figures.json', text });
  });

  for (const id of IDS) {
    describe(id, () => {
      let f: AvatarFigures;

      before(async () => {
        const vrm = await loadVrm(url(id));
        const avatar = new ArtAvatar(vrm);
        renderer.show(avatar);
        try {
          const cameras: Record<string, Camera> = {};
          for (const [name, [w, h]] of Object.entries(STAGES)) {
            const view = await readStageView(url(id), w, h);
            cameras[name] = view.camera;
            if (name === SHEET_STAGE) renderer.adopt(view);
          }
          const idle = resolveAnimation('idle', DefaultAnimations.idle);

          const mouth = measureMouth(renderer, avatar);
          silhouettes.set(id, headSilhouette(renderer, avatar, idle));
          const head = headVolume(avatar);
          const animations: Record<string, AnimationFigures> = {};
          const samplesOf: Record<string, AnimationSample[]> = {};
          avatar.pose(idle, 0, { seed: SEED });
          const restHandTop = Math.max(...avatar.worldPositions(avatar.handVertices()).map((p) => p.y)) - avatar.bonePosition('head').y;
          for (const state of AnimationStates) {
            for (const [name, factory] of Object.entries(AnimationRegistry[state])) {
              samplesOf[name] = sampleAnimation(avatar, factory, head, cameras, SAMPLING);
              animations[name] = summarise(state, samplesOf[name]!, Object.keys(cameras), restHandTop);
            }
          }
          const springs = measureSprings(avatar, idle);

          // Contact sheet row: lit as on the stage; hair settled by fixed spring steps.
          const stageView = cameras[SHEET_STAGE]!;
          const face = faceCamera(avatar);
          const tile = (animation: AnimationState | undefined, time: number, camera: Camera, expression?: string) => {
            const factory = animation ? resolveAnimation(animation, DefaultAnimations[animation]) : idle;
            avatar.pose(factory, time, { seed: SEED, ...(expression ? { expression } : {}) });
            avatar.step(15);
            return renderer.lit(camera, TILE.width, TILE.height);
          };
          const restFace = tile(undefined, 0, face);
          const expressionChange: Record<string, number> = {};
          const missingExpressions: string[] = [];
          const faces = [...Visemes, ...Emotions].map((e) => {
            if (!vrm.expressionManager?.getExpression(e)) {
              missingExpressions.push(e);
              return restFace;
            }
            const t = tile(undefined, 0, face, e);
            expressionChange[e] = changedPixels(restFace, t);
            return t;
          });
          const gestureTime = peakFrames(samplesOf[DefaultAnimations.talking]!, 1, 1)[0]!.time;
          const tiles = [
            tile(undefined, 0, stageView),
            ...faces,
            tile('thinking', 2, stageView),
            tile('talking', gestureTime, stageView),
            maskTile(silhouettes.get(id)!),
          ];

          f = {
            materials: avatar.materials,
            handVertices: avatar.handVertices().reduce((n, s) => n + s.indices.length, 0),
            mouth,
            expressionChange,
            missingExpressions,
            head: { center: head.center.toArray().map((n) => round(n)), min: head.extent().min.map((n) => round(n)), max: head.extent().max.map((n) => round(n)) },
            animations,
            springs,
          };
          figures[id] = f;
          const worstHead = Math.max(...Object.values(animations).map((a) => a.worstHead.inHead));
          rows.push({
            title: id,
            notes: [
              `aa/rest ${round(mouth.aaToRest, 1)}× (${mouth.visemePixels['aa']}/${mouth.restPixels} px)`,
              `aa opening ${round(mouth.aaWidthShare * 100, 0)}%, lips ${round((mouth.aaMovedWidth / Math.max(1e-6, mouth.faceWidth)) * 100, 0)}% of face`,
              `hand verts in head: max ${worstHead}`,
              `hair move ${round(springs.hairMove * 1000, 1)} mm (${springs.hairJoints} joints)`,
              `gesture t=${round(gestureTime, 1)} s, thinking t=2 s`,
              `materials ${avatar.materials.join(' ')}`,
            ],
            tiles,
          });
          console.log(`[avatar-art] ${id} ${JSON.stringify(f)}`);
        } finally {
          renderer.hide(avatar);
          VRMUtils.deepDispose(vrm.scene);
        }
      });

      it(`opens the mouth at aa to ≥ ${MOUTH_MIN_RATIO}× its rest area (interior in "${MOUTH_MATERIAL}")`, () => {
        expect(f.mouth.hasMouthMaterial, `${id}: no primitive with material "${MOUTH_MATERIAL}" (mouth cavity, teeth, tongue); materials: ${f.materials.join(', ')}`).to.equal(true);
        expect(f.mouth.aaToRest, `${id}: mouth interior at aa ${f.mouth.visemePixels['aa']} px vs rest ${f.mouth.restPixels} px`).to.be.at.least(MOUTH_MIN_RATIO);
      });

      it(`opens the mouth at aa to ≥ ${MOUTH_MIN_WIDTH_SHARE * 100}% of the face's width`, () => {
        expect(f.mouth.faceWidth, `${id}: no head skin found at the mouth's height`).to.be.greaterThan(0);
        const { openingWidth, faceWidth } = f.mouth;
        expect(f.mouth.aaWidthShare, `${id}: opening at aa ${round(openingWidth['aa']! * 100, 1)} cm wide, face ${round(faceWidth * 100, 1)} cm`).to.be.at.least(MOUTH_MIN_WIDTH_SHARE);
      });

      it(`changes the face visibly at each viseme and emotion (≥ ${EXPRESSION_MIN_CHANGE} px of a ${TILE.width}×${TILE.height} close-up)`, () => {
        expect(f.missingExpressions, `${id}: expressions missing`).to.deep.equal([]);
        const faint = Object.entries(f.expressionChange).filter(([, n]) => n < EXPRESSION_MIN_CHANGE).map(([e, n]) => `${e} ${n} px`);
        expect(faint, `${id}: expressions that barely change the face`).to.deep.equal([]);
      });

      it('keeps every hand and finger vertex out of the head in every sampled pose', () => {
        expect(f.handVertices, `${id}: no vertices weighted mostly to hand or finger bones`).to.be.greaterThan(0);
        const bad = Object.entries(f.animations)
          .filter(([, a]) => a.worstHead.inHead > 0)
          .map(([name, a]) => `${name} t=${a.worstHead.time}s: ${a.worstHead.inHead} hand vertices inside (deepest at ${a.worstHead.minDepth} of the radius)`);
        expect(bad, `${id}: hands inside the head`).to.deep.equal([]);
      });

          it('shows mid-gesture hands whole inside the stage frame, never cut by its edge (talking and thinking)', () => {
        const bad: string[] = [];
        for (const [name, a] of Object.entries(f.animations)) {
          for (const [camera, peaks] of Object.entries(a.peaks ?? {})) {
            for (const p of peaks) {
              const hands = [p.left, p.right];
              if (hands.includes('cut') || (p.raised && !hands.includes('in'))) bad.push(`${camera} ${name} t=${p.time}s${p.raised ? ' (hands raised)' : ''}: left ${p.left}, right ${p.right}`);
            }
          }
        }
        expect(bad, `${id}: mid-gesture hands cut by the frame or not shown`).to.deep.equal([]);
      });

      it('moves spring-bone hair when the head turns', () => {
        const s = f.springs;
        expect(s.hasSpringBones, `${id}: no VRMC_springBone joints (vrm.springBoneManager is empty)`).to.equal(true);
        expect(s.colliders, `${id}: VRMC_springBone has no colliders`).to.be.greaterThan(0);
        expect(s.hairJoints, `${id}: no spring joints on bones named "hair…"`).to.be.greaterThan(0);
        expect(s.hairMove, `${id}: hair joints moved ${round(s.hairMove * 1000, 1)} mm relative to the head`).to.be.at.least(HAIR_MIN_MOVE);
      });
    });
  }

  describe('the measures themselves', () => {
    it('see a hand pushed into the face, and hands out of the frame in the T-pose', async () => {
      const vrm = await loadVrm(url(IDS[0]));
      try {
        const avatar = new ArtAvatar(vrm);
        const cameras = { stage: (await readStageView(url(IDS[0]), 240, 320)).camera };
        const head = headVolume(avatar);
        // Right wrist 8 cm above the head bone and 5 cm forward (mid-face), fingers pointing up: through the face.
        const intoFace: AnimationFactory = ({ rig }) => ({
          name: 'hand-into-face',
          evaluate(_time, pose) {
            const { position } = rig.worldTransform(pose, 'head');
            solveArmIk(rig, pose, 'right', position.add(new Vector3(0, 0.08, 0.05)), new Vector3(0, -1, 0.5), new Vector3(0, 1, 0));
          },
        });
        const tPose: AnimationFactory = () => ({ name: 't-pose', evaluate: () => undefined });
        const options = { seconds: 0.1, step: 0.1, seed: SEED };
        const [face] = sampleAnimation(avatar, intoFace, head, cameras, options);
        const [rest] = sampleAnimation(avatar, tPose, head, cameras, options);
        expect(face!.inHead, 'hand vertices inside the head').to.be.greaterThan(0);
        expect(face!.frame['stage']![1], 'the right hand at the face is in the frame').to.equal('in');
        expect(rest!.inHead, 'T-pose hands inside the head').to.equal(0);
        expect(rest!.frame['stage'], 'T-pose hands (arms out) outside a 3:4 head-and-shoulders frame').to.deep.equal(['out', 'out']);
      } finally {
        VRMUtils.deepDispose(vrm.scene);
      }
    });

    it('report a model without springs, and see a spring-bone strand move when the head turns', async () => {
      const vrm = await loadVrm(url(IDS[0]));
      try {
        const idle = resolveAnimation('idle', DefaultAnimations.idle);
        const head = vrm.humanoid.getRawBoneNode('head')!;
        // A strand of three bones behind the head, rigid first.
        const strand = [new Object3D(), new Object3D(), new Object3D()];
        strand.forEach((bone, i) => {
          bone.name = `hairTest${i}`;
          bone.position.set(0, i === 0 ? 0.12 : -0.08, i === 0 ? -0.1 : 0);
          (i === 0 ? head : strand[i - 1]!).add(bone);
        });
        // The presets carry springs of their own: take them off to start from a rigid model.
        (vrm as { springBoneManager?: VRMSpringBoneManager } & VRM).springBoneManager = undefined;
        const rigid = measureSprings(new ArtAvatar(vrm), idle);
        expect(rigid.hasSpringBones, 'no springs yet').to.equal(false);
        const manager = new VRMSpringBoneManager();
        const settings = { hitRadius: 0.02, stiffness: 0.6, gravityPower: 0.3, gravityDir: new Vector3(0, -1, 0), dragForce: 0.4 };
        manager.addJoint(new VRMSpringBoneJoint(strand[0]!, strand[1]!, settings));
        manager.addJoint(new VRMSpringBoneJoint(strand[1]!, strand[2]!, settings));
        manager.setInitState();
        (vrm as { springBoneManager?: VRMSpringBoneManager } & VRM).springBoneManager = manager;
        const springy = measureSprings(new ArtAvatar(vrm), idle);
        expect(springy.hairJoints).to.equal(2);
        expect(springy.hairMove, 'strand moves relative to the head').to.be.at.least(HAIR_MIN_MOVE);
      } finally {
        VRMUtils.deepDispose(vrm.scene);
      }
    });
  });

  describe('the six side by side', () => {
    it(`have head-and-hair silhouettes that differ pairwise (IoU ≤ ${SILHOUETTE_MAX_IOU})`, () => {
      expect([...silhouettes.keys()], 'every avatar measured').to.deep.equal([...IDS]);
      const bad: string[] = [];
      for (let i = 0; i < IDS.length; i++) {
        for (let j = i + 1; j < IDS.length; j++) {
          const iou = silhouettes.get(IDS[i]!)!.iou(silhouettes.get(IDS[j]!)!);
          pairs[`${IDS[i]} ${IDS[j]}`] = round(iou);
          if (iou > SILHOUETTE_MAX_IOU) bad.push(`${IDS[i]} vs ${IDS[j]}: ${round(iou)}`);
        }
      }
      console.log(`[avatar-art] silhouette IoU ${JSON.stringify(pairs)}`);
      expect(bad, 'silhouette pairs too alike').to.deep.equal([]);
    });
  });
});
