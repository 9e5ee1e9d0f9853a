import type { SkinWeights } from '../skeleton/skin-weights.js';
import type { Paint } from './paint.js';
import type { Vec3 } from './vec3.js';

/**
 * Material slots of the avatar mesh, one glTF primitive each:
 * `body` opaque, single-sided, outlined; `cloth` double-sided, outlined (skirts, open shells);
 * `hair` double-sided, outlined, softer shading; `face` eyes, brows, lips — no outline;
 * `mouth` the mouth interior (cavity, teeth, tongue) — no outline, hidden by the lips at rest.
 * `face` and `mouth` carry the expression morph targets.
 */
export const MATERIAL_SLOTS = ['body', 'cloth', 'hair', 'face', 'mouth'] as const;
export type MaterialSlot = (typeof MATERIAL_SLOTS)[number];

/** One vertex as the builders emit it; its colour is a point on a ramp of the texture atlas. */
export interface Vertex {
  readonly position: Vec3;
  readonly normal: Vec3;
  readonly paint: Paint;
  readonly skin: SkinWeights;
}

/** Geometry of one primitive, in insertion order (which keeps output deterministic). */
export interface PrimitiveData {
  readonly vertices: Vertex[];
  readonly indices: number[];
  /** Per morph target: vertex index → position delta. Only non-zero deltas are stored. */
  readonly morphs: Map<number, Vec3>[];
}

/** Accumulates the avatar's vertices, triangles and morph deltas, per material slot. */
export class MeshBuilder {
  readonly #primitives: Record<MaterialSlot, PrimitiveData>;

  constructor(readonly targetCount: number) {
    const make = (): PrimitiveData => ({
      vertices: [],
      indices: [],
      morphs: Array.from({ length: targetCount }, () => new Map<number, Vec3>()),
    });
    this.#primitives = { body: make(), cloth: make(), hair: make(), face: make(), mouth: make() };
  }

  primitive(slot: MaterialSlot): PrimitiveData {
    return this.#primitives[slot];
  }

  addVertex(slot: MaterialSlot, v: Vertex): number {
    const p = this.#primitives[slot];
    p.vertices.push(v);
    return p.vertices.length - 1;
  }

  addTriangle(slot: MaterialSlot, a: number, b: number, c: number): void {
    this.#primitives[slot].indices.push(a, b, c);
  }

  /** Records the displacement of one vertex in one expression's morph target. */
  setMorph(slot: MaterialSlot, target: number, vertex: number, delta: Vec3): void {
    if (Math.abs(delta[0]) + Math.abs(delta[1]) + Math.abs(delta[2]) < 1e-7) return;
    this.#primitives[slot].morphs[target]!.set(vertex, delta);
  }
}
