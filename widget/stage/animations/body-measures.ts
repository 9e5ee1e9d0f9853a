import { Box3, Vector3, type Bone, type Material, type Object3D, type SkinnedMesh } from 'three';
import type { VRM, VRMHumanBoneName } from '@pixiv/three-vrm';

/**
 * Sizes of the avatar's body the procedural animations need so that a pose fits any model: a
 * hand under the chin must stay outside the head whatever the head's shape, and arms hang beside
 * the torso whatever its width. Measured once per model on the rest pose (T-pose) from the
 * skinned vertices, in the model's axes (metres; +Y up, the model faces +Z, its left is +X).
 */
export interface BodyMeasures {
  /**
   * The head's volume relative to the head bone: face, skull, ears, and the part of the hair in
   * front of the face's middle (fringe, beard). Long hair behind or beside the head is left out.
   */
  readonly head: Box3;
  /** Longest distance from the wrist to a vertex of the hand (fingers straight). */
  readonly handLength: number;
  /** Angle (radians) from straight down at which the upper arms just clear the torso. */
  readonly armClearance: number;
  /** Whether the model has finger bones (VRM 1.0 `leftIndexProximal` …). */
  readonly fingers: boolean;
  /** How far the chest (clothes included) comes forward of the head bone (metres, +Z). */
  readonly chestFront: number;
}

/** What is assumed when a model has no skinned meshes to measure (tests with bare rigs). */
export const DefaultBodyMeasures: BodyMeasures = {
  head: new Box3(new Vector3(-0.09, -0.06, -0.1), new Vector3(0.09, 0.2, 0.11)),
  handLength: 0.17,
  armClearance: 0.12,
  fingers: false,
  chestFront: 0.12,
};

const HAIR = /hair/i;
/** How far below the chin hair still counts as the head's (a full beard). */
const BEARD_LENGTH = 0.07;
const TORSO: readonly VRMHumanBoneName[] = ['hips', 'spine', 'chest', 'upperChest'];

/** Measures `vrm`, which must be in its rest pose with world matrices up to date. */
export function measureBody(vrm: VRM): BodyMeasures {
  const humanoid = vrm.humanoid;
  const raw = (name: VRMHumanBoneName) => humanoid.getRawBoneNode(name) ?? undefined;
  const headBone = raw('head');
  const hand = raw('leftHand');
  const upperArm = raw('leftUpperArm');
  const lowerArm = raw('leftLowerArm');
  if (!headBone || !hand || !upperArm || !lowerArm) return DefaultBodyMeasures;

  const under = (root: Object3D) => {
    const set = new Set<Object3D>();
    root.traverse((o) => set.add(o));
    return set;
  };
  const headBones = under(headBone);
  const handBones = under(hand);
  const upperArmBones = new Set<Object3D>([upperArm]);
  const torsoBones = new Set<Object3D>(TORSO.map(raw).filter((b): b is Bone => b !== undefined) as Object3D[]);

  const headAt = headBone.getWorldPosition(new Vector3());
  const handAt = hand.getWorldPosition(new Vector3());
  const shoulderAt = upperArm.getWorldPosition(new Vector3());
  const elbowAt = lowerArm.getWorldPosition(new Vector3());

  const face = new Box3();
  const frontHair: Vector3[] = [];
  let handLength = 0;
  let armRadius = 0;
  let torsoHalfWidth = 0;
  let chestFront = -Infinity;
  const armAxis = new Vector3().subVectors(elbowAt, shoulderAt).normalize();
  // The upper arm hangs beside the chest and waist, above a skirt's flare: measure the torso there.
  const elbowLevel = shoulderAt.y - shoulderAt.distanceTo(elbowAt) - 0.03;
  const v = new Vector3();
  const rel = new Vector3();

  vrm.scene.traverse((object) => {
    const mesh = object as SkinnedMesh;
    if (!mesh.isSkinnedMesh || !mesh.skeleton) return;
    const position = mesh.geometry.getAttribute('position');
    const joints = mesh.geometry.getAttribute('skinIndex');
    const weights = mesh.geometry.getAttribute('skinWeight');
    if (!position || !joints || !weights) return;
    const groups = mesh.geometry.groups.length ? mesh.geometry.groups : [{ start: 0, count: Infinity, materialIndex: 0 }];
    const materials = Array.isArray(mesh.material) ? mesh.material : [mesh.material];
    const index = mesh.geometry.index;
    // Which vertices belong to a hair material (a primitive may share the mesh with others).
    const hairVertex = new Uint8Array(position.count);
    for (const group of groups) {
      const material: Material | undefined = materials[group.materialIndex ?? 0];
      if (!material || !HAIR.test(material.name)) continue;
      const end = Math.min(group.start + group.count, index ? index.count : position.count);
      for (let i = group.start; i < end; i++) hairVertex[index ? index.getX(i) : i] = 1;
    }
    for (let i = 0; i < position.count; i++) {
      let best = 0;
      let joint = 0;
      for (let k = 0; k < 4; k++) {
        const w = weights.getComponent(i, k);
        if (w > best) {
          best = w;
          joint = joints.getComponent(i, k);
        }
      }
      const bone = mesh.skeleton.bones[joint];
      if (!bone) continue;
      v.fromBufferAttribute(position, i).applyMatrix4(mesh.matrixWorld);
      if (headBones.has(bone)) {
        rel.subVectors(v, headAt);
        if (!hairVertex[i]) face.expandByPoint(rel);
        else if (rel.z > 0.05) frontHair.push(rel.clone());
      } else if (handBones.has(bone)) {
        handLength = Math.max(handLength, v.distanceTo(handAt));
      } else if (upperArmBones.has(bone)) {
        rel.subVectors(v, shoulderAt);
        armRadius = Math.max(armRadius, rel.addScaledVector(armAxis, -rel.dot(armAxis)).length());
      } else if (torsoBones.has(bone) && v.y < shoulderAt.y - 0.08 && v.y > elbowLevel && !hairVertex[i]) {
        torsoHalfWidth = Math.max(torsoHalfWidth, Math.abs(v.x - headAt.x));
        chestFront = Math.max(chestFront, v.z - headAt.z);
      }
    }
  });
  if (face.isEmpty()) return DefaultBodyMeasures;
  // Fringe and beard: hair in front of the face, across its middle half, down to a beard's length
  // below the chin (locks falling beside the face onto the chest are not the head).
  const beardBottom = face.min.y - BEARD_LENGTH;
  const middle = (face.min.x + face.max.x) / 2;
  const quarter = (face.max.x - face.min.x) / 4;
  for (const p of frontHair) if (Math.abs(p.x - middle) <= quarter && p.y >= beardBottom) face.expandByPoint(p);

  const upperArmLength = shoulderAt.distanceTo(elbowAt);
  // The arm hangs at the angle where its inner side meets the torso's outer side, plus 1 cm.
  const clearance = (torsoHalfWidth + armRadius + 0.01 - Math.abs(shoulderAt.x - headAt.x)) / Math.max(0.05, upperArmLength);
  return {
    head: face,
    handLength: handLength > 0 ? handLength : DefaultBodyMeasures.handLength,
    armClearance: Math.max(0.05, Math.min(0.35, Math.asin(Math.max(0, Math.min(1, clearance))))),
    fingers: humanoid.getNormalizedBoneNode('leftIndexProximal') != null,
    chestFront: Number.isFinite(chestFront) ? chestFront : DefaultBodyMeasures.chestFront,
  };
}
