/**
 * Structural validation of an uploaded avatar model: a `.vrm` file is a glTF 2.0 binary (GLB)
 * whose JSON declares the VRM extension. This checks the container and the declarations only —
 * enough to refuse anything that is not a whole, self-consistent VRM before it is stored — and
 * never reads past the buffer or trusts a length field it has not bounded first. It does not
 * validate meshes, accessors or textures (the Khronos validator does that, far more slowly).
 */
import { ValidationError } from '../errors.js';

export interface VrmInfo {
  /** 'VRMC_vrm' (VRM 1.0) or 'VRM' (0.x) */
  extension: 'VRMC_vrm' | 'VRM';
  version: '1.0' | '0.x';
  /** meta.name (1.0) or meta.title (0.x), when present */
  title?: string;
  bytes: number;
}

/** The JSON chunk is decoded and parsed in one go, so its size is capped before either. */
export const MAX_VRM_JSON_BYTES = 16 * 1024 * 1024;

const GLB_MAGIC = [0x67, 0x6c, 0x54, 0x46]; // 'glTF'
const CHUNK_JSON = 0x4e4f534a; // 'JSON'
const CHUNK_BIN = 0x004e4942; // 'BIN\0'
const HEADER_BYTES = 12;
const CHUNK_HEADER_BYTES = 8;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks that `data` is one whole GLB (12-byte header: magic 'glTF', version 2, length equal to
 * the data's; a JSON chunk first; 4-byte aligned chunk lengths that add up exactly; an optional BIN
 * chunk that holds the GLB-stored buffer) whose JSON is a glTF 2.x document declaring VRMC_vrm
 * (specVersion "1.0") or VRM (0.x), and that it is at most `maxBytes` long. Failures throw
 * {@link ValidationError} on `field` (default 'model'), i.e. 400 `invalid_request`.
 */
export function inspectVrm(data: Uint8Array, options: { maxBytes: number; field?: string }): VrmInfo {
  if (!(options.maxBytes >= 0)) throw new RangeError(`maxBytes must be a non-negative number, got ${options.maxBytes}`);
  const field = options.field ?? 'model';
  const fail = (message: string): never => {
    throw new ValidationError(field, `${field} ${message}`);
  };
  const size = data.byteLength;
  if (size > options.maxBytes) fail(`is ${size} bytes; the limit is ${options.maxBytes}`);
  if (size === 0) fail('is empty; it must be a VRM file (a glTF binary)');

  const view = new DataView(data.buffer, data.byteOffset, size);
  // A file shorter than the magic is "not glTF" unless it is a prefix of it (then it was cut off).
  if (!GLB_MAGIC.slice(0, size).every((byte, i) => data[i] === byte)) {
    fail('must be a VRM file (a glTF binary); this is not a glTF binary');
  }
  if (size < HEADER_BYTES) fail(`is truncated: a glTF binary header is ${HEADER_BYTES} bytes, got ${size}`);
  const version = view.getUint32(4, true);
  if (version !== 2) fail(`is a glTF binary version ${version}; only version 2 (glTF 2.0) is supported`);
  const declared = view.getUint32(8, true);
  if (declared > size) fail(`is truncated: the header says ${declared} bytes, got ${size}`);
  if (declared < size) fail(`has ${size - declared} bytes after the end its header gives (${declared} bytes)`);

  // Walk the chunks; every length is bounded by what remains before it is used.
  let offset = HEADER_BYTES;
  let json: Uint8Array | undefined;
  let binLength: number | undefined;
  for (let index = 0; offset < size; index++) {
    if (size - offset < CHUNK_HEADER_BYTES) fail(`is malformed: chunk ${index} has an incomplete header`);
    const length = view.getUint32(offset, true);
    const type = view.getUint32(offset + 4, true);
    const start = offset + CHUNK_HEADER_BYTES;
    if (length % 4 !== 0) fail(`is malformed: chunk ${index} is ${length} bytes, not a multiple of 4`);
    if (length > size - start) {
      fail(`is malformed: chunk ${index} says ${length} bytes but only ${size - start} remain`);
    }
    if (index === 0 && type !== CHUNK_JSON) fail('is malformed: its first chunk is not the JSON chunk');
    if (index > 0 && type === CHUNK_JSON) fail('is malformed: it has more than one JSON chunk');
    if (type === CHUNK_BIN && index !== 1) fail('is malformed: a BIN chunk may only follow the JSON chunk');
    if (index === 0) json = data.subarray(start, start + length);
    if (type === CHUNK_BIN) binLength = length;
    // Chunks of other types after the first two are ignored, as glTF 2.0 requires of readers.
    offset = start + length;
  }
  if (json === undefined) return fail('is malformed: it has no JSON chunk');
  if (json.byteLength > MAX_VRM_JSON_BYTES) {
    fail(`has a ${json.byteLength}-byte JSON chunk; the limit is ${MAX_VRM_JSON_BYTES}`);
  }

  let gltf: unknown;
  try {
    gltf = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json));
  } catch {
    fail('is malformed: its JSON chunk is not valid UTF-8 JSON');
  }
  if (!isObject(gltf)) return fail('is malformed: its JSON chunk is not a JSON object');
  const asset = gltf['asset'];
  const assetVersion = isObject(asset) ? asset['version'] : undefined;
  if (typeof assetVersion !== 'string' || !/^2\.\d+$/.test(assetVersion)) {
    fail(`is not a glTF 2.x model (asset.version is ${JSON.stringify(assetVersion) ?? 'missing'})`);
  }
  checkBuffers(gltf['buffers'], binLength, fail);
  return { ...findVrm(gltf, fail), bytes: size };
}

/**
 * Buffers must have sane byte lengths, and the one GLB-stored buffer (buffers[0] without a uri)
 * must fit in the BIN chunk — otherwise a loader would read accessors past the end of the file.
 */
function checkBuffers(buffers: unknown, binLength: number | undefined, fail: (message: string) => never): void {
  if (buffers === undefined) return;
  if (!Array.isArray(buffers)) fail('is malformed: buffers is not an array');
  (buffers as unknown[]).forEach((buffer, i) => {
    if (!isObject(buffer)) fail(`is malformed: buffers[${i}] is not an object`);
    const byteLength = buffer['byteLength'];
    if (typeof byteLength !== 'number' || !Number.isSafeInteger(byteLength) || byteLength < 1) {
      fail(`is malformed: buffers[${i}].byteLength is not a positive integer`);
    }
    if (buffer['uri'] !== undefined) return;
    if (i !== 0) fail(`is malformed: buffers[${i}] has no uri, but only buffers[0] can be the BIN chunk`);
    if (binLength === undefined) fail('is malformed: buffers[0] refers to a BIN chunk the file does not have');
    if (byteLength > binLength) {
      fail(`is malformed: buffers[0] is ${byteLength} bytes but the BIN chunk holds only ${binLength}`);
    }
  });
}

/** Finds the VRM declaration: VRMC_vrm 1.0 wins over VRM 0.x when a file carries both. */
function findVrm(gltf: JsonObject, fail: (message: string) => never): Omit<VrmInfo, 'bytes'> {
  const used = Array.isArray(gltf['extensionsUsed']) ? (gltf['extensionsUsed'] as unknown[]) : [];
  const extensions = isObject(gltf['extensions']) ? gltf['extensions'] : {};
  for (const name of ['VRMC_vrm', 'VRM'] as const) {
    const listed = used.includes(name);
    const body = extensions[name];
    if (!listed && body === undefined) continue;
    if (!listed) fail(`is malformed: it has extensions.${name} but does not list ${name} in extensionsUsed`);
    if (!isObject(body)) fail(`is malformed: it lists ${name} in extensionsUsed but extensions.${name} is not an object`);
    const vrm = body;
    if (name === 'VRMC_vrm' && vrm['specVersion'] !== '1.0') {
      fail(`declares VRMC_vrm specVersion ${JSON.stringify(vrm['specVersion']) ?? 'missing'}; only "1.0" is supported`);
    }
    const meta = isObject(vrm['meta']) ? vrm['meta'] : {};
    const title = meta[name === 'VRMC_vrm' ? 'name' : 'title'];
    const info: Omit<VrmInfo, 'bytes'> = { extension: name, version: name === 'VRMC_vrm' ? '1.0' : '0.x' };
    if (typeof title === 'string' && title.trim() !== '') info.title = title;
    return info;
  }
  return fail('has no VRM extension (VRMC_vrm or VRM): it is a plain glTF model');
}
