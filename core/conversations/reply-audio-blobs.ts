import type { BlobInfo, BlobStore, ByteRange } from '../ports/blob-store.js';
import { concatMp3 } from '../audio/concat-mp3.js';

/** `aud_<26>.mp3`: a whole reply's audio, made of its sentence clips `aud_<26>-<seq>.mp3`. */
const WHOLE_REPLY = /^(aud_[0-9a-z]{26})\.mp3$/;

/** Joined replies kept in memory: a download asks for `stat` and then `read`, often with ranges. */
const JOINED_KEPT = 16;

interface Joined {
  /** Sizes and times of the clips it was made from: a clip that changed makes it stale. */
  signature: string;
  bytes: Uint8Array;
  modifiedAt: number;
}

/**
 * The service's blob store as clients read it: a reply's audio is stored once, as its sentence
 * clips (`<base>-0.mp3`, `<base>-1.mp3`, …, what the streaming transports announce and players
 * fetch while the reply is spoken), and its whole-reply file `<base>.mp3` (the message's
 * `audio_url`) is joined from them when asked for (`concatMp3`: frames only, so the result is one
 * valid MP3). A `<base>.mp3` that is stored (synthesis of `POST /v1/tts`, replies stored before
 * this) is served as it is. The few most recent joins are kept, checked against the clips' sizes
 * and times on every `stat`. Everything else passes through unchanged.
 */
export function withJoinedReplyAudio(blobs: BlobStore): BlobStore {
  const joined = new Map<string, Joined>();

  /** The reply joined from its clips; undefined when it has none or they cannot be joined. */
  async function join(base: string): Promise<Joined | undefined> {
    const infos: BlobInfo[] = [];
    for (let seq = 0; ; seq++) {
      const info = await blobs.stat(`${base}-${seq}.mp3`);
      if (!info) break;
      infos.push(info);
    }
    if (infos.length === 0) return undefined;
    const signature = infos.map((info) => `${info.size}:${info.modifiedAt}`).join(',');
    const kept = joined.get(base);
    if (kept?.signature === signature) {
      joined.delete(base); // most recently used last
      joined.set(base, kept);
      return kept;
    }
    const clips: Uint8Array[] = [];
    for (let seq = 0; seq < infos.length; seq++) clips.push(await readAll(blobs, `${base}-${seq}.mp3`));
    let bytes: Uint8Array;
    try {
      bytes = concatMp3(clips);
    } catch {
      return undefined; // clips of two engines (a fallback mid-reply): no whole file, as audio_url says
    }
    const made: Joined = { signature, bytes, modifiedAt: Math.max(...infos.map((info) => info.modifiedAt)) };
    joined.delete(base);
    joined.set(base, made);
    if (joined.size > JOINED_KEPT) joined.delete(joined.keys().next().value!);
    return made;
  }

  return {
    put: (key, data) => blobs.put(key, data),
    async stat(key) {
      const stored = await blobs.stat(key);
      const base = WHOLE_REPLY.exec(key)?.[1];
      if (stored || base === undefined) return stored;
      const whole = await join(base);
      return whole && { size: whole.bytes.length, modifiedAt: whole.modifiedAt };
    },
    async *read(key: string, range?: ByteRange) {
      const base = WHOLE_REPLY.exec(key)?.[1];
      if (base === undefined || (await blobs.stat(key))) {
        yield* blobs.read(key, range);
        return;
      }
      const whole = await join(base);
      if (!whole) {
        yield* blobs.read(key, range); // the store's own not-found error
        return;
      }
      yield range ? whole.bytes.subarray(range.start, range.end + 1) : whole.bytes;
    },
    async delete(key) {
      const base = WHOLE_REPLY.exec(key)?.[1];
      if (base !== undefined) joined.delete(base);
      await blobs.delete(key);
    },
  };
}

async function readAll(blobs: BlobStore, key: string): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of blobs.read(key)) parts.push(part);
  return Buffer.concat(parts);
}
