import { expect } from '@open-wc/testing';
import { Box3, Vector3, type Material, type Object3D, type SkinnedMesh } from 'three';
import type { VRM } from '@pixiv/three-vrm';
import { AvatarStage } from '../../widget/stage/avatar-stage.js';

/**
 * The stage's motion on every avatar, measured on the skinned vertices as drawn: the hand under
 * the chin while thinking stays outside the head, the talking gestures stay inside the frame,
 * the idle arms hang beside the body, the eyes follow the camera, and the calm (reduced-motion)
 * set never leaves a hand half cut by the frame.
 */

const IDS = ['luna-001', 'atlas-002', 'sofia-003', 'kenji-004', 'maya-005', 'orion-006'] as const;
const url = (id: string) => `/assets/avatars/${id}.vrm`;

function makeContainer(width = 300, height = 400): HTMLDivElement {
  const el = document.createElement('div');
  el.style.cssText = `position:fixed;left:0;top:0;width:${width}px;height:${height}px`;
  document.body.appendChild(el);
  return el;
}

/** World positions of the skinned vertices whose strongest joint is under `root`, as last drawn. */
function skinnedVertices(vrm: VRM, root: Object3D, keep: (material: Material) => boolean = () => true): Vector3[] {
  const bones = new Set<Object3D>();
  root.traverse((o) => bones.add(o));
  const out: Vector3[] = [];
  vrm.scene.traverse((object) => {
    const mesh = object as SkinnedMesh;
    if (!mesh.isSkinnedMesh) return;
    const geometry = mesh.geometry;
    const joints = geometry.getAttribute('skinIndex');
    const weights = geometry.getAttribute('skinWeight');
    const materials = Array.isArray(mesh.material) ? mesh.material : [mesh.material];
    const groups = geometry.groups.length ? geometry.groups : [{ start: 0, count: Infinity, materialIndex: 0 }];
    const index = geometry.index;
    const count = geometry.getAttribute('position').count;
    const kept = new Uint8Array(count);
    for (const group of groups) {
      if (!keep(materials[group.materialIndex ?? 0]!)) continue;
      const end = Math.min(group.start + group.count, index ? index.count : count);
      for (let i = group.start; i < end; i++) kept[index ? index.getX(i) : i] = 1;
    }
    for (let i = 0; i < count; i++) {
      if (!kept[i]) continue;
      let best = 0;
      let joint = 0;
      for (let k = 0; k < 4; k++) {
        if (weights.getComponent(i, k) > best) {
          best = weights.getComponent(i, k);
          joint = joints.getComponent(i, k);
        }
      }
      if (!bones.has(mesh.skeleton.bones[joint]!)) continue;
      out.push(mesh.getVertexPosition(i, new Vector3()).applyMatrix4(mesh.matrixWorld));
    }
  });
  return out;
}

const notHair = (m: Material) => !/hair/i.test(m.name);

function handVertices(vrm: VRM): Vector3[] {
  return ['leftHand', 'rightHand'].flatMap((b) => skinnedVertices(vrm, vrm.humanoid.getRawBoneNode(b as 'leftHand')!));
}

describe('Stage motion on every avatar', function () {
  this.timeout(120000);
  let container: HTMLDivElement;
  let stage: AvatarStage;

  beforeEach(() => {
    container = makeContainer();
    stage = new AvatarStage({ container, maxPixelRatio: 1, seed: 5 });
  });
  afterEach(() => {
    stage.dispose();
    container.remove();
  });

  for (const id of IDS) {
    it(`${id}: thinking keeps the hand outside the head, talking keeps the hands in the frame, idle arms hang beside the body`, async () => {
      await stage.load(url(id));
      const vrm = stage.vrm!;

      // Idle: the upper arms hang within 12° of vertical, yet not inside the torso (≥ 2°).
      stage.advance(1);
      stage.capture();
      for (const side of ['left', 'right'] as const) {
        const shoulder = vrm.humanoid.getRawBoneNode(`${side}UpperArm`)!.getWorldPosition(new Vector3());
        const elbow = vrm.humanoid.getRawBoneNode(`${side}LowerArm`)!.getWorldPosition(new Vector3());
        const fromVertical = (Math.acos((shoulder.y - elbow.y) / shoulder.distanceTo(elbow)) * 180) / Math.PI;
        console.log(id, side, 'arm from vertical', fromVertical.toFixed(1));
        expect(fromVertical, `${id} ${side} upper arm from vertical (°)`).to.be.within(2, 12);
      }

      // Eye contact while idle: the gaze follows the camera (here moved 0.3 m aside and 0.15 m
      // up, ≈ 10° off the face's axis), give or take the small saccades.
      const camera = stage.camera;
      const home = camera.position.clone();
      camera.position.x += 0.3;
      camera.position.y += 0.15;
      camera.updateMatrixWorld();
      stage.capture();
      const eyes = vrm.lookAt!.getLookAtWorldPosition(new Vector3());
      const toCamera = camera.getWorldPosition(new Vector3()).sub(eyes).normalize();
      const gaze = vrm.lookAt!.getLookAtWorldDirection(new Vector3());
      const offCamera = (gaze.angleTo(toCamera) * 180) / Math.PI;
      const faceAxis = (new Vector3(0, 0, 1).angleTo(toCamera) * 180) / Math.PI;
      console.log(id, 'idle gaze off the camera (°)', offCamera.toFixed(1), 'camera off the face axis (°)', faceAxis.toFixed(1));
      expect(offCamera, `${id} idle gaze off the camera (°)`).to.be.lessThan(5);
      camera.position.copy(home);
      camera.updateMatrixWorld();

      // Thinking, over several seconds after the cross-fade: no hand vertex inside the head's box.
      stage.setState('thinking');
      for (let t = 0; t < 4; t += 1 / 30) {
        stage.advance(1 / 30);
        if (t < 0.6 || Math.round(t * 30) % 10 !== 0) continue;
        stage.capture();
        const head = new Box3().setFromPoints(skinnedVertices(vrm, vrm.humanoid.getRawBoneNode('head')!, notHair));
        const inside = handVertices(vrm).filter((p) => head.containsPoint(p));
        const gap = Math.min(...handVertices(vrm).map((p) => head.distanceToPoint(p)));
        if (Math.round(t * 30) % 30 === 0) console.log(id, 'thinking t', t.toFixed(1), 'hand–head gap (m)', gap.toFixed(3));
        expect(inside.length, `${id} thinking at ${t.toFixed(2)} s: hand vertices inside the head`).to.equal(0);
      }

      // Talking, over three gesture phrases after the fade: every hand vertex that is drawn is
      // inside the frame (no hand half cut by the bottom edge); at least one hand is seen.
      stage.setState('talking');
      let seen = 0;
      let worst = { y: Infinity, t: 0 };
      for (let t = 0; t < 7.2; t += 1 / 30) {
        stage.advance(1 / 30);
        if (t < 0.6 || Math.round(t * 30) % 6 !== 0) continue;
        stage.capture();
        const ndc = handVertices(vrm).map((p) => p.clone().project(stage.camera));
        const inFrame = ndc.filter((p) => Math.abs(p.x) <= 1 && Math.abs(p.y) <= 1).length;
        const lowest = Math.min(...ndc.map((p) => p.y));
        seen += inFrame > 0 ? 1 : 0;
        if (lowest < worst.y) worst = { y: lowest, t };
      }
      console.log(id, 'talking: lowest hand vertex NDC y', worst.y.toFixed(3), 'at', worst.t.toFixed(2), 's');
      expect(worst.y, `${id} talking at ${worst.t.toFixed(2)} s: lowest hand vertex (NDC y)`).to.be.greaterThan(-0.98);
      expect(seen, `${id}: samples with a hand in view`).to.be.greaterThan(0);

      // Reduced motion (calm talking, thinking eyes up): no hand half in the frame either.
      stage.setAnimations({ idle: 'idle_breathing', talking: 'talking_calm', thinking: 'thinking_look_up' });
      for (let t = 0; t < 4; t += 1 / 30) {
        stage.advance(1 / 30);
        if (t < 0.6 || Math.round(t * 30) % 15 !== 0) continue;
        stage.capture();
        const ndc = handVertices(vrm).map((p) => p.clone().project(stage.camera));
        const highest = Math.max(...ndc.map((p) => p.y));
        const lowest = Math.min(...ndc.map((p) => p.y));
        expect(highest < -1 || lowest > -0.98, `${id} calm talking at ${t.toFixed(2)} s: hands cut by the frame's edge (NDC y ${lowest.toFixed(2)}…${highest.toFixed(2)})`).to.equal(true);
      }
    });
  }
});
