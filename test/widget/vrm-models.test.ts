import { expect } from '@open-wc/testing';
import { VRMLoaderPlugin, type VRM } from '@pixiv/three-vrm';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

const IDS = ['luna-001', 'atlas-002', 'sofia-003', 'kenji-004', 'maya-005', 'orion-006'] as const;
const SIZE = 256;

async function loadVrm(id: string): Promise<VRM> {
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  const gltf = await loader.loadAsync(`/assets/avatars/${id}.vrm`);
  const vrm = gltf.userData.vrm as VRM | undefined;
  if (!vrm) throw new Error(`${id}: not loaded as VRM`);
  return vrm;
}

/** Renders into an offscreen target and returns RGBA pixels (so no canvas state leaks between tests). */
function renderPixels(renderer: THREE.WebGLRenderer, scene: THREE.Scene, camera: THREE.Camera): Uint8Array {
  const target = new THREE.WebGLRenderTarget(SIZE, SIZE);
  renderer.setRenderTarget(target);
  renderer.render(scene, camera);
  const pixels = new Uint8Array(SIZE * SIZE * 4);
  renderer.readRenderTargetPixels(target, 0, 0, SIZE, SIZE, pixels);
  renderer.setRenderTarget(null);
  target.dispose();
  return pixels;
}

/** Number of pixels inside the box (x0..x1, y0..y1 in render-target coordinates) that differ. */
function changedPixels(a: Uint8Array, b: Uint8Array, box?: { x0: number; x1: number; y0: number; y1: number }): number {
  let n = 0;
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      if (box && (x < box.x0 || x > box.x1 || y < box.y0 || y > box.y1)) continue;
      const i = (y * SIZE + x) * 4;
      if (Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!) > 24) n++;
    }
  }
  return n;
}

describe('generated VRM models in three-vrm', () => {
  let renderer: THREE.WebGLRenderer;

  before(() => {
    renderer = new THREE.WebGLRenderer({ antialias: false });
    renderer.setSize(SIZE, SIZE);
  });

  after(() => renderer.dispose());

  for (const id of IDS) {
    describe(id, () => {
      let vrm: VRM;
      let scene: THREE.Scene;
      let camera: THREE.PerspectiveCamera;
      let head: THREE.Vector3;

      before(async () => {
        vrm = await loadVrm(id);
        scene = new THREE.Scene();
        scene.background = new THREE.Color(0xdde4ee);
        scene.add(new THREE.AmbientLight(0xffffff, 0.7));
        const light = new THREE.DirectionalLight(0xffffff, 1.8);
        light.position.set(-1, 2, 3);
        scene.add(light);
        scene.add(vrm.scene);
        vrm.update(0);
        head = new THREE.Vector3();
        vrm.humanoid.getNormalizedBoneNode('head')!.getWorldPosition(head);
        camera = new THREE.PerspectiveCamera(30, 1, 0.05, 20);
      });

      after(() => {
        scene.remove(vrm.scene);
        vrm.scene.traverse((o) => {
          const mesh = o as THREE.Mesh;
          if (mesh.isMesh) {
            mesh.geometry.dispose();
            for (const m of [mesh.material].flat()) m.dispose();
          }
        });
      });

      it('exposes the humanoid, expressions and lookAt', () => {
        expect(vrm.humanoid.getNormalizedBoneNode('hips')).to.not.equal(null);
        expect(vrm.humanoid.getNormalizedBoneNode('leftUpperArm')).to.not.equal(null);
        expect(vrm.expressionManager).to.not.equal(undefined);
        for (const name of ['aa', 'ih', 'ou', 'ee', 'oh', 'blink', 'happy', 'sad', 'angry', 'surprised', 'relaxed', 'neutral']) {
          expect(vrm.expressionManager!.getExpression(name), name).to.not.equal(null);
        }
        expect(vrm.lookAt).to.not.equal(null);
      });

      it('opens the mouth when "aa" is set', () => {
        camera.position.set(head.x, head.y + 0.1, head.z + 0.8);
        camera.lookAt(head.x, head.y + 0.08, head.z);
        camera.updateMatrixWorld();
        const em = vrm.expressionManager!;
        em.setValue('aa', 0);
        vrm.update(0);
        const before = renderPixels(renderer, scene, camera);
        em.setValue('aa', 1);
        vrm.update(0);
        const after = renderPixels(renderer, scene, camera);
        em.setValue('aa', 0);
        vrm.update(0);
        // The mouth sits a little above the head bone (at the chin), on the front of the face.
        const mouth = new THREE.Vector3(head.x, head.y + 0.04, head.z + 0.1).project(camera);
        const cx = Math.round((mouth.x * 0.5 + 0.5) * SIZE);
        const cy = Math.round((mouth.y * 0.5 + 0.5) * SIZE);
        const inMouth = changedPixels(before, after, { x0: cx - 30, x1: cx + 30, y0: cy - 30, y1: cy + 30 });
        const total = changedPixels(before, after);
        expect(inMouth, 'changed pixels around the mouth').to.be.greaterThan(40);
        expect(inMouth / total, 'changes concentrate on the mouth').to.be.greaterThan(0.8);
      });

      it('deforms the skinned mesh when the left upper arm rotates', () => {
        camera.position.set(0, 1.0, 4.2);
        camera.lookAt(0, 0.95, 0);
        camera.updateMatrixWorld();
        const skinned: THREE.SkinnedMesh[] = [];
        vrm.scene.traverse((o) => {
          if ((o as THREE.SkinnedMesh).isSkinnedMesh) skinned.push(o as THREE.SkinnedMesh);
        });
        expect(skinned.length).to.be.greaterThan(0);
        const body = skinned[0]!;
        const sample = (): THREE.Vector3[] => {
          body.skeleton.update();
          const out: THREE.Vector3[] = [];
          const count = body.geometry.getAttribute('position').count;
          for (let i = 0; i < count; i += 7) out.push(body.getVertexPosition(i, new THREE.Vector3()));
          return out;
        };
        const bone = vrm.humanoid.getNormalizedBoneNode('leftUpperArm')!;
        vrm.update(0);
        const restPixels = renderPixels(renderer, scene, camera);
        const rest = sample();
        bone.rotation.set(0, 0, -1.2);
        vrm.update(0);
        const posedPixels = renderPixels(renderer, scene, camera);
        const posed = sample();
        bone.rotation.set(0, 0, 0);
        vrm.update(0);
        const moved = rest.filter((p, i) => p.distanceTo(posed[i]!) > 0.05).length;
        expect(moved, 'vertices moved by more than 5 cm').to.be.greaterThan(20);
        // Vertices on the model's right side (−X) stay put.
        const rightSideMoved = rest.filter((p, i) => p.x < -0.05 && p.distanceTo(posed[i]!) > 0.001).length;
        expect(rightSideMoved).to.equal(0);
        expect(changedPixels(restPixels, posedPixels)).to.be.greaterThan(200);
      });
    });
  }
});
