import { createHmac, timingSafeEqual } from 'node:crypto';

/** Claims of the HS256 tokens the service mints for dashboard / key-management use. */
export interface JwtClaims {
  sub: string;
  iat: number;
  exp: number;
  iss?: string;
  aud?: string;
}

function base64url(input: Buffer | string): string {
  return Buffer.from(input).toString('base64url');
}

export function signJwt(claims: JwtClaims, secret: string): string {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64url(JSON.stringify(claims));
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

/**
 * Verifies an HS256 JWT's signature (constant time) and expiry; returns its claims or undefined.
 * Only HS256 is accepted, so an `alg: none` token never passes.
 */
export function verifyJwt(token: string, secret: string, nowMs: number): JwtClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest();
  const actual = Buffer.from(signature, 'base64url');
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return undefined;
  try {
    const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown };
    if (head.alg !== 'HS256') return undefined;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<JwtClaims>;
    if (typeof claims.sub !== 'string' || typeof claims.exp !== 'number' || typeof claims.iat !== 'number') return undefined;
    if (claims.exp * 1000 <= nowMs) return undefined;
    return claims as JwtClaims;
  } catch {
    return undefined;
  }
}
