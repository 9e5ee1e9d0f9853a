import { VRMLoaderPlugin, VRMUtils, type VRM } from '@pixiv/three-vrm';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

export interface LoadVrmOptions {
  /** Download progress 0…1 (only 1 at the end when the size is unknown). */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

/**
 * Downloads and parses a VRM. The bytes are fetched here (not by GLTFLoader) so that the download
 * reports real progress and can be aborted; the model is then slimmed for rendering (unused
 * vertices dropped, skeletons combined into one per mesh group).
 */
export async function loadVrm(url: string, options: LoadVrmOptions = {}): Promise<VRM> {
  const { onProgress, signal } = options;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const response = await doFetch(url, signal ? { signal } : {});
  if (!response.ok) throw new Error(`avatar model ${url}: HTTP ${response.status}`);
  const total = Number(response.headers.get('content-length')) || 0;
  let bytes: ArrayBuffer;
  if (response.body && onProgress) {
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.length;
      // Content-Length is the encoded size; a compressed response may decode to more.
      if (total > 0) onProgress(Math.min(0.99, received / total));
    }
    const data = new Uint8Array(received);
    let offset = 0;
    for (const c of chunks) {
      data.set(c, offset);
      offset += c.length;
    }
    bytes = data.buffer;
  } else {
    bytes = await response.arrayBuffer();
  }
  return finish(bytes, url, onProgress, signal);
}

async function finish(bytes: ArrayBuffer, url: string, onProgress: ((f: number) => void) | undefined, signal: AbortSignal | undefined): Promise<VRM> {
  signal?.throwIfAborted();
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  const base = new URL('.', new URL(url, location.href)).href;
  const gltf = await loader.parseAsync(bytes, base);
  const vrm = gltf.userData['vrm'] as VRM | undefined;
  if (!vrm) {
    VRMUtils.deepDispose(gltf.scene);
    throw new Error(`avatar model ${url}: not a VRM file`);
  }
  if (signal?.aborted) {
    VRMUtils.deepDispose(vrm.scene);
    signal.throwIfAborted();
  }
  VRMUtils.removeUnnecessaryVertices(vrm.scene);
  VRMUtils.combineSkeletons(vrm.scene);
  // Skinned meshes move away from their bind-pose bounds; never cull the avatar.
  vrm.scene.traverse((o) => {
    o.frustumCulled = false;
  });
  onProgress?.(1);
  return vrm;
}
