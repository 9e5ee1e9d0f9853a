import { expect, waitUntil } from '@open-wc/testing';
import { Quaternion } from 'three';
import { AvatarStage } from '../../widget/stage/avatar-stage.js';
import { AnimationBlender } from '../../widget/stage/animations/animation-blender.js';
import { HumanoidRig } from '../../widget/stage/animations/humanoid-rig.js';
import { createPose, PosedBones, type Pose } from '../../widget/stage/animations/pose.js';

const IDS = ['luna-001', 'atlas-002', 'sofia-003', 'kenji-004', 'maya-005', 'orion-006'] as const;
const url = (id: string) => `/assets/avatars/${id}.vrm`;
const POLL = { timeout: 20000, interval: 20 } as const;

function makeContainer(width = 240, height = 320): HTMLDivElement {
  const el = document.createElement('div');
  el.style.cssText = `position:fixed;left:0;top:0;width:${width}px;height:${height}px;background:#dde4ee`;
  document.body.appendChild(el);
  return el;
}

/** Share of pixels with any opacity inside a box given in fractions of the image. */
function coverage(img: ImageData, box: { x0: number; x1: number; y0: number; y1: number }): number {
  let hit = 0;
  let all = 0;
  for (let y = Math.floor(box.y0 * img.height); y < box.y1 * img.height; y++) {
    for (let x = Math.floor(box.x0 * img.width); x < box.x1 * img.width; x++) {
      all++;
      if (img.data[(y * img.width + x) * 4 + 3]! > 0) hit++;
    }
  }
  return hit / all;
}

function changed(a: ImageData, b: ImageData): { count: number; minY: number; maxY: number } {
  let count = 0;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < a.data.length; i += 4) {
    const d = Math.abs(a.data[i]! - b.data[i]!) + Math.abs(a.data[i + 1]! - b.data[i + 1]!) + Math.abs(a.data[i + 2]! - b.data[i + 2]!) + Math.abs(a.data[i + 3]! - b.data[i + 3]!);
    if (d > 24) {
      count++;
      const y = Math.floor(i / 4 / a.width);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
  }
  return { count, minY, maxY };
}

const angle = (a: Quaternion, b: Quaternion) => a.angleTo(b);

/** Largest bone rotation difference between two poses (radians). */
function poseDistance(a: Pose, b: Pose): number {
  return Math.max(...PosedBones.map((bone) => a.bones[bone].angleTo(b.bones[bone])));
}

describe('AvatarStage', () => {
  let container: HTMLDivElement;
  let stage: AvatarStage;

  beforeEach(() => {
    container = makeContainer();
    stage = new AvatarStage({ container });
  });

  afterEach(() => {
    stage.dispose();
    container.remove();
  });

  it('reports WebGL as available in this browser', () => {
    expect(AvatarStage.webglAvailable()).to.equal(true);
  });

  it('renders the avatar head and shoulders on a transparent canvas', async () => {
    const progress: number[] = [];
    await stage.load(url('luna-001'), { onProgress: (f) => progress.push(f) });
    expect(progress.at(-1)).to.equal(1);
    expect(progress.every((p, i) => i === 0 || p >= progress[i - 1]!), 'progress never goes back').to.equal(true);
    expect(stage.canvas.parentElement).to.equal(container);
    await waitUntil(() => stage.renderedFrames > 2, 'frames render', POLL);

    const img = stage.capture();
    // The face fills the upper middle of a portrait frame, the shoulders the bottom.
    expect(coverage(img, { x0: 0.4, x1: 0.6, y0: 0.3, y1: 0.45 }), 'face').to.be.greaterThan(0.9);
    expect(coverage(img, { x0: 0.1, x1: 0.9, y0: 0.85, y1: 1 }), 'shoulders').to.be.greaterThan(0.5);
    // Background transparent, so the host page themes it.
    expect(coverage(img, { x0: 0, x1: 0.1, y0: 0, y1: 0.1 }), 'top-left corner').to.equal(0);
    expect(coverage(img, { x0: 0.9, x1: 1, y0: 0, y1: 0.1 }), 'top-right corner').to.equal(0);
  });

  it('loads each of the six avatars, replacing the previous one', async () => {
    for (const id of IDS) {
      await stage.load(url(id));
      const img = stage.capture();
      expect(coverage(img, { x0: 0.4, x1: 0.6, y0: 0.3, y1: 0.45 }), id).to.be.greaterThan(0.8);
      expect(stage.vrm?.scene.parent, `${id} in the scene`).to.not.equal(null);
    }
  });

  it('rejects when the load is aborted', async () => {
    const controller = new AbortController();
    const loading = stage.load(url('luna-001'), { signal: controller.signal });
    controller.abort();
    let error: unknown;
    await loading.catch((e: unknown) => (error = e));
    expect((error as DOMException | undefined)?.name).to.equal('AbortError');
    expect(stage.vrm).to.equal(undefined);
  });

  it('switches animation when the state changes (right arm up to the chin when thinking)', async () => {
    await stage.load(url('luna-001'));
    const arm = stage.vrm!.humanoid.getNormalizedBoneNode('rightUpperArm')!;
    let time = 0;
    stage.onFrame = (info) => (time = info.time);
    await waitUntil(() => time > 0.2, 'idle frames', POLL);
    const idle = arm.quaternion.clone();

    stage.setState('thinking');
    expect(stage.state).to.equal('thinking');
    const switchedAt = time;
    await waitUntil(() => time > switchedAt + 0.6, 'thinking frames after the blend', POLL);
    expect(angle(idle, arm.quaternion), 'right upper arm rotation').to.be.greaterThan(0.5);

    stage.setState('idle');
    const backAt = time;
    await waitUntil(() => time > backAt + 0.6, 'idle again', POLL);
    expect(angle(idle, arm.quaternion), 'arm back down').to.be.lessThan(0.2);
  });

  it('opens the mouth where the face is when setMouth({aa: 1})', async () => {
    await stage.load(url('luna-001'));
    stage.setMouth({ aa: 0, ih: 0, ou: 0, ee: 0, oh: 0 });
    const closed = stage.capture();
    stage.setMouth({ aa: 1, ih: 0, ou: 0, ee: 0, oh: 0 });
    const open = stage.capture();
    const diff = changed(closed, open);
    expect(diff.count, 'changed pixels').to.be.greaterThan(30);
    // Only the mouth changed: below the eyes, above the shoulders.
    expect(diff.minY / open.height).to.be.greaterThan(0.3);
    expect(diff.maxY / open.height).to.be.lessThan(0.6);
  });

  it('pauses rendering while the container is off screen, and resumes', async () => {
    await stage.load(url('luna-001'));
    await waitUntil(() => stage.renderedFrames > 2, 'frames render', POLL);
    container.style.top = '-5000px';
    await waitUntil(() => !stage.rendering, 'paused', POLL);
    const frames = stage.renderedFrames;
    await new Promise((r) => setTimeout(r, 400));
    expect(stage.renderedFrames, 'no frames while off screen').to.equal(frames);
    container.style.top = '0px';
    await waitUntil(() => stage.renderedFrames > frames + 2, 'renders again on screen', POLL);
  });

  it('follows the container size', async () => {
    await stage.load(url('luna-001'));
    const before = stage.canvas.width;
    container.style.width = '320px';
    container.style.height = '480px';
    await waitUntil(() => stage.canvas.width !== before, 'canvas resized', POLL);
    expect(stage.canvas.width / stage.canvas.height).to.be.closeTo(320 / 480, 0.01);
  });

  it('dispose() stops the loop, loses the context and removes the canvas', async () => {
    await stage.load(url('luna-001'));
    await waitUntil(() => stage.renderedFrames > 2, 'frames render', POLL);
    const gl = stage.canvas.getContext('webgl2')!;
    stage.dispose();
    const frames = stage.renderedFrames;
    expect(stage.canvas.isConnected).to.equal(false);
    expect(gl.isContextLost()).to.equal(true);
    expect(stage.rendering).to.equal(false);
    await new Promise((r) => setTimeout(r, 200));
    expect(stage.renderedFrames).to.equal(frames);
  });
});

describe('AnimationBlender', () => {
  let container: HTMLDivElement;
  let stage: AvatarStage;
  let rig: HumanoidRig;

  before(async () => {
    container = makeContainer();
    stage = new AvatarStage({ container });
    await stage.load(url('atlas-002'));
    rig = new HumanoidRig(stage.vrm!.humanoid);
  });

  after(() => {
    stage.dispose();
    container.remove();
  });

  const snapshot = (p: Pose): Pose => {
    const out = createPose();
    for (const b of PosedBones) out.bones[b].copy(p.bones[b]);
    return out;
  };

  it('cross-fades over 300 ms on the clock it is given', () => {
    const blender = new AnimationBlender({ rig, seed: 1, random: () => 0.5 });
    const reference = new AnimationBlender({ rig, seed: 1, random: () => 0.5 });
    reference.setState('thinking');
    blender.update(10);
    const idle = snapshot(blender.update(10));
    blender.setState('thinking');
    expect(blender.animation).to.equal('thinking_chin');

    const start = snapshot(blender.update(10));
    expect(poseDistance(start, idle), 'no jump at the switch').to.be.lessThan(1e-6);
    const middle = snapshot(blender.update(10.15));
    const thinkingMid = snapshot(reference.update(10.15));
    expect(poseDistance(middle, idle)).to.be.greaterThan(0.05);
    expect(poseDistance(middle, thinkingMid)).to.be.greaterThan(0.05);
    const end = snapshot(blender.update(10.31));
    expect(poseDistance(end, snapshot(reference.update(10.31))), 'fully the thinking pose').to.be.lessThan(1e-6);
    expect(blender.fading).to.equal(false);
  });

  it('starts a new fade from the pose on screen when the state changes mid-fade', () => {
    const blender = new AnimationBlender({ rig, seed: 2, random: () => 0.5 });
    blender.update(0);
    blender.setState('thinking');
    blender.update(0);
    const mid = snapshot(blender.update(0.15));
    blender.setState('talking');
    const after = snapshot(blender.update(0.15));
    expect(poseDistance(after, mid)).to.be.lessThan(1e-6);
    expect(blender.animation).to.equal('talking_gestures');
  });

  it('uses the named animations and falls back to the default for unknown names', () => {
    const blender = new AnimationBlender({ rig, seed: 3 });
    blender.setAnimations({ idle: 'idle_sway', talking: 'talking_calm', thinking: 'thinking_look_up' });
    expect(blender.animation).to.equal('idle_sway');
    blender.setState('talking');
    expect(blender.animation).to.equal('talking_calm');
    blender.setState('thinking');
    expect(blender.animation).to.equal('thinking_look_up');
    blender.setAnimations({ idle: 'idle_sway', talking: 'talking_calm', thinking: 'no_such_animation' });
    expect(blender.animation).to.equal('thinking_chin');
  });

  it('every animation lowers the arms from the T-pose and moves over time', () => {
    const names = {
      idle: ['idle_breathing', 'idle_sway'],
      talking: ['talking_gestures', 'talking_calm'],
      thinking: ['thinking_chin', 'thinking_look_up'],
    } as const;
    for (const state of ['idle', 'talking', 'thinking'] as const) {
      for (const name of names[state]) {
        const blender = new AnimationBlender({ rig, seed: 4, random: () => 0.5, fadeSeconds: 0 });
        blender.setAnimations({ idle: 'idle_breathing', talking: 'talking_gestures', thinking: 'thinking_chin', [state]: name });
        blender.setState(state);
        const a = snapshot(blender.update(1));
        const b = snapshot(blender.update(2.3));
        expect(blender.animation).to.equal(name);
        // Left upper arm: T-pose is identity; lowered ≈ 1.2 rad.
        expect(a.bones.leftUpperArm.angleTo(new Quaternion()), `${name} arm lowered`).to.be.greaterThan(0.9);
        expect(poseDistance(a, b), `${name} moves`).to.be.greaterThan(0.005);
      }
    }
  });
});
