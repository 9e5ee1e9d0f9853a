import type { BuildContext } from '../characters/build-context.js';
import { EXPRESSION_NAMES } from '../face/face-state.js';
import { MATERIAL_SLOTS, type PrimitiveData } from '../geometry/mesh-builder.js';
import type { JointName } from '../skeleton/skeleton.js';
import { mtoonMaterial } from '../vrm/mtoon-materials.js';
import { springBoneExtension } from '../vrm/spring-bones.js';
import { vrmExtension } from '../vrm/vrm-extension.js';
import { BufferBuilder, COMPONENT } from './buffer-builder.js';
import { RampAtlas } from './ramp-atlas.js';
import { writeGlb } from './glb-writer.js';

/**
 * Turns a finished build (skeleton + mesh builder) into VRM 1.0 GLB bytes. Node i is joint
 * `skeleton.joints[i]` (humanoid bones, then spring-bone joints); the skinned mesh node comes last
 * and is a scene root, as glTF requires.
 */
export function writeVrm(ctx: BuildContext): Uint8Array {
  const { skeleton, spec } = ctx;
  const buf = new BufferBuilder();
  const joints = skeleton.joints;
  const meshNode = joints.length;

  const nodes: Record<string, unknown>[] = joints.map((bone) => {
    const p = skeleton.jointPosition(bone);
    const parent = skeleton.parent(bone);
    const q = parent ? skeleton.jointPosition(parent) : ([0, 0, 0] as const);
    const children = joints.map((b, i) => [b, i] as const)
      .filter(([b]) => skeleton.parent(b) === bone)
      .map(([, i]) => i);
    return {
      name: bone,
      translation: [f32(p[0] - q[0]), f32(p[1] - q[1]), f32(p[2] - q[2])],
      ...(children.length ? { children } : {}),
    };
  });

  const ibm = new Float32Array(16 * joints.length);
  joints.forEach((bone, i) => {
    const p = skeleton.jointPosition(bone);
    ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -p[0], -p[1], -p[2], 1], i * 16);
  });
  const ibmAccessor = buf.add(ibm, COMPONENT.FLOAT, 'MAT4');

  const atlas = new RampAtlas();
  const slots = MATERIAL_SLOTS.filter((slot) => ctx.builder.primitive(slot).vertices.length > 0);
  for (const slot of slots) for (const v of ctx.builder.primitive(slot).vertices) atlas.add(v.paint);
  const materials = slots.map((slot) => mtoonMaterial(slot, 0));
  const primitives = slots.map((slot, i) => writePrimitive(buf, ctx.builder.primitive(slot), i, atlas, skeleton.index));
  const imageView = buf.view(atlas.png());

  const springBone = springBoneExtension(spec, skeleton, ctx.springs);
  const eyeHeight = ctx.head.project(0.36, -0.16, 0).position[1] - skeleton.position.head[1];
  const json = {
    asset: { version: '2.0', generator: 'avatar-service assets/generator' },
    extensionsUsed: ['VRMC_vrm', 'VRMC_materials_mtoon', ...(springBone ? ['VRMC_springBone'] : [])],
    extensions: {
      VRMC_vrm: vrmExtension(spec, skeleton, meshNode, eyeHeight),
      ...(springBone ? { VRMC_springBone: springBone } : {}),
    },
    scene: 0,
    scenes: [{ name: spec.id, nodes: [0, meshNode] }],
    nodes: [...nodes, { name: `${spec.id}-body`, mesh: 0, skin: 0 }],
    skins: [{ name: 'humanoid', inverseBindMatrices: ibmAccessor, joints: joints.map((_, i) => i), skeleton: 0 }],
    meshes: [
      {
        name: `${spec.id}-body`,
        primitives,
        weights: EXPRESSION_NAMES.map(() => 0),
        extras: { targetNames: [...EXPRESSION_NAMES] },
      },
    ],
    materials,
    textures: [{ sampler: 0, source: 0 }],
    images: [{ name: 'color-ramps', bufferView: imageView, mimeType: 'image/png' }],
    // Linear filtering inside a ramp row; ramps are two texels tall so rows never bleed.
    samplers: [{ magFilter: 9729, minFilter: 9729, wrapS: 33071, wrapT: 33071 }],
    accessors: buf.accessors,
    bufferViews: buf.bufferViews,
    buffers: [{ byteLength: 0 }],
  };
  const bin = buf.bytes();
  json.buffers[0]!.byteLength = bin.length;
  return writeGlb(json, bin);
}

const f32 = (x: number): number => Math.fround(x);

function writePrimitive(
  buf: BufferBuilder,
  prim: PrimitiveData,
  material: number,
  atlas: RampAtlas,
  jointIndex: (joint: JointName) => number,
): Record<string, unknown> {
  const n = prim.vertices.length;
  const pos = new Float32Array(n * 3);
  const nor = new Float32Array(n * 3);
  const uv = new Uint16Array(n * 2);
  const jnt = new Uint8Array(n * 4);
  const wgt = new Uint8Array(n * 4);
  prim.vertices.forEach((v, i) => {
    pos.set(v.position, i * 3);
    const l = Math.hypot(...v.normal) || 1;
    nor.set([v.normal[0] / l, v.normal[1] / l, v.normal[2] / l], i * 3);
    const [u, w] = atlas.uv(v.paint);
    uv.set([Math.round(u * 65535), Math.round(w * 65535)], i * 2);
    const packed = packSkin(v.skin.map(([b, w]) => [jointIndex(b), w] as const));
    jnt.set(packed.joints, i * 4);
    wgt.set(packed.weights, i * 4);
  });
  const attributes = {
    POSITION: buf.add(pos, COMPONENT.FLOAT, 'VEC3', { minMax: true, target: 34962 }),
    NORMAL: buf.add(nor, COMPONENT.FLOAT, 'VEC3', { target: 34962 }),
    TEXCOORD_0: buf.add(uv, COMPONENT.UNSIGNED_SHORT, 'VEC2', { normalized: true, target: 34962 }),
    JOINTS_0: buf.add(jnt, COMPONENT.UNSIGNED_BYTE, 'VEC4', { target: 34962 }),
    WEIGHTS_0: buf.add(wgt, COMPONENT.UNSIGNED_BYTE, 'VEC4', { normalized: true, target: 34962 }),
  };
  const wide = n > 65535;
  const idx = wide ? Uint32Array.from(prim.indices) : Uint16Array.from(prim.indices);
  const indices = buf.add(idx, wide ? COMPONENT.UNSIGNED_INT : COMPONENT.UNSIGNED_SHORT, 'SCALAR', { target: 34963 });
  const targets = prim.morphs.map((deltas) => ({ POSITION: buf.sparseVec3(n, deltas) }));
  return { attributes, indices, material, mode: 4, targets };
}

/**
 * Four strongest influences as normalized bytes summing to exactly 255 (the validator checks the
 * sum). Ties break on bone order so the result never depends on iteration order.
 */
function packSkin(influences: readonly (readonly [number, number])[]): { joints: number[]; weights: number[] } {
  const top = [...influences].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 4);
  const total = top.reduce((s, [, w]) => s + w, 0);
  const weights = top.map(([, w]) => Math.round((w / total) * 255));
  weights[0]! += 255 - weights.reduce((s, w) => s + w, 0);
  // Slots without weight point at joint 0, as the validator expects.
  const joints = top.map(([j], i) => (weights[i] === 0 ? 0 : j));
  while (weights.length < 4) {
    weights.push(0);
    joints.push(0);
  }
  return { joints, weights };
}
