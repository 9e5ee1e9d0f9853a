/**
 * Where audio (and later uploaded models) live. Keys are flat file names such as
 * `aud_01j…x.mp3`; implementations refuse any other shape, so a key can never address
 * something outside the store.
 */
export interface BlobInfo {
  size: number;
  modifiedAt: number;
}

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

export interface BlobStore {
  put(key: string, data: Uint8Array): Promise<void>;
  stat(key: string): Promise<BlobInfo | undefined>;
  /** Streams the blob or the given inclusive byte range of it. */
  read(key: string, range?: ByteRange): AsyncIterable<Uint8Array>;
  delete(key: string): Promise<void>;
}

const BLOB_KEY = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}(\.[a-z0-9]{1,5}){1,2}$/;

export function isValidBlobKey(key: string): boolean {
  return BLOB_KEY.test(key);
}
