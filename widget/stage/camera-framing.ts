import { Box3, Vector3, type PerspectiveCamera } from 'three';
import type { VRM } from '@pixiv/three-vrm';

/** The part of the avatar the camera keeps in view, in the model's space (metres). */
export interface FramingBox {
  readonly centerX: number;
  readonly bottom: number;
  readonly top: number;
  readonly halfWidth: number;
  /** Depth of the face plane (the camera distance is measured from here). */
  readonly front: number;
}

/** How far the frame reaches below the shoulders, in head-to-shoulder distances. */
export const FRAME_BELOW_SHOULDERS = 2;

/**
 * Head, shoulders and upper chest: from two head-to-shoulder distances below the shoulders (where
 * the talking gestures happen) to just above the hair, the shoulders'
 * width. Measured on the rest pose from the humanoid bones and the meshes' bounds, so it fits
 * tall, short and big-haired avatars alike.
 */
export function headAndShouldersBox(vrm: VRM): FramingBox {
  const humanoid = vrm.humanoid;
  vrm.scene.updateMatrixWorld(true);
  const head = new Vector3();
  const shoulder = new Vector3();
  humanoid.getNormalizedBoneNode('head')!.getWorldPosition(head);
  const arm = humanoid.getNormalizedBoneNode('leftUpperArm') ?? humanoid.getNormalizedBoneNode('head')!;
  arm.getWorldPosition(shoulder);
  const bounds = new Box3().setFromObject(vrm.scene, false);
  const top = Number.isFinite(bounds.max.y) && bounds.max.y > head.y ? Math.min(bounds.max.y, head.y + 0.45) : head.y + 0.25;
  // Two head-to-shoulder units below the shoulders: the upper chest, where the talking gestures
  // happen (`talking-gestures.ts` keeps the hands above this line).
  const bottom = shoulder.y - (head.y - shoulder.y) * FRAME_BELOW_SHOULDERS;
  const halfWidth = Math.max(0.2, Math.abs(shoulder.x - head.x) * 1.45);
  return { centerX: head.x, bottom, top: top + 0.03, halfWidth, front: head.z + 0.1 };
}

/** Places a perspective camera so `box` fills the view for the camera's aspect, looking slightly down. */
export function frameCamera(camera: PerspectiveCamera, box: FramingBox): void {
  const tan = Math.tan((camera.fov * Math.PI) / 360);
  const height = box.top - box.bottom;
  const distance = Math.max(height / 2 / tan, box.halfWidth / (tan * Math.max(0.01, camera.aspect)));
  const centerY = (box.top + box.bottom) / 2;
  camera.position.set(box.centerX, centerY + distance * 0.06, box.front + distance);
  camera.lookAt(box.centerX, centerY, box.front);
  camera.near = Math.max(0.01, distance * 0.1);
  camera.far = distance * 10 + 10;
  camera.updateProjectionMatrix();
}
