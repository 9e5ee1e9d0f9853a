import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { concatMp3 } from '../../../core/audio/concat-mp3.js';
import { FsBlobStore } from '../../../core/blobs/fs-blob-store.js';
import { withJoinedReplyAudio } from '../../../core/conversations/reply-audio-blobs.js';
import type { BlobStore } from '../../../core/ports/blob-store.js';

/** `count` silent MPEG-1 Layer III frames, 128 kbit/s stereo, at 44.1 kHz (417 bytes) or 48 kHz (384 bytes). */
function mp3Frames(count: number, rate: 44100 | 48000 = 44100): Uint8Array {
  const frame = new Uint8Array(rate === 44100 ? 417 : 384);
  frame.set([0xff, 0xfb, rate === 44100 ? 0x90 : 0x94, 0x00]);
  const out = new Uint8Array(frame.length * count);
  for (let i = 0; i < count; i++) out.set(frame, i * frame.length);
  return out;
}

async function readAll(blobs: BlobStore, key: string, range?: { start: number; end: number }): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of blobs.read(key, range)) parts.push(part);
  return new Uint8Array(Buffer.concat(parts));
}

const base = 'aud_0123456789abcdefghjkmnpqrs';

describe('withJoinedReplyAudio', () => {
  async function setup(t: { after(fn: () => Promise<void>): void }) {
    const dir = await mkdtemp(join(tmpdir(), 'reply-audio-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const stored = new FsBlobStore(dir);
    return { dir, stored, blobs: withJoinedReplyAudio(stored) };
  }

  it("serves a reply's whole MP3 joined from its clips, which are all that is stored", async (t) => {
    const { dir, stored, blobs } = await setup(t);
    const clips = [mp3Frames(2), mp3Frames(3), mp3Frames(1)];
    for (const [seq, clip] of clips.entries()) await stored.put(`${base}-${seq}.mp3`, clip);
    const whole = concatMp3(clips);
    assert.equal((await blobs.stat(`${base}.mp3`))?.size, whole.length);
    assert.deepEqual(await readAll(blobs, `${base}.mp3`), whole);
    assert.deepEqual(await readAll(blobs, `${base}.mp3`, { start: 400, end: 900 }), whole.slice(400, 901));
    assert.deepEqual((await readdir(dir)).sort(), [`${base}-0.mp3`, `${base}-1.mp3`, `${base}-2.mp3`]);
    // A clip is still served as itself.
    assert.deepEqual(await readAll(blobs, `${base}-1.mp3`), clips[1]);
  });

  it('follows the clips: another clip, or deleted clips, change what is served', async (t) => {
    const { stored, blobs } = await setup(t);
    await stored.put(`${base}-0.mp3`, mp3Frames(2));
    assert.equal((await blobs.stat(`${base}.mp3`))?.size, 2 * 417);
    await stored.put(`${base}-1.mp3`, mp3Frames(1));
    assert.equal((await blobs.stat(`${base}.mp3`))?.size, 3 * 417);
    await stored.delete(`${base}-0.mp3`);
    await stored.delete(`${base}-1.mp3`);
    assert.equal(await blobs.stat(`${base}.mp3`), undefined);
    await assert.rejects(readAll(blobs, `${base}.mp3`));
  });

  it('serves a stored whole file as it is, and has none for clips of two formats', async (t) => {
    const { stored, blobs } = await setup(t);
    const tts = mp3Frames(5);
    await stored.put(`${base}.mp3`, tts);
    await stored.put(`${base}-0.mp3`, mp3Frames(1));
    assert.deepEqual(await readAll(blobs, `${base}.mp3`), tts);

    const other = 'aud_zyxwvutsrqpnmkjhgfedcba98';
    await stored.put(`${other}-0.mp3`, mp3Frames(2, 44100));
    await stored.put(`${other}-1.mp3`, mp3Frames(2, 48000));
    assert.equal(await blobs.stat(`${other}.mp3`), undefined);
  });
});
