import { createHmac, timingSafeEqual } from 'node:crypto';
import type { KeyMode } from '../ports/store.js';

/** What a browser session token grants: one conversation of one account, until `exp`. */
export interface SessionClaims {
  /** Account id. */
  a: string;
  /** Key mode the session was minted with. */
  m: KeyMode;
  /** Conversation id. */
  c: string;
  /** Expiry, seconds since the epoch. */
  e: number;
  /** Random nonce, so two sessions for one conversation differ. */
  n: string;
  /** Origins allowed to use the session (those of the key that minted it); absent: any. */
  o?: string[];
  /** Id of the API key that minted the session; absent for sessions the server mints itself (demo). */
  k?: string;
}

const PREFIX = 'sess_';

/**
 * Session tokens are self-contained: `sess_<claims b64url>.<HMAC-SHA256 b64url>`. Verifying one
 * needs no database read (realtime handshakes stay cheap); they are short-lived (≤ 24 h) and stop
 * working for anything but reading once their conversation ends.
 */
export function signSessionToken(claims: SessionClaims, secret: string): string {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${PREFIX}${body}.${mac(body, secret)}`;
}

export function verifySessionToken(token: string, secret: string, nowMs: number): SessionClaims | undefined {
  if (!token.startsWith(PREFIX)) return undefined;
  const [body, signature, extra] = token.slice(PREFIX.length).split('.');
  if (!body || !signature || extra !== undefined) return undefined;
  const expected = Buffer.from(mac(body, secret), 'base64url');
  const actual = Buffer.from(signature, 'base64url');
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<SessionClaims>;
    if (typeof claims.a !== 'string' || typeof claims.c !== 'string' || typeof claims.e !== 'number') return undefined;
    if (claims.m !== 'live' && claims.m !== 'test') return undefined;
    if (claims.k !== undefined && typeof claims.k !== 'string') return undefined;
    if (claims.e * 1000 <= nowMs) return undefined;
    return claims as SessionClaims;
  } catch {
    return undefined;
  }
}

export function looksLikeSessionToken(value: string): boolean {
  return value.startsWith(PREFIX);
}

function mac(body: string, secret: string): string {
  // A distinct label keeps session MACs from ever being valid JWT signatures and vice versa.
  return createHmac('sha256', secret).update(`avatar-session.${body}`).digest('base64url');
}
