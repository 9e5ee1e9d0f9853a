import { hash } from 'node:crypto';
import type { KeyMode } from '../ports/store.js';
import { randomString } from '../ids.js';

const KEY_SHAPE = /^svc_(live|test)_[0-9A-Za-z]{32,64}$/;

/** A new key value: `svc_live_` / `svc_test_` and 40 random base62 characters (≈238 bits). */
export function generateApiKey(mode: KeyMode): string {
  return `svc_${mode}_${randomString(40)}`;
}

/** What is stored instead of the key: its SHA-256, hex. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export function looksLikeApiKey(value: string): boolean {
  return KEY_SHAPE.test(value);
}

export function modeOfApiKey(key: string): KeyMode {
  return key.startsWith('svc_live_') ? 'live' : 'test';
}

/**
 * Compares two digests (hex, as {@link hashApiKey} writes them) in constant time: every character
 * is looked at whatever differs, and differences are gathered with bitwise OR rather than a
 * branch. The same guarantee as `crypto.timingSafeEqual` without first decoding both strings into
 * buffers, which cost ≈ 1.7 µs of every authenticated request (bench/README.md, api-throughput).
 * Only the length, which is public (64 for SHA-256), ends it early.
 */
export function digestsEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

export function redactApiKey(mode: KeyMode, last4: string): string {
  return `svc_${mode}_…${last4}`;
}
