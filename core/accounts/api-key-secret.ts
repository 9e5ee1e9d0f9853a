import { hash, timingSafeEqual } from 'node:crypto';
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

/** Compares two hex digests in constant time. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

export function redactApiKey(mode: KeyMode, last4: string): string {
  return `svc_${mode}_…${last4}`;
}
