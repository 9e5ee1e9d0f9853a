import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BlobInfo, BlobStore, ByteRange } from '../../core/index.js';
import { FsBlobStore } from '../../core/index.js';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

/** A folder whose disk can be made full: `put` fails with ENOSPC while `full` is set. */
class FillableBlobStore implements BlobStore {
  full = false;
  readonly #inner: FsBlobStore;
  constructor(directory: string) {
    this.#inner = new FsBlobStore(directory);
  }
  async put(key: string, data: Uint8Array): Promise<void> {
    if (this.full) throw Object.assign(new Error(`ENOSPC: no space left on device, write '${key}'`), { code: 'ENOSPC' });
    await this.#inner.put(key, data);
  }
  stat(key: string): Promise<BlobInfo | undefined> {
    return this.#inner.stat(key);
  }
  read(key: string, range?: ByteRange): AsyncIterable<Uint8Array> {
    return this.#inner.read(key, range);
  }
  delete(key: string): Promise<void> {
    return this.#inner.delete(key);
  }
}

/**
 * A full disk is not the client's fault and not a mystery: writes answer 503 `unavailable` with
 * `Retry-After`, `/health` says so, reads keep working, and nothing is half-stored.
 */
describe('Storage faults: a full disk', () => {
  describe('the database file cannot grow', () => {
    let t: TestServer;
    const logged: string[] = [];
    // Enough pages for the schema and the test accounts, and little more.
    before(async () => (t = await startTestServer({ maxPageCount: 40, log: (message) => logged.push(message) })));
    after(() => t.close());

    it('answers 503 with Retry-After, reports it on /health, keeps serving reads, recovers when space returns', async () => {
      const created: string[] = [];
      let refused: Response | undefined;
      const prompt = 'x'.repeat(1900);
      for (let i = 0; i < 500 && !refused; i++) {
        const res = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser', system_prompt: prompt } });
        if (res.status === 201) created.push(((await res.json()) as { id: string }).id);
        else refused = res;
      }
      assert.ok(refused, 'the database filled up');
      assert.ok(created.length > 0);
      assert.equal(refused.status, 503);
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      const body = (await refused.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'unavailable');
      assert.doesNotMatch(body.error.message, /rollback|SQLITE/i, 'no engine internals');
      assert.ok(logged.some((line) => line.includes('unavailable')), 'the operator hears the cause');

      const health = await t.request('/v1/health', { auth: null });
      assert.equal(health.status, 503);
      assert.match(((await health.json()) as { error: { message: string } }).error.message, /disk is full/);

      // Reads still work, and what was refused was not half-stored.
      const read = await t.request(`/v1/conversations/${created[0]}`);
      assert.equal(read.status, 200);
      const message = await t.request(`/v1/conversations/${created[0]}/messages`, { method: 'POST', json: { content: 'hello '.repeat(800) } });
      assert.equal(message.status, 503, 'a message larger than the space left');
      const stored = (await (await t.request(`/v1/conversations/${created[0]}`)).json()) as { messages: unknown[] };
      assert.equal(stored.messages.length, 0, 'a refused message is not stored');

      // Space comes back (deleting conversations frees pages): writes and /health recover.
      for (const id of created.slice(0, Math.ceil(created.length / 2))) {
        assert.equal((await t.request(`/v1/conversations/${id}`, { method: 'DELETE' })).status, 200);
      }
      const again = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser' } });
      assert.equal(again.status, 201);
      assert.equal((await t.request('/v1/health', { auth: null })).status, 200);
    });
  });

  describe('the audio folder cannot be written', () => {
    let t: TestServer;
    let blobs: FillableBlobStore;
    let folder: string;
    before(async () => {
      blobs = new FillableBlobStore((folder = mkdtempSync(join(tmpdir(), 'avatar-blobs-'))));
      t = await startTestServer({ blobs });
    });
    after(async () => {
      await t.close();
      rmSync(folder, { recursive: true, force: true });
    });

    it('POST /v1/tts answers 503 unavailable, not 500', async () => {
      blobs.full = true;
      try {
        const res = await t.request('/v1/tts', { method: 'POST', json: { text: 'Hello there.' } });
        assert.equal(res.status, 503);
        assert.ok(Number(res.headers.get('retry-after')) >= 1);
        assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'unavailable');
      } finally {
        blobs.full = false;
      }
    });

    it('a reply keeps its text and says why it has no audio', async () => {
      const created = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } });
      const { id } = (await created.json()) as { id: string };
      blobs.full = true;
      try {
        const res = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'Hello, who are you?' } });
        assert.equal(res.status, 200);
        const reply = (await res.json()) as { content: string; audio_url: string | null; audio_error?: string };
        assert.ok(reply.content.length > 0);
        assert.equal(reply.audio_url, null);
        assert.match(reply.audio_error ?? '', /unavailable/i);
      } finally {
        blobs.full = false;
      }
    });
  });
});
