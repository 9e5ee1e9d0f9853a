import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PREVIEW_MAX_SIDE, inspectPng } from '../../../core/avatars/png-preview.js';
import { ValidationError } from '../../../core/errors.js';
import { repoRoot } from '../../support/repo-root.js';

const luna = new Uint8Array(readFileSync(join(repoRoot, 'assets', 'avatars', 'luna-001.png')));

/** A copy of the preset preview with IHDR bytes changed (width, height, depth, colour type). */
function withHeader(change: (view: DataView) => void): Uint8Array {
  const copy = new Uint8Array(luna);
  change(new DataView(copy.buffer));
  return copy;
}

function refused(data: Uint8Array, message: RegExp, options = {}): void {
  assert.throws(() => inspectPng(data, options), (error: unknown) => {
    assert.ok(error instanceof ValidationError);
    assert.equal(error.field, 'preview');
    assert.match(error.message, message);
    return true;
  });
}

describe('inspectPng', () => {
  it('accepts the presets\' previews and reads their size', () => {
    const info = inspectPng(luna);
    assert.ok(info.width > 0 && info.height > 0);
    assert.equal(info.bytes, luna.byteLength);
  });

  it('refuses what is not a PNG, and empty files', () => {
    refused(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'), /must be a PNG image/);
    refused(new Uint8Array(readFileSync(join(repoRoot, 'assets', 'avatars', 'luna-001.vrm'))).subarray(0, 4096), /must be a PNG image/);
    refused(new Uint8Array(0), /is empty/);
  });

  it('refuses a truncated PNG: cut anywhere, it lacks the IEND trailer or even its header', () => {
    refused(luna.subarray(0, 20), /truncated/);
    refused(luna.subarray(0, luna.length - 1), /does not end with the IEND chunk/);
    refused(luna.subarray(0, Math.floor(luna.length / 2)), /does not end with the IEND chunk/);
  });

  it('refuses a broken IHDR, zero or oversized dimensions, and files over the byte limit', () => {
    refused(withHeader((v) => v.setUint32(12, 0x49444154)), /does not start with a 13-byte IHDR chunk/);
    refused(withHeader((v) => v.setUint32(16, 0)), /0 × \d+ pixels/);
    refused(withHeader((v) => v.setUint32(20, PREVIEW_MAX_SIDE + 1)), new RegExp(`at most ${PREVIEW_MAX_SIDE} a side`));
    refused(withHeader((v) => v.setUint8(24, 3)), /colour type \d+ with bit depth 3/);
    refused(withHeader((v) => v.setUint8(26, 1)), /unknown compression/);
    refused(luna, /the limit is 1000/, { maxBytes: 1000 });
  });
});
