import { Quaternion, Vector3, type Object3D } from 'three';
import type { VRMHumanBoneName, VRMHumanoid } from '@pixiv/three-vrm';
import { PosedBones, type Pose, type PosedBone } from './pose.js';

interface RigBone {
  readonly node: Object3D;
  /** Nearest posed ancestor, if any. */
  readonly parent: PosedBone | undefined;
  /** Rest offset from that ancestor, in the normalized rig (world-aligned axes at rest). */
  readonly offset: Vector3;
}

/**
 * The avatar's normalized humanoid as the animations see it: which posed bones exist, their rest
 * offsets (for forward kinematics, e.g. the IK of a hand to the chin), and how to write a pose.
 *
 * three-vrm's normalized bones have identity rest rotations with world-aligned axes (the model
 * faces +Z, its left is +X), so a pose is simply a set of local rotations from the T-pose.
 */
export class HumanoidRig {
  readonly #bones = new Map<PosedBone, RigBone>();
  readonly #humanoid: VRMHumanoid;

  constructor(humanoid: VRMHumanoid) {
    this.#humanoid = humanoid;
    const nodes = new Map<Object3D, PosedBone>();
    for (const name of PosedBones) {
      const node = humanoid.getNormalizedBoneNode(name as VRMHumanBoneName);
      if (node) nodes.set(node, name);
    }
    for (const [node, name] of nodes) {
      // Rest offset to the nearest posed ancestor: sum of local positions up the chain.
      const offset = node.position.clone();
      let up = node.parent;
      while (up && !nodes.has(up) && up !== humanoid.normalizedHumanBonesRoot) {
        offset.add(up.position);
        up = up.parent;
      }
      this.#bones.set(name, { node, parent: up ? nodes.get(up) : undefined, offset });
    }
  }

  has(bone: PosedBone): boolean {
    return this.#bones.has(bone);
  }

  /** Rest offset of `bone` from its posed parent (zero for a missing bone). */
  restOffset(bone: PosedBone, out = new Vector3()): Vector3 {
    const b = this.#bones.get(bone);
    return b ? out.copy(b.offset) : out.set(0, 0, 0);
  }

  /** The nearest existing posed ancestor of `bone`. */
  parentOf(bone: PosedBone): PosedBone | undefined {
    return this.#bones.get(bone)?.parent;
  }

  /**
   * Forward kinematics: where `bone` is and how it is turned in the model's space under `pose`.
   * Missing optional bones (e.g. no `upperChest`) are skipped, as in the model itself.
   */
  worldTransform(pose: Pose, bone: PosedBone, position = new Vector3(), rotation = new Quaternion()): { position: Vector3; rotation: Quaternion } {
    const chain: PosedBone[] = [];
    for (let b: PosedBone | undefined = bone; b; b = this.#bones.get(b)?.parent) chain.push(b);
    position.set(0, 0, 0);
    rotation.identity();
    const step = new Vector3();
    for (let i = chain.length - 1; i >= 0; i--) {
      const b = this.#bones.get(chain[i]!)!;
      position.add(step.copy(b.offset).applyQuaternion(rotation));
      rotation.multiply(pose.bones[chain[i]!]);
    }
    return { position, rotation };
  }

  /** Writes `pose` to the normalized bones (three-vrm copies them to the raw skeleton on update). */
  apply(pose: Pose): void {
    for (const [name, b] of this.#bones) b.node.quaternion.copy(pose.bones[name]);
  }

  /** The T-pose. */
  reset(): void {
    this.#humanoid.resetNormalizedPose();
  }
}
