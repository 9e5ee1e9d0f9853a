import { expect } from '@open-wc/testing';
import type { VRM } from '@pixiv/three-vrm';
import * as THREE from 'three';
import { loadVrm as loadVrmFile } from '../../widget/stage/vrm-loader.js';

const IDS = ['luna-001', 'atlas-002', 'sofia-003', 'kenji-004', 'maya-005', 'orion-006'] as const;
/** Fixed simulation step: the result depends on the number of steps, never on wall time. */
const DT = 1 / 60;

async function loadVrm(id: string, warnings: string[]): Promise<VRM> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    warnings.push(args.map(String).join(' '));
  };
  try {
    return await loadVrmFile(`/assets/avatars/${id}.vrm`);
  } finally {
    console.warn = warn;
  }
}

/** Spring joints whose bone name starts with `prefix`, with their local rotation now. */
function jointRotations(vrm: VRM, prefix: string): Map<string, THREE.Quaternion> {
  const out = new Map<string, THREE.Quaternion>();
  for (const joint of vrm.springBoneManager?.joints ?? []) {
    if (joint.bone.name.startsWith(prefix)) out.set(joint.bone.name, joint.bone.quaternion.clone());
  }
  return out;
}

/** Largest rotation (degrees) of any joint between two snapshots. */
function largestTurn(before: Map<string, THREE.Quaternion>, after: Map<string, THREE.Quaternion>): number {
  let most = 0;
  for (const [name, q] of before) most = Math.max(most, THREE.MathUtils.radToDeg(q.angleTo(after.get(name)!)));
  return most;
}

function step(vrm: VRM, frames: number, pose?: (f: number) => void): void {
  for (let f = 0; f < frames; f++) {
    pose?.(f);
    vrm.update(DT);
  }
}

/** Largest swing (degrees) of the `prefix` joints away from their settled rotation while `pose` runs. */
function swing(vrm: VRM, prefix: string, frames: number, pose: (f: number) => void): number {
  const rest = jointRotations(vrm, prefix);
  let most = 0;
  step(vrm, frames, (f) => {
    pose(f);
    if (f > 0) most = Math.max(most, largestTurn(rest, jointRotations(vrm, prefix)));
  });
  return most;
}

describe('spring bones of the generated avatars in three-vrm', () => {
  for (const id of IDS) {
    describe(id, () => {
      let vrm: VRM;
      const warnings: string[] = [];

      before(async () => {
        vrm = await loadVrm(id, warnings);
        // Relaxed arms, as the stage poses them, then let the springs settle.
        vrm.humanoid.getNormalizedBoneNode('leftUpperArm')!.rotation.set(0, 0, -1.2);
        vrm.humanoid.getNormalizedBoneNode('rightUpperArm')!.rotation.set(0, 0, 1.2);
        step(vrm, 120);
      });

      it('loads without warnings', () => {
        expect(warnings).to.deep.equal([]);
      });

      it('has hair springs that sway when the head turns', () => {
        expect(jointRotations(vrm, 'hair').size).to.be.greaterThan(0);
        const head = vrm.humanoid.getNormalizedBoneNode('head')!;
        // A brisk look to the side (0.6 rad in 8 frames), held.
        const most = swing(vrm, 'hair', 40, (f) => head.rotation.set(0, Math.min(1, f / 8) * 0.6, 0));
        head.rotation.set(0, 0, 0);
        step(vrm, 120);
        expect(most).to.be.greaterThan(2);
      });

      it('keeps hair joints outside the skull while the head turns', () => {
        const head = vrm.humanoid.getNormalizedBoneNode('head')!;
        const skull = (vrm.springBoneManager?.colliders ?? []).find((c) => c.parent === vrm.humanoid.getRawBoneNode('head'));
        expect(skull, 'a collider on the head').to.not.equal(undefined);
        const centre = new THREE.Vector3();
        let closest = Infinity;
        step(vrm, 30, (f) => {
          head.rotation.set(0, Math.sin(f / 5) * 0.6, 0);
          skull!.getWorldPosition(centre);
          const shape = skull!.shape as unknown as { offset: THREE.Vector3; radius: number };
          centre.add(shape.offset.clone().applyQuaternion(skull!.getWorldQuaternion(new THREE.Quaternion())));
          for (const joint of vrm.springBoneManager!.joints) {
            if (!joint.bone.name.startsWith('hair') || !joint.child) continue;
            const tip = joint.child.getWorldPosition(new THREE.Vector3());
            closest = Math.min(closest, tip.distanceTo(centre) / shape.radius);
          }
        });
        head.rotation.set(0, 0, 0);
        step(vrm, 120);
        expect(closest).to.be.greaterThan(0.95);
      });

      if (id === 'luna-001' || id === 'sofia-003' || id === 'maya-005') {
        it('has a skirt on springs that swings when the hips turn', () => {
          expect(jointRotations(vrm, 'skirt').size).to.equal(8 * 3);
          const hips = vrm.humanoid.getNormalizedBoneNode('hips')!;
          const most = swing(vrm, 'skirt', 40, (f) => hips.rotation.set(0, Math.min(1, f / 6) * 0.5, 0));
          hips.rotation.set(0, 0, 0);
          step(vrm, 120);
          expect(most).to.be.greaterThan(2);
        });
      }
    });
  }
});
