import { Matrix4, Vector3, type Material, type Object3D, type SkinnedMesh } from 'three';
import type { VRM, VRMHumanBoneName } from '@pixiv/three-vrm';
import type { AnimationContext, AnimationFactory } from '../../../widget/stage/animations/avatar-animation.js';
import { measureBody, type BodyMeasures } from '../../../widget/stage/animations/body-measures.js';
import { HumanoidRig } from '../../../widget/stage/animations/humanoid-rig.js';
import { createPose, resetPose, type Pose } from '../../../widget/stage/animations/pose.js';

/** The humanoid bones a hand is made of (VRM 1.0 names): the hand and its finger bones. */
const FINGERS = ['Thumb', 'Index', 'Middle', 'Ring', 'Little'] as const;
export function isHandBone(name: string): boolean {
  return /^(left|right)Hand$/.test(name) || FINGERS.some((f) => name.includes(f));
}
/** Bones that move the head as one piece (the optional `jaw` and eye bones ride on it). */
const HEAD_BONES = new Set(['head', 'jaw', 'leftEye', 'rightEye']);

/** One skinned mesh primitive of the avatar and the name of its surface material (`<part>-mtoon`). */
export interface ArtPrimitive {
  readonly mesh: SkinnedMesh;
  readonly material: string;
}

/** Vertices of one primitive picked by a rule (indices into its geometry). */
export interface VertexSet {
  readonly primitive: ArtPrimitive;
  readonly indices: readonly number[];
}

/**
 * A loaded VRM as the art test handles it: the widget's own rig and animations pose it at fixed
 * times (no wall clock), expressions are set by preset name, and its vertices are skinned on
 * the CPU (`SkinnedMesh.getVertexPosition`, morph targets included) to see where hands and head
 * really are.
 */
export class ArtAvatar {
  readonly vrm: VRM;
  readonly rig: HumanoidRig;
  readonly primitives: readonly ArtPrimitive[];
  readonly #pose: Pose = createPose();
  readonly #boneNames = new Map<Object3D, string>();
  /** Measured once in the rest pose, as the stage does at load. */
  readonly #body: BodyMeasures;

  constructor(vrm: VRM) {
    this.vrm = vrm;
    this.rig = new HumanoidRig(vrm.humanoid);
    if (vrm.lookAt) vrm.lookAt.autoUpdate = false;
    const primitives: ArtPrimitive[] = [];
    vrm.scene.traverse((o) => {
      const mesh = o as SkinnedMesh;
      if (!mesh.isSkinnedMesh) return;
      const first = (Array.isArray(mesh.material) ? mesh.material[0] : mesh.material) as Material;
      primitives.push({ mesh, material: first.name.replace(/ \(Outline\)$/, '') });
    });
    this.primitives = primitives;
    for (const [name, bone] of Object.entries(vrm.humanoid.rawHumanBones)) if (bone) this.#boneNames.set(bone.node, name);
    vrm.scene.updateMatrixWorld(true);
    this.#body = measureBody(vrm);
  }

  /** Names of the surface materials, in scene order. */
  get materials(): string[] {
    return this.primitives.map((p) => p.material);
  }

  bone(name: VRMHumanBoneName): Object3D {
    const node = this.vrm.humanoid.getRawBoneNode(name);
    if (!node) throw new Error(`the model has no humanoid bone "${name}"`);
    return node;
  }

  /** World position of a humanoid bone in the current pose. */
  bonePosition(name: VRMHumanBoneName, out = new Vector3()): Vector3 {
    return this.bone(name).getWorldPosition(out);
  }

  /**
   * Poses the avatar with `animation` at `time` seconds (the stage's `AnimationBlender` minus its
   * cross-fades and random blinks), gaze included, expressions reset to `expression` at 1.0.
   */
  pose(animation: AnimationFactory | undefined, time: number, options: { expression?: string; seed?: number } = {}): void {
    resetPose(this.#pose);
    animation?.(this.#context(options.seed ?? 1)).evaluate(time, this.#pose);
    this.vrm.humanoid.resetNormalizedPose();
    this.rig.apply(this.#pose);
    if (this.vrm.lookAt) {
      this.vrm.lookAt.yaw = this.#pose.lookYaw;
      this.vrm.lookAt.pitch = this.#pose.lookPitch;
    }
    const expressions = this.vrm.expressionManager;
    if (expressions) {
      expressions.resetValues();
      if (options.expression) {
        if (!expressions.getExpression(options.expression)) throw new Error(`the model has no expression "${options.expression}"`);
        expressions.setValue(options.expression, 1);
      }
    }
    this.vrm.update(0);
    this.vrm.scene.updateMatrixWorld(true);
  }

  /** What an animation factory gets: the same as on the stage (`AnimationBlender`), with a fixed seed. */
  #context(seed: number): AnimationContext {
    return { rig: this.rig, seed, body: this.#body };
  }

  /** Advances springs and the rest by fixed steps (1/30 s each): deterministic settling. */
  step(steps: number, dt = 1 / 30): void {
    for (let i = 0; i < steps; i++) this.vrm.update(dt);
    this.vrm.scene.updateMatrixWorld(true);
  }

  /** Sum of a vertex's skin weights on bones whose humanoid name passes `test`. */
  #weightOn(primitive: ArtPrimitive, index: number, test: (bone: string) => boolean): number {
    const { skinIndex, skinWeight } = primitive.mesh.geometry.attributes;
    let sum = 0;
    for (let k = 0; k < 4; k++) {
      const w = skinWeight!.getComponent(index, k);
      if (w <= 0) continue;
      const name = this.#boneNames.get(primitive.mesh.skeleton.bones[skinIndex!.getComponent(index, k)]!);
      if (name !== undefined && test(name)) sum += w;
    }
    return sum;
  }

  /** Vertices weighted at least `min` to bones passing `test`, on primitives passing `material`. */
  vertices(test: (bone: string) => boolean, min: number, material: (name: string) => boolean = () => true): VertexSet[] {
    const sets: VertexSet[] = [];
    for (const primitive of this.primitives) {
      if (!material(primitive.material)) continue;
      const indices: number[] = [];
      const count = primitive.mesh.geometry.attributes.position!.count;
      for (let i = 0; i < count; i++) if (this.#weightOn(primitive, i, test) >= min) indices.push(i);
      if (indices.length > 0) sets.push({ primitive, indices });
    }
    return sets;
  }

  /** Hands: vertices weighted mostly (≥ 0.5) to hand and finger bones, any material. */
  handVertices(): VertexSet[] {
    return this.vertices(isHandBone, 0.5);
  }

  /** Head skin: vertices of `body-mtoon` and `face-mtoon` weighted almost only (≥ 0.9) to the head. */
  headSkinVertices(): VertexSet[] {
    return this.vertices((b) => HEAD_BONES.has(b), 0.9, (m) => m === 'body-mtoon' || m === 'face-mtoon');
  }

  /** Vertices of every primitive with material `name`. */
  materialVertices(name: string): VertexSet[] {
    return this.vertices(() => true, 0, (m) => m === name);
  }

  /** World positions of `sets` in the current pose (CPU skinning, morph targets included). */
  worldPositions(sets: readonly VertexSet[]): Vector3[] {
    const out: Vector3[] = [];
    for (const { primitive, indices } of sets) {
      for (const i of indices) out.push(primitive.mesh.getVertexPosition(i, new Vector3()).applyMatrix4(primitive.mesh.matrixWorld));
    }
    return out;
  }

  /** Positions of `sets` in the head bone's frame (head-relative, so head turns drop out). */
  headPositions(sets: readonly VertexSet[]): Vector3[] {
    const toHead = new Matrix4().copy(this.bone('head').matrixWorld).invert();
    return this.worldPositions(sets).map((p) => p.applyMatrix4(toHead));
  }
}
