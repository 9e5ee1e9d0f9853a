import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { BlobStore, ByteRange } from '../../../core/index.js';
import { FsBlobStore, isValidBlobKey } from '../../../core/index.js';

const root = await mkdtemp(join(tmpdir(), 'avatar-blobs-'));
after(() => rm(root, { recursive: true, force: true }));
let n = 0;

/** A store in a folder of its own (not created yet), inside a parent folder of its own. */
async function fresh() {
  const parent = join(root, `case-${n++}`);
  await mkdir(parent);
  const directory = join(parent, 'blobs');
  return { store: new FsBlobStore(directory), directory, parent };
}

async function readAll(store: BlobStore, key: string, range?: ByteRange): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of store.read(key, range)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const bytes = (length: number, seed = 1) => Uint8Array.from({ length }, (_, i) => (i * 31 + seed) & 0xff);

describe('FsBlobStore', () => {
  it('puts, stats, reads and deletes a blob', async () => {
    const { store, directory } = await fresh();
    const data = bytes(1000);
    await store.put('aud_01abc.mp3', data);
    const info = await store.stat('aud_01abc.mp3');
    assert.equal(info?.size, 1000);
    assert.ok(info && info.modifiedAt > 0);
    assert.deepEqual(await readAll(store, 'aud_01abc.mp3'), Buffer.from(data));
    assert.deepEqual(await readFile(join(directory, 'aud_01abc.mp3')), Buffer.from(data), 'a plain file under its key');
    await store.delete('aud_01abc.mp3');
    assert.equal(await store.stat('aud_01abc.mp3'), undefined);
    await assert.rejects(readAll(store, 'aud_01abc.mp3'), { code: 'ENOENT' });
  });

  it('creates its folder on the first put, and answers undefined / nothing for missing blobs', async () => {
    const { store, directory } = await fresh();
    assert.equal(await store.stat('missing.mp3'), undefined);
    await store.delete('missing.mp3');
    assert.equal(existsSync(directory), false, 'reads and deletes create nothing');
    await store.put('first.bin', bytes(3));
    assert.equal(existsSync(directory), true);
  });

  it('replaces a blob put again under the same key', async () => {
    const { store } = await fresh();
    await store.put('clip-0.mp3', bytes(500, 1));
    await store.put('clip-0.mp3', bytes(20, 2));
    assert.equal((await store.stat('clip-0.mp3'))?.size, 20);
    assert.deepEqual(await readAll(store, 'clip-0.mp3'), Buffer.from(bytes(20, 2)));
  });

  it('stores an empty blob', async () => {
    const { store } = await fresh();
    await store.put('empty.txt', new Uint8Array(0));
    assert.equal((await store.stat('empty.txt'))?.size, 0);
    assert.equal((await readAll(store, 'empty.txt')).length, 0);
  });

  it('reads inclusive byte ranges', async () => {
    const { store } = await fresh();
    const data = Buffer.from(bytes(200_000));
    await store.put('big.mp3', data);
    assert.deepEqual(await readAll(store, 'big.mp3', { start: 0, end: 0 }), data.subarray(0, 1));
    assert.deepEqual(await readAll(store, 'big.mp3', { start: 10, end: 19 }), data.subarray(10, 20));
    assert.deepEqual(await readAll(store, 'big.mp3', { start: 199_999, end: 199_999 }), data.subarray(199_999));
    assert.deepEqual(await readAll(store, 'big.mp3', { start: 65_000, end: 140_000 }), data.subarray(65_000, 140_001), 'across read chunks');
    assert.deepEqual(await readAll(store, 'big.mp3', { start: 0, end: 199_999 }), data);
  });

  it('leaves no temporary files after puts, even concurrent ones of one key', async () => {
    const { store, directory } = await fresh();
    await store.put('a.mp3', bytes(10));
    await store.put('b.mp3', bytes(10_000));
    const versions = Array.from({ length: 8 }, (_, i) => bytes(5000 + i, i));
    await Promise.all(versions.map((data) => store.put('same.mp3', data)));
    assert.deepEqual((await readdir(directory)).sort(), ['a.mp3', 'b.mp3', 'same.mp3']);
    const final = await readAll(store, 'same.mp3');
    assert.ok(versions.some((v) => Buffer.from(v).equals(final)), 'one whole version wins');
  });

  it('removes its temporary file when a put fails', async () => {
    const { store, directory } = await fresh();
    await store.put('ok.mp3', bytes(1));
    await mkdir(join(directory, 'taken.mp3')); // a folder where the blob would go
    await assert.rejects(store.put('taken.mp3', bytes(100)));
    assert.deepEqual((await readdir(directory)).sort(), ['ok.mp3', 'taken.mp3']);
  });

  it('refuses keys that are not flat file names, without touching the file system', async () => {
    const { store, directory, parent } = await fresh();
    // Files a path-traversing key would reach.
    await writeFile(join(parent, 'secret.mp3'), 'secret');
    await mkdir(join(parent, 'sub'));
    await writeFile(join(parent, 'sub', 'x.mp3'), 'nested');
    const invalid = [
      '../secret.mp3',
      '..',
      '../x',
      'a/b',
      'a/b.mp3',
      '../blobs/../secret.mp3',
      'a\\b.mp3',
      '/etc/passwd',
      '.hidden.mp3',
      '',
      'noextension',
      'x.MP3',
      'a.b.c.d',
      'aud x.mp3',
      'a.mp3\0',
      `${'a'.repeat(129)}.mp3`,
      join(parent, 'secret.mp3'),
    ];
    for (const key of invalid) {
      assert.equal(isValidBlobKey(key), false, key);
      await assert.rejects(store.put(key, bytes(4)), { code: 'invalid_request', field: 'key' }, `put ${key}`);
      await assert.rejects(readAll(store, key), { code: 'invalid_request' }, `read ${key}`);
      await assert.rejects(store.delete(key), { code: 'invalid_request' }, `delete ${key}`);
      assert.equal(await store.stat(key), undefined, `stat ${key}`);
    }
    assert.equal(existsSync(directory), false, 'the store folder was never created');
    assert.equal(await readFile(join(parent, 'secret.mp3'), 'utf8'), 'secret');
    assert.equal(await readFile(join(parent, 'sub', 'x.mp3'), 'utf8'), 'nested');
    assert.deepEqual((await readdir(parent)).sort(), ['secret.mp3', 'sub']);
  });

  it('accepts the key shapes the service makes', async () => {
    const { store } = await fresh();
    for (const key of ['aud_01jd5z6r9q.mp3', 'aud_01jd5z6r9q-12.mp3', 'model.vrm', 'archive.tar.gz', `${'a'.repeat(128)}.mp3`]) {
      assert.equal(isValidBlobKey(key), true, key);
      await store.put(key, bytes(2));
      assert.equal((await store.stat(key))?.size, 2, key);
    }
  });

  it('stat answers undefined for a folder under a valid key', async () => {
    const { store, directory } = await fresh();
    await store.put('x.mp3', bytes(1));
    await mkdir(join(directory, 'folder.mp3'));
    assert.equal(await store.stat('folder.mp3'), undefined);
  });
});
