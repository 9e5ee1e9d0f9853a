import { randomBytes, randomFillSync } from 'node:crypto';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';

/** Identifier prefixes (docs/api.md, Identifiers). */
export type IdPrefix = 'acct' | 'key' | 'conv' | 'msg' | 'wh' | 'evt' | 'dlv' | 'req' | 'sess' | 'aud' | 'chat' | 'avf';

/** Makes identifiers `<prefix>_<random>`; injected so tests can make them predictable. */
export interface IdGenerator {
  next(prefix: IdPrefix): string;
}

/** Prefixes whose ids grant access by themselves: never derived from another id. */
const CAPABILITIES: ReadonlySet<IdPrefix> = new Set(['aud', 'sess', 'avf']);

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export interface IdGeneratorOptions {
  /**
   * Prefixes whose ids are UUIDs (version 7: time-ordered) instead of `<prefix>_<ulid>`; the
   * envelope API style uses UUIDs for conversations and messages.
   */
  uuidFor?: readonly IdPrefix[];
}

/**
 * ULID-like ids: 10 characters of millisecond time then 16 random characters, all lower-case
 * Crockford base32, so ids sort by creation time and are URL-safe (`conv_01jd…`).
 */
export function createIdGenerator(clock: Clock = systemClock, options: IdGeneratorOptions = {}): IdGenerator {
  const uuidFor = new Set(options.uuidFor ?? []);
  // Random bytes are drawn from a pool refilled 4 KiB at a time: one `randomBytes` call per id
  // costs a system call, which showed up as a fifth of a minimal request's time.
  const pool = Buffer.allocUnsafe(4096);
  let offset = pool.length;
  // Monotonic within a millisecond (as ULIDs allow), per prefix: a second key id of the same
  // millisecond is the previous one's random part plus one, so records made in order list in
  // order. Ids that are capabilities (audio names, sessions) stay wholly random: a neighbour's id
  // must never tell you theirs.
  const last = new Map<IdPrefix, { time: number; random: Uint8Array }>();
  // The ten time characters, written once per millisecond.
  let timeOfPart = Number.NaN;
  let timePart = '';
  return {
    next(prefix) {
      if (uuidFor.has(prefix)) return uuidV7(clock.now());
      const now = clock.now();
      let state = last.get(prefix);
      if (state && state.time === now && !CAPABILITIES.has(prefix)) increment(state.random);
      else {
        if (!state) last.set(prefix, (state = { time: now, random: new Uint8Array(16) }));
        state.time = now;
        if (offset + 16 > pool.length) {
          randomFillSync(pool);
          offset = 0;
        }
        // 256 is a multiple of 32, so the low 5 bits of a uniform byte are uniform.
        for (let i = 0; i < 16; i++) state.random[i] = pool[offset++]! & 31;
      }
      if (now !== timeOfPart) {
        timeOfPart = now;
        timePart = '';
        for (let i = 0, time = now; i < 10; i++, time = Math.floor(time / 32)) timePart = CROCKFORD[time % 32] + timePart;
      }
      const random = state.random;
      let id = `${prefix}_${timePart}`;
      for (let i = 0; i < 16; i++) id += CROCKFORD[random[i]!];
      return id;
    },
  };
}

/** Adds one to base-32 digits (most significant first); 80 random bits do not run out within a millisecond. */
function increment(digits: Uint8Array): void {
  for (let i = digits.length - 1; i >= 0; i--) {
    if (digits[i]! < 31) {
      digits[i]!++;
      return;
    }
    digits[i] = 0;
  }
}

/** Uniformly random characters of `alphabet` (rejection sampling, no modulo bias). */
export function randomString(length: number, alphabet: string = BASE62): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** RFC 9562 UUID version 7: 48 bits of millisecond time, then random bits. */
function uuidV7(ms: number): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
