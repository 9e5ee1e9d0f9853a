import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { inspectVrm } from '../../../core/avatars/vrm-file.js';
import { ValidationError } from '../../../core/errors.js';
import { repoRoot } from '../../support/repo-root.js';

const avatarsDir = join(repoRoot, 'assets', 'avatars');
const vrmFiles = readdirSync(avatarsDir).filter((f) => f.endsWith('.vrm')).sort();
const LIMIT = { maxBytes: 4 * 1024 * 1024 };
const luna = new Uint8Array(readFileSync(join(avatarsDir, 'luna-001.vrm')));

/** Builds a GLB the way the spec lays it out: JSON padded with spaces, BIN padded with zeros. */
function glb(json: unknown, bin?: Uint8Array): Uint8Array {
  const pad = (n: number) => (4 - (n % 4)) % 4;
  const text = new TextEncoder().encode(typeof json === 'string' ? json : JSON.stringify(json));
  const jsonChunk = new Uint8Array(text.length + pad(text.length)).fill(0x20);
  jsonChunk.set(text);
  const binChunk = bin && new Uint8Array(bin.length + pad(bin.length));
  binChunk?.set(bin!);
  const total = 12 + 8 + jsonChunk.length + (binChunk ? 8 + binChunk.length : 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonChunk.length, true);
  view.setUint32(16, 0x4e4f534a, true);
  out.set(jsonChunk, 20);
  if (binChunk) {
    const at = 20 + jsonChunk.length;
    view.setUint32(at, binChunk.length, true);
    view.setUint32(at + 4, 0x004e4942, true);
    out.set(binChunk, at + 8);
  }
  return out;
}

/** A minimal glTF document with one 16-byte buffer, plus optional top-level fields. */
function doc(extra: Record<string, unknown> = {}, byteLength = 16): Record<string, unknown> {
  return { asset: { version: '2.0' }, buffers: [{ byteLength }], ...extra };
}
const VRM1 = { extensionsUsed: ['VRMC_vrm'], extensions: { VRMC_vrm: { specVersion: '1.0', meta: { name: 'Tiny' } } } };

/** Copies `data` and sets the GLB header's total length to the copy's size. */
function withHeaderLength(data: Uint8Array, length = data.length): Uint8Array {
  const copy = data.slice();
  new DataView(copy.buffer).setUint32(8, length, true);
  return copy;
}

function refuses(data: Uint8Array, message: RegExp, options: { maxBytes: number; field?: string } = LIMIT): void {
  assert.throws(
    () => inspectVrm(data, options),
    (error: unknown) => {
      assert.ok(error instanceof ValidationError, `expected ValidationError, got ${String(error)}`);
      assert.equal(error.code, 'invalid_request');
      assert.equal(error.status, 400);
      assert.equal(error.field, options.field ?? 'model');
      assert.match(error.message, message);
      return true;
    },
  );
}

describe('inspectVrm', () => {
  it('finds the six project avatars', () => assert.equal(vrmFiles.length, 6));

  for (const file of vrmFiles) {
    it(`accepts ${file} as VRM 1.0 with a title`, () => {
      const data = new Uint8Array(readFileSync(join(avatarsDir, file)));
      const info = inspectVrm(data, LIMIT);
      assert.equal(info.extension, 'VRMC_vrm');
      assert.equal(info.version, '1.0');
      assert.equal(typeof info.title, 'string');
      assert.ok(info.title!.length > 0);
      assert.equal(info.bytes, data.length);
    });
  }

  it('accepts a Buffer that is a view into a larger ArrayBuffer', () => {
    const big = new Uint8Array(luna.length + 7);
    big.set(luna, 5);
    assert.equal(inspectVrm(big.subarray(5, 5 + luna.length), LIMIT).title, 'Luna');
  });

  it('accepts a VRM 0.x file and reports meta.title', () => {
    const data = glb(doc({ extensionsUsed: ['VRM'], extensions: { VRM: { exporterVersion: 'UniVRM-0.99', meta: { title: 'Old One' } } } }), new Uint8Array(16));
    assert.deepEqual(inspectVrm(data, LIMIT), { extension: 'VRM', version: '0.x', title: 'Old One', bytes: data.length });
  });

  it('accepts a JSON-only VRM (no BIN chunk, no buffers) without a title', () => {
    const data = glb({ asset: { version: '2.0' }, extensionsUsed: ['VRMC_vrm'], extensions: { VRMC_vrm: { specVersion: '1.0' } } });
    assert.deepEqual(inspectVrm(data, LIMIT), { extension: 'VRMC_vrm', version: '1.0', bytes: data.length });
  });

  it('refuses empty data', () => refuses(new Uint8Array(0), /^model is empty/));

  it('refuses a PNG', () => {
    const png = new Uint8Array(readFileSync(join(avatarsDir, 'luna-001.png')));
    refuses(png, /^model must be a VRM file \(a glTF binary\); this is not a glTF binary$/);
  });

  it('refuses random bytes', () => {
    const noise = new Uint8Array(4096).map((_, i) => (i * 1103515245 + 12345) >>> 16);
    refuses(noise, /not a glTF binary/);
  });

  it('refuses a GLB truncated mid-header, mid-JSON chunk and mid-BIN chunk', () => {
    refuses(luna.subarray(0, 2), /is truncated/);
    refuses(luna.subarray(0, 7), /^model is truncated: a glTF binary header is 12 bytes, got 7$/);
    for (const at of [16, 1000, 27_000, 100_000, luna.length - 1]) {
      refuses(luna.subarray(0, at), new RegExp(`^model is truncated: the header says ${luna.length} bytes, got ${at}$`));
    }
  });

  it('refuses trailing bytes after the length the header gives', () => {
    const longer = new Uint8Array(luna.length + 4);
    longer.set(luna);
    refuses(longer, /has 4 bytes after the end its header gives/);
  });

  it('refuses chunk lengths that do not add up once the header length is made to match', () => {
    refuses(withHeaderLength(luna.subarray(0, 100_000)), /chunk 1 says \d+ bytes but only \d+ remain/);
    const jsonLength = new DataView(luna.buffer, luna.byteOffset).getUint32(12, true);
    refuses(withHeaderLength(luna.subarray(0, 1000)), new RegExp(`chunk 0 says ${jsonLength} bytes but only 980 remain`));
    refuses(withHeaderLength(luna.subarray(0, 16)), /chunk 0 has an incomplete header/);
    refuses(withHeaderLength(luna.subarray(0, 12)), /it has no JSON chunk/);
    const misaligned = luna.slice();
    new DataView(misaligned.buffer).setUint32(12, 27_701, true);
    refuses(misaligned, /chunk 0 is 27701 bytes, not a multiple of 4/);
    const huge = luna.slice();
    new DataView(huge.buffer).setUint32(12, 0xfffffffc, true);
    refuses(huge, /chunk 0 says 4294967292 bytes/);
  });

  it('refuses a wrong GLB version and a BIN chunk first', () => {
    const v1 = luna.slice();
    new DataView(v1.buffer).setUint32(4, 1, true);
    refuses(v1, /glTF binary version 1; only version 2/);
    const binFirst = luna.slice();
    new DataView(binFirst.buffer).setUint32(16, 0x004e4942, true);
    refuses(binFirst, /first chunk is not the JSON chunk/);
  });

  it('refuses a JSON chunk that is not JSON, not UTF-8, or not an object', () => {
    refuses(glb('{"asset": {"version": "2.0"'), /JSON chunk is not valid UTF-8 JSON/);
    const latin1 = glb('{"asset":{"version":"2.0"},"x":"caf\u00e9"}');
    latin1[latin1.indexOf(0xc3, 20)] = 0xe9; // "é" as Latin-1: an invalid UTF-8 sequence
    refuses(latin1, /not valid UTF-8 JSON/);
    refuses(glb('[1, 2, 3]'), /JSON chunk is not a JSON object/);
    refuses(glb({ asset: { version: '1.0' } }), /not a glTF 2\.x model \(asset\.version is "1\.0"\)/);
    refuses(glb({}), /asset\.version is missing/);
  });

  it('refuses a valid glTF without any VRM extension', () => {
    refuses(glb(doc(), new Uint8Array(16)), /^model has no VRM extension \(VRMC_vrm or VRM\): it is a plain glTF model$/);
    const other = doc({ extensionsUsed: ['KHR_materials_unlit'], extensions: { KHR_materials_unlit: {} } });
    refuses(glb(other, new Uint8Array(16)), /plain glTF model/);
  });

  it('refuses half-declared or unsupported VRM extensions', () => {
    const bin = new Uint8Array(16);
    refuses(glb(doc({ extensions: VRM1.extensions }), bin), /does not list VRMC_vrm in extensionsUsed/);
    refuses(glb(doc({ extensionsUsed: ['VRMC_vrm'] }), bin), /extensions\.VRMC_vrm is not an object/);
    const beta = { extensionsUsed: ['VRMC_vrm'], extensions: { VRMC_vrm: { specVersion: '1.0-beta' } } };
    refuses(glb(doc(beta), bin), /specVersion "1\.0-beta"; only "1\.0" is supported/);
  });

  it('refuses a buffer whose byteLength exceeds the BIN chunk, or that has no BIN chunk', () => {
    assert.equal(inspectVrm(glb(doc(VRM1, 16), new Uint8Array(16)), LIMIT).title, 'Tiny');
    refuses(glb(doc(VRM1, 17), new Uint8Array(16)), /buffers\[0\] is 17 bytes but the BIN chunk holds only 16/);
    refuses(glb(doc(VRM1, 16)), /refers to a BIN chunk the file does not have/);
    refuses(glb(doc({ ...VRM1, buffers: [{ byteLength: 0 }] }), new Uint8Array(16)), /byteLength is not a positive integer/);
    refuses(glb(doc({ ...VRM1, buffers: [{ uri: 'a.bin', byteLength: 4 }, { byteLength: 4 }] }), new Uint8Array(16)), /only buffers\[0\] can be/);
  });

  it('refuses a file over maxBytes, naming the caller\'s field', () => {
    refuses(luna, new RegExp(`^avatar is ${luna.length} bytes; the limit is 1000$`), { maxBytes: 1000, field: 'avatar' });
    assert.equal(inspectVrm(luna, { maxBytes: luna.length }).bytes, luna.length);
  });

  it('throws only ValidationError for 200 random corruptions and truncations of a real file', () => {
    let seed = 0x2545f491;
    const random = (n: number) => {
      seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    const jsonEnd = 20 + new DataView(luna.buffer, luna.byteOffset).getUint32(12, true);
    let refused = 0;
    for (let i = 0; i < 200; i++) {
      let data: Uint8Array;
      if (i % 4 === 0) {
        data = luna.subarray(0, random(luna.length)); // truncation
      } else {
        data = luna.slice();
        const at = i % 4 === 3 ? random(luna.length) : random(jsonEnd + 8); // mostly header and JSON
        data[at] = random(256);
        if (i % 8 === 1) data = withHeaderLength(data.subarray(0, random(luna.length))); // cut, length patched
      }
      try {
        inspectVrm(data, LIMIT);
      } catch (error) {
        assert.ok(error instanceof ValidationError, `case ${i}: ${String(error)}`);
        refused++;
      }
    }
    assert.ok(refused >= 50, `only ${refused} of 200 refused`);
  });
});
