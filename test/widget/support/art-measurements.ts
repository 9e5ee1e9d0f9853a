import { Box3, OrthographicCamera, Plane, Vector3, type Camera } from 'three';
import type { AnimationFactory } from '../../../widget/stage/animations/avatar-animation.js';
import { isHandBone, type ArtAvatar, type VertexSet } from './art-avatar.js';
import type { ArtRenderer } from './art-renderer.js';
import { HeadVolume } from './head-volume.js';
import { PixelMask } from './pixel-mask.js';

export const Visemes = ['aa', 'ih', 'ou', 'ee', 'oh'] as const;
export const Emotions = ['happy', 'sad', 'surprised', 'relaxed', 'angry'] as const;
/** The material the mouth interior (cavity, teeth, tongue) must have. */
export const MOUTH_MATERIAL = 'mouth-mtoon';
/** Flat renders are square, this many pixels a side. */
export const FLAT_SIZE = 256;

const isRed = (r: number, g: number, b: number) => r > 128 && g < 64 && b < 64;
const isLit = (r: number, g: number, b: number) => r + g + b > 96;

/** An orthographic camera looking at `center` from the front (+Z), `half` metres each way. */
export function frontCamera(center: Vector3, half: number): OrthographicCamera {
  const camera = new OrthographicCamera(-half, half, half, -half, 0.01, 10);
  camera.position.set(center.x, center.y, center.z + 2);
  camera.lookAt(center);
  camera.updateMatrixWorld(true);
  return camera;
}

/** Bounds of the head skin in world space, in the current pose. */
export function headSkinBox(avatar: ArtAvatar): Box3 {
  return new Box3().setFromPoints(avatar.worldPositions(avatar.headSkinVertices()));
}

export interface MouthFigures {
  /** Whether the model has a `mouth-mtoon` primitive (the contract for the mouth interior). */
  readonly hasMouthMaterial: boolean;
  /** Visible mouth-interior pixels (flat render, 1 px ≈ `metresPerPixel`), rest and per viseme. */
  readonly restPixels: number;
  readonly visemePixels: Record<string, number>;
  /** visemePixels.aa / max(1, restPixels). */
  readonly aaToRest: number;
  /** Widest row of visible mouth interior per viseme, metres. */
  readonly openingWidth: Record<string, number>;
  /** Width of the head's skin across the face at the mouth's height (±1 cm), in front of the head's middle, metres. */
  readonly faceWidth: number;
  /** The same band's full width, ears and back of the head included, metres (for reference). */
  readonly headWidth: number;
  /** openingWidth.aa / faceWidth. */
  readonly aaWidthShare: number;
  /** Height (world y) of the mouth: centroid of the vertices the `aa` morph moves > 1 mm. */
  readonly mouthY: number;
  /** Width (x) of what the `aa` morph moves > 1 mm: the lips' span, with or without a mouth interior. */
  readonly aaMovedWidth: number;
  readonly metresPerPixel: number;
}

/**
 * Mouth opening in the T-pose, eyes ahead: every surface flat white except `mouth-mtoon` red,
 * depth kept (so lips and teeth hide what they cover), from a fixed orthographic camera in front
 * of the face; the red pixels are the mouth interior a viewer sees.
 */
export function measureMouth(renderer: ArtRenderer, avatar: ArtAvatar): MouthFigures {
  avatar.pose(undefined, 0);
  const skin = headSkinBox(avatar);
  const everything = avatar.vertices(() => true, 0);
  const rest = avatar.worldPositions(everything);
  avatar.pose(undefined, 0, { expression: 'aa' });
  const open = avatar.worldPositions(everything);
  let moved = 0;
  let sumY = 0;
  let movedMin = Infinity;
  let movedMax = -Infinity;
  open.forEach((p, i) => {
    if (p.distanceTo(rest[i]!) > 0.001) {
      moved++;
      sumY += (p.y + rest[i]!.y) / 2;
      movedMin = Math.min(movedMin, p.x);
      movedMax = Math.max(movedMax, p.x);
    }
  });
  const mouthY = moved > 0 ? sumY / moved : skin.min.y + (skin.max.y - skin.min.y) * 0.2;
  // Face width: the skin across the face at the mouth's height (±1 cm), in front of the head's
  // middle (ears and the back of the head left out).
  const middleZ = skin.getCenter(new Vector3()).z;
  let minX = Infinity;
  let maxX = -Infinity;
  let headMin = Infinity;
  let headMax = -Infinity;
  avatar.pose(undefined, 0);
  for (const p of avatar.worldPositions(avatar.headSkinVertices())) {
    if (Math.abs(p.y - mouthY) > 0.01) continue;
    headMin = Math.min(headMin, p.x);
    headMax = Math.max(headMax, p.x);
    if (p.z < middleZ) continue;
    minX = Math.min(minX, p.x);
    maxX = Math.max(maxX, p.x);
  }
  const faceWidth = maxX > minX ? maxX - minX : 0;
  const headWidth = headMax > headMin ? headMax - headMin : 0;

  const half = 0.15;
  const camera = frontCamera(new Vector3(skin.getCenter(new Vector3()).x, mouthY, skin.getCenter(new Vector3()).z), half);
  const metresPerPixel = (2 * half) / FLAT_SIZE;
  const paint = (m: string) => ({ color: m === MOUTH_MATERIAL ? 0xff0000 : 0xffffff });
  const mouthMask = (expression?: string) => {
    avatar.pose(undefined, 0, expression ? { expression } : {});
    return PixelMask.fromGl(renderer.flat(avatar, camera, FLAT_SIZE, FLAT_SIZE, paint), FLAT_SIZE, FLAT_SIZE, isRed);
  };
  const restPixels = mouthMask().count();
  const visemePixels: Record<string, number> = {};
  const openingWidth: Record<string, number> = {};
  for (const v of Visemes) {
    const mask = mouthMask(v);
    visemePixels[v] = mask.count();
    openingWidth[v] = mask.widestRow() * metresPerPixel;
  }
  avatar.pose(undefined, 0);
  return {
    hasMouthMaterial: avatar.materials.includes(MOUTH_MATERIAL),
    restPixels,
    visemePixels,
    aaToRest: visemePixels['aa']! / Math.max(1, restPixels),
    openingWidth,
    faceWidth,
    headWidth,
    aaWidthShare: faceWidth > 0 ? openingWidth['aa']! / faceWidth : 0,
    mouthY,
    aaMovedWidth: movedMax > movedMin ? movedMax - movedMin : 0,
    metresPerPixel,
  };
}

/**
 * Head-and-hair silhouette, front view, in the relaxed rest pose (`idle` at 0 s): hair whole,
 * everything else only above the neck bone. The orthographic camera is centred on the head bone
 * with a fixed size in metres, so position is normalised and real differences in head size count.
 */
export function headSilhouette(renderer: ArtRenderer, avatar: ArtAvatar, idle: AnimationFactory): PixelMask {
  avatar.pose(idle, 0);
  const neckY = avatar.bonePosition(avatar.vrm.humanoid.getRawBoneNode('neck') ? 'neck' : 'head').y;
  const clip = [new Plane(new Vector3(0, 1, 0), -neckY)];
  const camera = frontCamera(avatar.bonePosition('head'), 0.32);
  const pixels = renderer.flat(avatar, camera, FLAT_SIZE, FLAT_SIZE, (m) => (m.startsWith('hair') ? { color: 0xffffff } : { color: 0xffffff, clip }));
  return PixelMask.fromGl(pixels, FLAT_SIZE, FLAT_SIZE, isLit);
}

/** Where each hand is in one camera's frame. */
export type HandInFrame = 'in' | 'cut' | 'out';

function handInFrame(points: readonly Vector3[], camera: Camera): HandInFrame {
  let inside = 0;
  const p = new Vector3();
  for (const q of points) {
    p.copy(q).project(camera);
    if (p.x >= -1 && p.x <= 1 && p.y >= -1 && p.y <= 1 && p.z <= 1) inside++;
  }
  return inside === points.length ? 'in' : inside === 0 ? 'out' : 'cut';
}

export interface AnimationSample {
  readonly time: number;
  /** Hand vertices inside the head volume. */
  readonly inHead: number;
  /** Smallest ellipsoid depth of any hand vertex (< 1 = inside the head). */
  readonly minDepth: number;
  /** Highest hand vertex, metres above the head bone. */
  readonly handTop: number;
  /** Per camera: [left hand, right hand]. */
  readonly frame: Record<string, readonly [HandInFrame, HandInFrame]>;
}

/**
 * Samples an animation every `step` seconds over `seconds`: for each frame, hand vertices
 * (weighted ≥ 0.5 to hand / finger bones) against the head volume and the stage cameras.
 */
export function sampleAnimation(
  avatar: ArtAvatar,
  animation: AnimationFactory,
  head: HeadVolume,
  cameras: Record<string, Camera>,
  options: { seconds: number; step: number; seed: number },
): AnimationSample[] {
  const hands = avatar.handVertices();
  const side = (prefix: string): VertexSet[] =>
    avatar.vertices((b) => isHandBone(b) && b.startsWith(prefix), 0.5);
  const left = side('left');
  const right = side('right');
  const samples: AnimationSample[] = [];
  for (let i = 0; i * options.step < options.seconds; i++) {
    const time = i * options.step;
    avatar.pose(animation, time, { seed: options.seed });
    const inHeadFrame = avatar.headPositions(hands);
    let minDepth = Infinity;
    for (const p of inHeadFrame) minDepth = Math.min(minDepth, head.depth(p));
    const l = avatar.worldPositions(left);
    const r = avatar.worldPositions(right);
    const headY = avatar.bonePosition('head').y;
    const handTop = Math.max(...l.map((p) => p.y), ...r.map((p) => p.y)) - headY;
    const frame: Record<string, readonly [HandInFrame, HandInFrame]> = {};
    for (const [name, camera] of Object.entries(cameras)) frame[name] = [handInFrame(l, camera), handInFrame(r, camera)];
    samples.push({ time, inHead: head.inside(inHeadFrame), minDepth, handTop, frame });
  }
  return samples;
}

/** The head volume of the T-pose (see `HeadVolume`). */
export function headVolume(avatar: ArtAvatar): HeadVolume {
  avatar.pose(undefined, 0);
  return new HeadVolume(avatar.headPositions(avatar.headSkinVertices()));
}

/**
 * Up to `count` sample times where the hands are highest (local peaks at least `gap` seconds
 * apart): the mid-gesture frames of a talking animation.
 */
export function peakFrames(samples: readonly AnimationSample[], count: number, gap: number): AnimationSample[] {
  const ranked = [...samples].sort((a, b) => b.handTop - a.handTop);
  const picked: AnimationSample[] = [];
  for (const s of ranked) {
    if (picked.length >= count) break;
    if (picked.every((p) => Math.abs(p.time - s.time) >= gap)) picked.push(s);
  }
  return picked.sort((a, b) => a.time - b.time);
}

export interface SpringFigures {
  readonly hasSpringBones: boolean;
  readonly joints: number;
  readonly colliders: number;
  /** Joints on bones named `hair…`. */
  readonly hairJoints: number;
  /** Largest move of a hair joint in the head's frame within 10 steps of 1/30 s after the head turns 0.5 rad. */
  readonly hairMove: number;
}

/**
 * Spring-bone hair: settle the rest pose, turn the head 0.5 rad (yaw), step the springs at a
 * fixed 1/30 s and see how far the hair joints move relative to the head. Rigid hair stays put
 * in the head's frame; springy hair lags behind the turn.
 */
export function measureSprings(avatar: ArtAvatar, idle: AnimationFactory): SpringFigures {
  const manager = avatar.vrm.springBoneManager;
  const joints = manager ? [...manager.joints] : [];
  const hair = joints.filter((j) => /^hair/i.test(j.bone.name));
  const colliders = manager ? manager.colliders.length : 0;
  if (!manager || hair.length === 0) return { hasSpringBones: !!manager && joints.length > 0, joints: joints.length, colliders, hairJoints: hair.length, hairMove: 0 };
  avatar.pose(idle, 0);
  manager.reset();
  avatar.step(60);
  // A joint's own origin is fixed to its parent; what swings is its child (the next bone, or the tip).
  const tips = [...new Set(hair.flatMap((j) => (j.child ? [j.bone, j.child] : [j.bone])))];
  const headFrame = () => {
    const inverse = avatar.bone('head').matrixWorld.clone().invert();
    return tips.map((o) => o.getWorldPosition(new Vector3()).applyMatrix4(inverse));
  };
  const before = headFrame();
  avatar.vrm.humanoid.getNormalizedBoneNode('head')!.rotateY(0.5);
  let hairMove = 0;
  for (let i = 0; i < 10; i++) {
    avatar.step(1);
    headFrame().forEach((p, k) => (hairMove = Math.max(hairMove, p.distanceTo(before[k]!))));
  }
  avatar.pose(idle, 0);
  return { hasSpringBones: true, joints: joints.length, colliders, hairJoints: hair.length, hairMove };
}
