import type { CharacterSpec } from '../characters/character-spec.js';
import type { Vec3 } from '../geometry/vec3.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import type { ColliderGroupName, SpringChains } from '../skeleton/spring-chains.js';

type Shape = { sphere: { offset: Vec3; radius: number } } | { capsule: { offset: Vec3; radius: number; tail: Vec3 } };

/**
 * `VRMC_springBone` 1.0 for one avatar: colliders on the head, neck, upper chest / shoulders (and
 * thighs for skirts), grouped so each chain collides only with what it can reach, and one spring
 * per registered chain. Collider offsets are in the bone's local space, which in our rest pose is
 * the world axes (every node carries a translation only).
 *
 * Returns null when the avatar has no chains, so the extension is left out.
 */
export function springBoneExtension(spec: CharacterSpec, skeleton: Skeleton, springs: SpringChains): Record<string, unknown> | null {
  if (springs.chains.length === 0) return null;
  const P = skeleton.position;
  const k = spec.height / 1.7;
  const r = skeleton.headRadius;
  const local = (bone: keyof typeof P, p: Vec3): Vec3 => round3([p[0] - P[bone][0], p[1] - P[bone][1], p[2] - P[bone][2]]);
  const c = skeleton.headCenter;
  const sw = spec.body.shoulderWidth;
  const colliders: { node: keyof typeof P; shape: Shape; group: ColliderGroupName }[] = [
    // The skull, a little inside the skin so hair resting on it is not pushed off, and the jaw.
    { node: 'head', group: 'head', shape: { sphere: { offset: local('head', c), radius: round(0.94 * r) } } },
    { node: 'head', group: 'head', shape: { sphere: { offset: local('head', [c[0], c[1] - 0.5 * r, c[2] + 0.15 * r]), radius: round(0.68 * r) } } },
    {
      node: 'neck',
      group: 'neck',
      shape: { capsule: { offset: [0, 0, 0], radius: round(0.05 * k * spec.body.neck), tail: local('neck', P.head) } },
    },
    // Upper back and chest across the shoulders: long hair and ponytails rest on it.
    {
      node: 'upperChest',
      group: 'body',
      shape: {
        capsule: {
          offset: local('upperChest', [-0.55 * sw, P.upperChest[1] + 0.02 * k, P.upperChest[2] - 0.01 * k]),
          radius: round(spec.body.chestDepth * 0.95),
          tail: local('upperChest', [0.55 * sw, P.upperChest[1] + 0.02 * k, P.upperChest[2] - 0.01 * k]),
        },
      },
    },
    { node: 'leftUpperArm', group: 'body', shape: { sphere: { offset: [0, 0, 0], radius: round(0.045 * k * spec.body.limb) } } },
    { node: 'rightUpperArm', group: 'body', shape: { sphere: { offset: [0, 0, 0], radius: round(0.045 * k * spec.body.limb) } } },
  ];
  if (springs.chains.some((ch) => ch.colliders.includes('legs'))) {
    for (const side of ['left', 'right'] as const) {
      const knee = P[`${side}LowerLeg`];
      colliders.push({
        node: `${side}UpperLeg`,
        group: 'legs',
        shape: { capsule: { offset: [0, 0, 0], radius: round(0.07 * k * spec.body.limb), tail: local(`${side}UpperLeg`, knee) } },
      });
    }
  }
  const groupNames = [...new Set(colliders.map((col) => col.group))];
  return {
    specVersion: '1.0',
    colliders: colliders.map((col) => ({ node: skeleton.index(col.node), shape: col.shape })),
    colliderGroups: groupNames.map((name) => ({
      name,
      colliders: colliders.flatMap((col, i) => (col.group === name ? [i] : [])),
    })),
    springs: springs.chains.map((chain) => ({
      name: chain.name,
      joints: chain.joints.map((joint) => ({
        node: skeleton.index(joint),
        hitRadius: round(chain.settings.hitRadius),
        stiffness: chain.settings.stiffness,
        gravityPower: chain.settings.gravity,
        gravityDir: [0, -1, 0],
        dragForce: chain.settings.drag,
      })),
      colliderGroups: chain.colliders.filter((g) => groupNames.includes(g)).map((g) => groupNames.indexOf(g)),
    })),
  };
}

const round = (x: number): number => Math.round(x * 1e5) / 1e5;
const round3 = (v: Vec3): Vec3 => [round(v[0]), round(v[1]), round(v[2])];
