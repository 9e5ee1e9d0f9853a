import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import validator from 'gltf-validator';
import { CHARACTERS } from '../../assets/generator/characters/characters.js';
import { generateAvatars } from '../../assets/generator/generate-avatars.js';
import { repoRoot } from '../support/repo-root.js';

const IDS = ['luna-001', 'atlas-002', 'sofia-003', 'kenji-004', 'maya-005', 'orion-006'] as const;
const REQUIRED_BONES = [
  'hips', 'spine', 'chest', 'neck', 'head',
  'leftShoulder', 'leftUpperArm', 'leftLowerArm', 'leftHand',
  'rightShoulder', 'rightUpperArm', 'rightLowerArm', 'rightHand',
  'leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'rightUpperLeg', 'rightLowerLeg', 'rightFoot',
] as const;
const REQUIRED_EXPRESSIONS = [
  'aa', 'ih', 'ou', 'ee', 'oh', 'blink', 'blinkLeft', 'blinkRight',
  'happy', 'sad', 'angry', 'surprised', 'relaxed', 'neutral',
  'lookUp', 'lookDown', 'lookLeft', 'lookRight',
] as const;
const FINGERS = [
  ['Thumb', ['Metacarpal', 'Proximal', 'Distal']],
  ...['Index', 'Middle', 'Ring', 'Little'].map((f) => [f, ['Proximal', 'Intermediate', 'Distal']] as const),
] as const;
const MAX_BYTES = 1024 * 1024;
const avatarsDir = join(repoRoot, 'assets', 'avatars');

/* eslint-disable @typescript-eslint/no-explicit-any -- glTF JSON is inspected structurally. */
type Json = any;

/** Splits a GLB into its JSON document (the BIN chunk is not needed by these checks). */
function readGlbJson(bytes: Uint8Array): Json {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  assert.equal(view.getUint32(0, true), 0x46546c67, 'GLB magic');
  assert.equal(view.getUint32(4, true), 2, 'GLB version');
  const jsonLength = view.getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength)));
}

describe('generated VRM avatars', () => {
  it('the generator describes exactly the six preset ids', () => {
    assert.deepEqual(CHARACTERS.map((c) => c.id), [...IDS]);
  });

  for (const id of IDS) {
    describe(id, () => {
      const file = join(avatarsDir, `${id}.vrm`);
      const bytes = new Uint8Array(readFileSync(file));
      const gltf = readGlbJson(bytes);
      const vrm = gltf.extensions?.VRMC_vrm;

      it('is at most 1 MB', () => {
        assert.ok(bytes.length <= MAX_BYTES, `${bytes.length} bytes`);
      });

      it('passes the Khronos glTF validator with 0 errors', async () => {
        const report = await validator.validateBytes(bytes, { maxIssues: 100 });
        const errors = report.issues.messages.filter((m) => m.severity === 0);
        assert.equal(report.issues.numErrors, 0, JSON.stringify(errors.slice(0, 5)));
      });

      it('declares VRMC_vrm 1.0 with complete meta', () => {
        assert.ok(gltf.extensionsUsed.includes('VRMC_vrm'));
        assert.equal(vrm.specVersion, '1.0');
        const meta = vrm.meta;
        assert.equal(typeof meta.name, 'string');
        assert.ok(meta.name.length > 0);
        assert.ok(Array.isArray(meta.authors) && meta.authors.length > 0);
        assert.equal(meta.licenseUrl, 'https://vrm.dev/licenses/1.0/');
        for (const field of ['avatarPermission', 'commercialUsage', 'creditNotation', 'modification']) {
          assert.equal(typeof meta[field], 'string', field);
        }
        for (const field of [
          'allowExcessivelyViolentUsage', 'allowExcessivelySexualUsage', 'allowPoliticalOrReligiousUsage',
          'allowAntisocialOrHateUsage', 'allowRedistribution',
        ]) {
          assert.equal(typeof meta[field], 'boolean', field);
        }
      });

      it('maps every required humanoid bone to a node', () => {
        const bones = vrm.humanoid.humanBones;
        for (const bone of REQUIRED_BONES) {
          const node = bones[bone]?.node;
          assert.ok(Number.isInteger(node) && node >= 0 && node < gltf.nodes.length, `${bone} → ${node}`);
        }
        const nodes = Object.values(bones).map((b: Json) => b.node);
        assert.equal(new Set(nodes).size, nodes.length, 'no node is two bones');
      });

      it('has one skinned mesh, a scene root, skinned to the humanoid bones', () => {
        const skinned = gltf.nodes.map((n: Json, i: number) => [n, i]).filter(([n]: Json) => n.skin !== undefined && n.mesh !== undefined);
        assert.equal(skinned.length, 1);
        const [node, index] = skinned[0];
        assert.ok(gltf.scenes[gltf.scene].nodes.includes(index), 'skinned mesh node is a scene root');
        const joints: number[] = gltf.skins[node.skin].joints;
        for (const bone of REQUIRED_BONES) assert.ok(joints.includes(vrm.humanoid.humanBones[bone].node), `${bone} is a joint`);
        for (const prim of gltf.meshes[node.mesh].primitives) {
          assert.ok(prim.attributes.JOINTS_0 !== undefined && prim.attributes.WEIGHTS_0 !== undefined);
        }
      });

      it('binds every expression preset to an existing morph target of the skinned mesh', () => {
        const meshNode = gltf.nodes.findIndex((n: Json) => n.skin !== undefined && n.mesh !== undefined);
        const mesh = gltf.meshes[gltf.nodes[meshNode].mesh];
        const targetCount = Math.min(...mesh.primitives.map((p: Json) => p.targets?.length ?? 0));
        for (const name of REQUIRED_EXPRESSIONS) {
          const expr = vrm.expressions.preset[name];
          assert.ok(expr, `${name} present`);
          assert.ok(expr.morphTargetBinds.length > 0, `${name} bound`);
          for (const bind of expr.morphTargetBinds) {
            assert.equal(bind.node, meshNode, `${name} binds the skinned mesh node`);
            assert.ok(bind.index >= 0 && bind.index < targetCount, `${name} index ${bind.index}`);
          }
        }
        assert.equal(vrm.lookAt.type, 'expression');
      });

      it('uses MToon materials', () => {
        assert.ok(gltf.extensionsUsed.includes('VRMC_materials_mtoon'));
        for (const m of gltf.materials) assert.equal(m.extensions?.VRMC_materials_mtoon?.specVersion, '1.0', m.name);
      });

      it('maps the 30 VRM finger bones, each a child of the previous one or of the hand', () => {
        const bones = vrm.humanoid.humanBones;
        for (const side of ['left', 'right']) {
          for (const [finger, segments] of FINGERS) {
            let parent = bones[`${side}Hand`].node;
            for (const segment of segments) {
              const node = bones[`${side}${finger}${segment}`]?.node;
              assert.ok(Number.isInteger(node), `${side}${finger}${segment}`);
              assert.ok(gltf.nodes[parent].children?.includes(node), `${side}${finger}${segment} under its parent`);
              parent = node;
            }
          }
        }
      });

      it('has VRMC_springBone chains on the hair with colliders on head, neck and upper body', () => {
        const sb = gltf.extensions?.VRMC_springBone;
        assert.ok(gltf.extensionsUsed.includes('VRMC_springBone'));
        assert.equal(sb.specVersion, '1.0');
        const humanNodes = new Set(Object.values(vrm.humanoid.humanBones).map((b: Json) => b.node));
        const parentOf = new Map<number, number>();
        gltf.nodes.forEach((n: Json, i: number) => (n.children ?? []).forEach((c: number) => parentOf.set(c, i)));
        const groups = sb.colliderGroups.map((g: Json) => g.name);
        for (const name of ['head', 'neck', 'body']) assert.ok(groups.includes(name), `collider group ${name}`);
        for (const c of sb.colliders) assert.ok(humanNodes.has(c.node), 'colliders sit on humanoid bones');
        const hair = sb.springs.filter((s: Json) => s.name.startsWith('hair'));
        assert.ok(hair.length > 0, 'at least one hair spring');
        for (const spring of sb.springs) {
          const nodes: number[] = spring.joints.map((j: Json) => j.node);
          assert.ok(nodes.length >= 2, `${spring.name} has a joint and a tail`);
          nodes.forEach((node, i) => {
            assert.ok(!humanNodes.has(node), `${spring.name}: joints are not humanoid bones`);
            if (i > 0) assert.equal(parentOf.get(node), nodes[i - 1], `${spring.name}: joint ${i} is a child of joint ${i - 1}`);
          });
          if (spring.name.startsWith('hair')) {
            assert.equal(parentOf.get(nodes[0]!), vrm.humanoid.humanBones.head.node, `${spring.name} hangs from the head`);
          }
          for (const g of spring.colliderGroups) assert.ok(g >= 0 && g < groups.length);
        }
      });

      it('ships a PNG preview', () => {
        const png = readFileSync(join(avatarsDir, `${id}.png`));
        assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
        assert.ok(statSync(join(avatarsDir, `${id}.png`)).size > 10_000);
      });
    });
  }

  describe('determinism', () => {
    const dir = mkdtempSync(join(tmpdir(), 'avatars-'));
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('regenerating yields byte-identical files', () => {
      generateAvatars(dir);
      for (const id of IDS) {
        const fresh = readFileSync(join(dir, `${id}.vrm`));
        const committed = readFileSync(join(avatarsDir, `${id}.vrm`));
        assert.ok(fresh.equals(committed), `${id}.vrm differs from a fresh run (re-run npm run avatars)`);
      }
    });
  });
});
