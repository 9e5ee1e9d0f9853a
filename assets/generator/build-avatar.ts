import { buildArms, buildLegs } from './body/build-limbs.js';
import { buildClothing } from './body/build-clothing.js';
import { buildHead, buildNeck } from './body/build-head.js';
import { buildTorso, torsoShape } from './body/build-torso.js';
import { createBuildContext } from './characters/build-context.js';
import type { CharacterSpec } from './characters/character-spec.js';
import { buildFace } from './face/build-face.js';
import { EXPRESSION_NAMES } from './face/face-state.js';
import { writeVrm } from './gltf/vrm-document.js';
import { buildHair } from './hair/build-hair.js';

/**
 * Builds one character into VRM 1.0 (GLB) bytes. Pure and deterministic: the same description
 * always yields the same bytes.
 *
 * @example
 * writeFileSync('luna-001.vrm', buildAvatar(CHARACTERS[0]));
 */
export function buildAvatar(spec: CharacterSpec): Uint8Array {
  const ctx = createBuildContext(spec, EXPRESSION_NAMES.length);
  const torso = torsoShape(ctx);
  buildTorso(ctx, torso);
  buildNeck(ctx);
  buildHead(ctx);
  buildArms(ctx);
  buildLegs(ctx);
  buildClothing(ctx, torso);
  buildHair(ctx);
  buildFace(ctx);
  return writeVrm(ctx);
}
