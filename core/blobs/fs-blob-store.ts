import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BlobInfo, BlobStore, ByteRange } from '../ports/blob-store.js';
import { isValidBlobKey } from '../ports/blob-store.js';
import { ValidationError, asStorageError } from '../errors.js';

/**
 * Blobs as files in one folder. Keys are validated against a strict flat-name pattern before
 * any path is built, so no key can reach outside `directory`. Writes go to a temporary name and
 * are renamed into place, so a reader never sees half a file.
 */
export class FsBlobStore implements BlobStore {
  readonly #directory: string;
  #ready: Promise<void> | undefined;

  constructor(directory: string) {
    this.#directory = directory;
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    const path = this.#path(key);
    this.#ready ??= mkdir(this.#directory, { recursive: true }).then(() => undefined);
    await this.#ready;
    const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      await writeFile(temporary, data);
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw asStorageError(error);
    }
  }

  async stat(key: string): Promise<BlobInfo | undefined> {
    if (!isValidBlobKey(key)) return undefined;
    try {
      const info = await stat(this.#path(key));
      return info.isFile() ? { size: info.size, modifiedAt: info.mtimeMs } : undefined;
    } catch {
      return undefined;
    }
  }

  async *read(key: string, range?: ByteRange): AsyncIterable<Uint8Array> {
    const stream = createReadStream(this.#path(key), range ? { start: range.start, end: range.end } : {});
    for await (const chunk of stream) yield chunk as Uint8Array;
  }

  async delete(key: string): Promise<void> {
    await rm(this.#path(key), { force: true });
  }

  #path(key: string): string {
    if (!isValidBlobKey(key)) throw new ValidationError('key', `Invalid blob key '${key}'`);
    return join(this.#directory, key);
  }
}

