import { align4 } from './glb-writer.js';

/** glTF component types used here. */
export const COMPONENT = {
  UNSIGNED_BYTE: 5121,
  UNSIGNED_SHORT: 5123,
  UNSIGNED_INT: 5125,
  FLOAT: 5126,
} as const;

export type AccessorType = 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4' | 'MAT4';

/** JSON of one accessor (only the fields this generator writes). */
export interface AccessorJson {
  bufferView?: number;
  componentType: number;
  normalized?: boolean;
  count: number;
  type: AccessorType;
  min?: number[];
  max?: number[];
  sparse?: {
    count: number;
    indices: { bufferView: number; componentType: number };
    values: { bufferView: number };
  };
}

interface BufferViewJson {
  buffer: 0;
  byteOffset: number;
  byteLength: number;
  target?: number;
}

type Typed = Float32Array | Uint8Array | Uint16Array | Uint32Array;

/** Collects binary chunks, buffer views and accessors of one glTF document, 4-byte aligned. */
export class BufferBuilder {
  readonly #chunks: Uint8Array[] = [];
  #length = 0;
  readonly bufferViews: BufferViewJson[] = [];
  readonly accessors: AccessorJson[] = [];

  /** Appends raw data as a new buffer view and returns its index. */
  view(data: Typed, target?: 34962 | 34963): number {
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const padded = align4(bytes.length);
    const chunk = new Uint8Array(padded);
    chunk.set(bytes);
    this.#chunks.push(chunk);
    this.bufferViews.push({ buffer: 0, byteOffset: this.#length, byteLength: bytes.length, ...(target ? { target } : {}) });
    this.#length += padded;
    return this.bufferViews.length - 1;
  }

  accessor(json: AccessorJson): number {
    this.accessors.push(json);
    return this.accessors.length - 1;
  }

  /** A plain accessor over a new buffer view. */
  add(data: Typed, componentType: number, type: AccessorType, opts: { normalized?: boolean; minMax?: boolean; target?: 34962 | 34963 } = {}): number {
    const size = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 }[type];
    const count = data.length / size;
    const json: AccessorJson = {
      bufferView: this.view(data, opts.target),
      componentType,
      count,
      type,
      ...(opts.normalized ? { normalized: true } : {}),
    };
    if (opts.minMax) Object.assign(json, minMax(data, size));
    return this.accessor(json);
  }

  /**
   * A morph-target VEC3 accessor storing only the displaced vertices (glTF sparse accessor over
   * implicit zeros). `deltas` maps vertex index → displacement.
   */
  sparseVec3(count: number, deltas: ReadonlyMap<number, readonly [number, number, number]>): number {
    const entries = [...deltas.entries()].sort((a, b) => a[0] - b[0]);
    if (entries.length === 0) {
      return this.accessor({ componentType: COMPONENT.FLOAT, count, type: 'VEC3', min: [0, 0, 0], max: [0, 0, 0] });
    }
    const indices = count > 65535 ? new Uint32Array(entries.length) : new Uint16Array(entries.length);
    const values = new Float32Array(entries.length * 3);
    entries.forEach(([i, d], n) => {
      indices[n] = i;
      values.set(d, n * 3);
    });
    const mm = minMax(values, 3);
    for (let c = 0; c < 3; c++) {
      mm.min[c] = Math.min(mm.min[c]!, 0);
      mm.max[c] = Math.max(mm.max[c]!, 0);
    }
    return this.accessor({
      componentType: COMPONENT.FLOAT,
      count,
      type: 'VEC3',
      ...mm,
      sparse: {
        count: entries.length,
        indices: { bufferView: this.view(indices), componentType: count > 65535 ? COMPONENT.UNSIGNED_INT : COMPONENT.UNSIGNED_SHORT },
        values: { bufferView: this.view(values) },
      },
    });
  }

  /** The concatenated binary buffer. */
  bytes(): Uint8Array {
    const out = new Uint8Array(this.#length);
    let at = 0;
    for (const c of this.#chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}

function minMax(data: Typed, size: number): { min: number[]; max: number[] } {
  const min = new Array<number>(size).fill(Infinity);
  const max = new Array<number>(size).fill(-Infinity);
  for (let i = 0; i < data.length; i++) {
    const c = i % size;
    const v = data[i]!;
    if (v < min[c]!) min[c] = v;
    if (v > max[c]!) max[c] = v;
  }
  return { min, max };
}
