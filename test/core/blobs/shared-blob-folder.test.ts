// Several server processes share one blob folder (BLOB_DIR): two writer processes overwrite the
// same keys over and over while this process reads them; a reader only ever sees a whole blob
// written by one of them, and no temporary file is left behind.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, it } from 'node:test';
import { FsBlobStore } from '../../../core/index.js';
import { repoRoot } from '../../support/repo-root.js';

const dir = await mkdtemp(join(tmpdir(), 'avatar-shared-blobs-'));
after(() => rm(dir, { recursive: true, force: true }));

const KEYS = ['aud_shared-1.mp3', 'aud_shared-2.mp3'];
const SIZE = 256 * 1024;
const WRITES = 150;

/** A child process that writes every key WRITES times, each blob SIZE bytes of its own letter. */
function writer(letter: string): Promise<void> {
  const core = pathToFileURL(join(repoRoot, 'dist/core/index.js')).href;
  const script = `
    const { FsBlobStore } = await import(${JSON.stringify(core)});
    const store = new FsBlobStore(${JSON.stringify(dir)});
    const blob = new Uint8Array(${SIZE}).fill(${letter.charCodeAt(0)});
    for (let i = 0; i < ${WRITES}; i++) for (const key of ${JSON.stringify(KEYS)}) await store.put(key, blob);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'inherit', 'inherit'] });
  return new Promise((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer ${letter} exited with ${code}`)))));
}

it('two processes writing the same keys in one folder never expose half a blob to a third reading them', async () => {
  const reader = new FsBlobStore(dir);
  let done = false;
  const writers = Promise.all([writer('A'), writer('B')]).finally(() => (done = true));
  const seen = new Set<string>();
  let reads = 0;
  while (!done) {
    for (const key of KEYS) {
      if (!(await reader.stat(key))) continue;
      const chunks: Uint8Array[] = [];
      for await (const chunk of reader.read(key)) chunks.push(chunk);
      const blob = Buffer.concat(chunks);
      assert.equal(blob.length, SIZE, 'a whole blob');
      const letter = String.fromCharCode(blob[0]!);
      assert.ok(blob.every((byte) => byte === blob[0]), 'written by one process only');
      seen.add(letter);
      reads++;
    }
  }
  await writers;
  assert.ok(reads > 0, 'the reader read while the writers wrote');
  assert.ok([...seen].every((letter) => letter === 'A' || letter === 'B'));
  assert.deepEqual((await readdir(dir)).sort(), [...KEYS].sort(), 'no temporary file is left behind');
});
