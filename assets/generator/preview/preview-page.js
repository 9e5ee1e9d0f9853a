// Browser side of the preview renderer: loads VRM files with three + three-vrm and renders them.
// The Node script calls window.renderAvatars(request) and receives PNG data URLs.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, VRMUtils } from '@pixiv/three-vrm';

/** Soft backdrop per avatar so previews read as a set but stay distinguishable. */
const BACKDROPS = {
  'luna-001': ['#fff3df', '#f6d3b0'],
  'atlas-002': ['#e4edf7', '#b9cbe0'],
  'sofia-003': ['#f7e6ea', '#dcb3bf'],
  'kenji-004': ['#fff0e0', '#f5c59a'],
  'maya-005': ['#eaf3ea', '#bfd8c3'],
  'orion-006': ['#f3ede2', '#d6c6a8'],
};

function backdrop(id) {
  const [top, bottom] = BACKDROPS[id] ?? ['#eef2f7', '#cfd8e3'];
  const c = document.createElement('canvas');
  c.width = 4;
  c.height = 256;
  const g = c.getContext('2d');
  const grad = g.createLinearGradient(0, 0, 0, 256);
  grad.addColorStop(0, top);
  grad.addColorStop(1, bottom);
  g.fillStyle = grad;
  g.fillRect(0, 0, 4, 256);
  const tex = new THREE.CanvasTexture(c);
  tex.colorSpace = THREE.SRGBColorSpace;
  return tex;
}

async function loadVrm(url) {
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  const gltf = await loader.loadAsync(url);
  const vrm = gltf.userData.vrm;
  VRMUtils.rotateVRM0(vrm);
  return vrm;
}

/** Relaxed standing pose: arms down, a slight bend at the elbows, head a touch tilted. */
function pose(vrm, variant) {
  const h = vrm.humanoid;
  const set = (name, x, y, z) => {
    const n = h.getNormalizedBoneNode(name);
    if (n) n.rotation.set(x, y, z);
  };
  set('leftUpperArm', 0, 0, -1.2);
  set('rightUpperArm', 0, 0, 1.2);
  set('leftLowerArm', 0, -0.25, 0);
  set('rightLowerArm', 0, 0.25, 0);
  set('leftHand', 0, 0, 0.1);
  set('rightHand', 0, 0, -0.1);
  set('head', 0.03, variant === 'portrait' ? 0.12 : 0, variant === 'portrait' ? -0.04 : 0);
  set('neck', 0.02, 0, 0);
}

function makeRenderer(width, height) {
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setSize(width, height);
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  document.body.appendChild(renderer.domElement);
  return renderer;
}

function lights(scene) {
  const key = new THREE.DirectionalLight(0xffffff, 1.9);
  key.position.set(-1.2, 2.2, 2.5);
  scene.add(key);
  scene.add(new THREE.AmbientLight(0xffffff, 0.6));
}

/**
 * request: { mode: 'portrait' | 'lineup' | 'face', ids: string[], expression?: string, width, height }
 * returns: data URL (PNG)
 */
window.renderAvatars = async (request) => {
  const { mode, ids, width, height } = request;
  const renderer = makeRenderer(width, height);
  const scene = new THREE.Scene();
  lights(scene);
  const vrms = [];
  for (const id of ids) vrms.push(await loadVrm(`/assets/avatars/${id}.vrm`));
  const camera = new THREE.PerspectiveCamera(mode === 'lineup' ? 28 : 24, width / height, 0.05, 50);
  if (mode === 'lineup') {
    scene.background = backdrop('');
    vrms.forEach((vrm, i) => {
      vrm.scene.position.x = (i - (vrms.length - 1) / 2) * 0.85;
      pose(vrm, 'full');
      scene.add(vrm.scene);
      vrm.update(0);
    });
    camera.position.set(0, 1.1, 6.2);
    camera.lookAt(0, 0.9, 0);
  } else {
    const vrm = vrms[0];
    scene.background = backdrop(ids[0]);
    pose(vrm, mode === 'face' ? 'face' : 'portrait');
    if (request.expression) vrm.expressionManager.setValue(request.expression, request.weight ?? 1);
    scene.add(vrm.scene);
    vrm.update(0);
    const head = new THREE.Vector3();
    vrm.humanoid.getNormalizedBoneNode('head').getWorldPosition(head);
    if (mode === 'face') {
      camera.position.set(head.x, head.y + 0.1, head.z + 0.75);
      camera.lookAt(head.x, head.y + 0.09, head.z);
    } else {
      camera.position.set(head.x + 0.14, head.y + 0.1, head.z + 1.25);
      camera.lookAt(head.x, head.y + 0.02, head.z);
    }
  }
  renderer.render(scene, camera);
  const url = renderer.domElement.toDataURL('image/png');
  renderer.dispose();
  renderer.domElement.remove();
  return url;
};
window.previewReady = true;
