/**
 * Structural validation of an uploaded avatar preview: a PNG whose header chunk is sound and whose
 * size is bounded. Like `inspectVrm`, it checks the container only — the signature, the IHDR chunk
 * and the IEND trailer, so a file that is not a PNG, or was cut off, is refused before it is
 * stored — and leaves decoding the pixels to the browser that shows it.
 */
import { ValidationError } from '../errors.js';

export interface PngInfo {
  width: number;
  height: number;
  bytes: number;
}

/** A preview is a thumbnail: the presets' are about 100 KB at 512 × 512. */
export const PREVIEW_MAX_BYTES = 2 * 1024 * 1024;
export const PREVIEW_MAX_SIDE = 4096;

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Length 0, 'IEND', and the CRC of 'IEND' (fixed, since the chunk is empty). */
const IEND = [0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];
const IHDR_TYPE = 0x49484452; // 'IHDR'
/** Bit depths each colour type allows (PNG specification, 11.2.2). */
const BIT_DEPTHS: Readonly<Record<number, readonly number[]>> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

/**
 * Checks that `data` is a whole PNG (signature, a 13-byte IHDR chunk first with a known colour
 * type and bit depth, standard compression and filtering, and the IEND chunk at the very end) of
 * at most `maxBytes` bytes and {@link PREVIEW_MAX_SIDE} pixels a side. Failures throw
 * {@link ValidationError} on `field` (default 'preview').
 */
export function inspectPng(data: Uint8Array, options: { maxBytes?: number; field?: string } = {}): PngInfo {
  const field = options.field ?? 'preview';
  const maxBytes = options.maxBytes ?? PREVIEW_MAX_BYTES;
  const fail = (message: string): never => {
    throw new ValidationError(field, `${field} ${message}`);
  };
  const size = data.byteLength;
  if (size > maxBytes) fail(`is ${size} bytes; the limit is ${maxBytes}`);
  if (size === 0) fail('is empty; it must be a PNG image');
  if (!SIGNATURE.slice(0, size).every((byte, i) => data[i] === byte)) fail('must be a PNG image; this is not one');
  // Signature, IHDR (8 + 13 + 4) and IEND (12).
  if (size < SIGNATURE.length + 25 + IEND.length) fail(`is truncated: ${size} bytes cannot hold a PNG header and trailer`);

  const view = new DataView(data.buffer, data.byteOffset, size);
  if (view.getUint32(8) !== 13 || view.getUint32(12) !== IHDR_TYPE) fail('is malformed: it does not start with a 13-byte IHDR chunk');
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  const [bitDepth, colourType, compression, filter, interlace] = data.subarray(24, 29);
  if (width === 0 || height === 0) fail(`is malformed: it is ${width} × ${height} pixels`);
  if (width > PREVIEW_MAX_SIDE || height > PREVIEW_MAX_SIDE) {
    fail(`is ${width} × ${height} pixels; at most ${PREVIEW_MAX_SIDE} a side`);
  }
  if (!BIT_DEPTHS[colourType!]?.includes(bitDepth!)) fail(`is malformed: colour type ${colourType} with bit depth ${bitDepth}`);
  if (compression !== 0 || filter !== 0 || (interlace !== 0 && interlace !== 1)) fail('is malformed: unknown compression, filter or interlace method');
  if (!IEND.every((byte, i) => data[size - IEND.length + i] === byte)) fail('is truncated: it does not end with the IEND chunk');
  return { width, height, bytes: size };
}
