// Browser side of the preview renderer: loads VRM files with three + three-vrm and renders them.
// The Node script calls window.renderAvatars(request) and receives PNG data URLs.
//
// Portraits (the picker's previews) and stage reviews are rendered by the widget's own
// AvatarStage (bundled by render-previews.mjs as /stage.js): its framing, lighting, colour
// management, idle pose and eye contact, on a transparent background. The lineup and face
// close-ups are review tools with their own cameras, lit and colour-managed like the stage.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, VRMUtils } from '@pixiv/three-vrm';
import { AvatarStage, addStageLighting, applyStageRendering } from '/stage.js';

/** Fixed seed of the stage's procedural motion: previews are the same on every run. */
const SEED = 7;

async function loadVrm(url) {
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  const gltf = await loader.loadAsync(url);
  const vrm = gltf.userData.vrm;
  VRMUtils.rotateVRM0(vrm);
  return vrm;
}

/** Standing at ease for the lineup: arms down beside the body, as the stage's idle has them. */
function pose(vrm) {
  const h = vrm.humanoid;
  const set = (name, x, y, z) => {
    const n = h.getNormalizedBoneNode(name);
    if (n) n.rotation.set(x, y, z);
  };
  set('leftUpperArm', 0, 0, -1.4);
  set('rightUpperArm', 0, 0, 1.4);
  set('leftLowerArm', 0, -0.2, 0);
  set('rightLowerArm', 0, 0.2, 0);
}

/** ImageData from the stage (premultiplied alpha, as WebGL stores it) → PNG data URL. */
function toPng(image) {
  const data = image.data;
  for (let i = 0; i < data.length; i += 4) {
    const a = data[i + 3];
    if (a === 0 || a === 255) continue;
    for (let c = 0; c < 3; c++) data[i + c] = Math.min(255, Math.round((data[i + c] * 255) / a));
  }
  const canvas = document.createElement('canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  canvas.getContext('2d').putImageData(image, 0, 0);
  return canvas.toDataURL('image/png');
}

/** The live stage at `seconds` in `state` (idle for portraits), optionally showing an emotion. */
async function renderStage({ ids, width, height, state = 'idle', seconds = 0, emotion }) {
  const container = document.createElement('div');
  container.className = 'stage';
  container.style.width = `${width}px`;
  container.style.height = `${height}px`;
  document.body.appendChild(container);
  const stage = new AvatarStage({ container, maxPixelRatio: 1, seed: SEED });
  try {
    await stage.load(`/assets/avatars/${ids[0]}.vrm`);
    stage.setState(state);
    if (emotion) stage.setEmotion(emotion);
    // The stage steps frame by frame, as the live loop does: fades, emotions and springs settle as on screen.
    stage.advance(seconds);
    return toPng(stage.capture());
  } finally {
    stage.dispose();
    container.remove();
  }
}

/**
 * request: { mode: 'portrait' | 'stage' | 'lineup' | 'face', ids: string[], expression?: string, width, height }
 * returns: data URL (PNG)
 */
window.renderAvatars = async (request) => {
  const { mode, ids, width, height } = request;
  if (mode === 'portrait' || mode === 'stage') return renderStage(request);
  const renderer = new THREE.WebGLRenderer({ antialias: true, alpha: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setSize(width, height);
  applyStageRendering(renderer);
  document.body.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  addStageLighting(scene);
  const vrms = [];
  for (const id of ids) vrms.push(await loadVrm(`/assets/avatars/${id}.vrm`));
  const camera = new THREE.PerspectiveCamera(mode === 'lineup' ? 28 : 24, width / height, 0.05, 50);
  if (mode === 'lineup') {
    scene.background = new THREE.Color(0xe9edf2);
    vrms.forEach((vrm, i) => {
      vrm.scene.position.x = (i - (vrms.length - 1) / 2) * 0.85;
      pose(vrm);
      scene.add(vrm.scene);
      vrm.update(0);
    });
    camera.position.set(0, 1.1, 6.2);
    camera.lookAt(0, 0.9, 0);
  } else {
    const vrm = vrms[0];
    scene.background = new THREE.Color(0xe9edf2);
    pose(vrm);
    if (request.expression) vrm.expressionManager.setValue(request.expression, request.weight ?? 1);
    scene.add(vrm.scene);
    vrm.update(0);
    const head = new THREE.Vector3();
    vrm.humanoid.getNormalizedBoneNode('head').getWorldPosition(head);
    camera.position.set(head.x, head.y + 0.1, head.z + 0.75);
    camera.lookAt(head.x, head.y + 0.09, head.z);
  }
  renderer.render(scene, camera);
  const url = renderer.domElement.toDataURL('image/png');
  renderer.dispose();
  renderer.domElement.remove();
  return url;
};
window.previewReady = true;
