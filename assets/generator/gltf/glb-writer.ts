/**
 * Packs a glTF JSON document and its binary buffer into a GLB container (glTF 2.0 binary):
 * 12-byte header, a JSON chunk padded with spaces, a BIN chunk padded with zeros.
 */
export function writeGlb(json: unknown, bin: Uint8Array): Uint8Array {
  const jsonBytes = new TextEncoder().encode(JSON.stringify(json));
  const jsonLen = align4(jsonBytes.length);
  const binLen = align4(bin.length);
  const total = 12 + 8 + jsonLen + 8 + binLen;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true); // "glTF"
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonLen, true);
  view.setUint32(16, 0x4e4f534a, true); // "JSON"
  out.set(jsonBytes, 20);
  out.fill(0x20, 20 + jsonBytes.length, 20 + jsonLen);
  const binAt = 20 + jsonLen;
  view.setUint32(binAt, binLen, true);
  view.setUint32(binAt + 4, 0x004e4942, true); // "BIN\0"
  out.set(bin, binAt + 8);
  return out;
}

export const align4 = (n: number): number => (n + 3) & ~3;
