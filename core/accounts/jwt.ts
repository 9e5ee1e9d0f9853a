import { createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify, SignJWT } from 'jose';
import type { JWTPayload } from 'jose';
import { ServiceError, UnauthorizedError } from '../errors.js';

/** Claims of the HS256 tokens the service mints for dashboard / key-management use. */
export interface JwtClaims {
  sub: string;
  iat: number;
  exp: number;
}

/** Signs an account token with the service's own secret (HS256). */
export function signJwt(claims: JwtClaims, secret: string): Promise<string> {
  return new SignJWT({}).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(claims.sub).setIssuedAt(claims.iat).setExpirationTime(claims.exp).sign(secretKey(secret));
}

/**
 * Verifies a token the service signed itself: HS256 only (so `alg: none` and keys of other
 * algorithms never pass), a subject, and not expired at `nowMs`. Returns the account id, or throws
 * a 401 that says what is wrong.
 */
export async function verifyJwt(token: string, secret: string, nowMs: number): Promise<string> {
  try {
    const { payload } = await jwtVerify(token, secretKey(secret), { algorithms: ['HS256'], currentDate: new Date(nowMs), requiredClaims: ['sub', 'iat', 'exp'] });
    return payload.sub!;
  } catch (error) {
    throw refusal(error);
  }
}

/** Public-key algorithms accepted from an identity provider; symmetric ones never (the key set is public). */
const PROVIDER_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

export interface ExternalTokenOptions {
  /** The identity provider's JSON Web Key Set, e.g. `https://login.example.com/.well-known/jwks.json`. */
  jwksUrl: string;
  /** The `iss` every token must carry. */
  issuer: string;
  /** An `aud` every token must carry (this service's identifier at the provider). */
  audience: string;
  /** The claim holding the account holder's e-mail address (default `email`). */
  accountClaim?: string;
  /**
   * A token signed with a key the cached set lacks makes the set be fetched again, at most once
   * per this many ms (default 30 s): how fast a rotated key is picked up.
   */
  refetchCooldownMs?: number;
  /** The key set is fetched again after this long even without an unknown key (default 10 min). */
  cacheMaxAgeMs?: number;
  /** Time allowed to fetch the key set (default 5 s). */
  timeoutMs?: number;
}

/** Verifies tokens of an external identity provider and returns the account e-mail they name. */
export type ExternalTokenVerifier = (token: string, nowMs: number) => Promise<string>;

/**
 * Verifies tokens against an identity provider's key set (fetched lazily, cached, fetched again when
 * a token names a key it lacks, so rotation needs no restart), its issuer and audience.
 */
export function externalTokenVerifier(options: ExternalTokenOptions): ExternalTokenVerifier {
  const keys = createRemoteJWKSet(new URL(options.jwksUrl), {
    cooldownDuration: options.refetchCooldownMs ?? 30_000,
    cacheMaxAge: options.cacheMaxAgeMs ?? 600_000,
    timeoutDuration: options.timeoutMs ?? 5_000,
  });
  const claim = options.accountClaim ?? 'email';
  return async (token, nowMs) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        algorithms: PROVIDER_ALGORITHMS,
        issuer: options.issuer,
        audience: options.audience,
        currentDate: new Date(nowMs),
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      throw refusal(error, options);
    }
    const value = payload[claim];
    if (typeof value !== 'string' || value === '') throw new UnauthorizedError(`The token has no '${claim}' claim naming the account`);
    // An address the provider says it has not verified could be anyone's (OpenID Connect `email_verified`).
    if (payload.email_verified === false) throw new UnauthorizedError('The identity provider has not verified this e-mail address');
    return value;
  };
}

/** The algorithm a token's header names, or a 401 when it has no readable header. */
export function algorithmOf(token: string): string {
  let alg: unknown;
  try {
    alg = decodeProtectedHeader(token).alg;
  } catch {
    throw new UnauthorizedError('Malformed token: expected a JWT (header.payload.signature)');
  }
  if (typeof alg !== 'string') throw new UnauthorizedError('Malformed token: its header names no algorithm');
  return alg;
}

function secretKey(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/** A clear 401 (or 503 when the provider's key set cannot be fetched) for a token jose refused. */
function refusal(error: unknown, provider?: ExternalTokenOptions): ServiceError {
  if (error instanceof errors.JWTExpired) return new UnauthorizedError('The token has expired: sign in again');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss' && provider) return new UnauthorizedError(`The token's issuer is not ${provider.issuer}`);
    if (error.claim === 'aud' && provider) return new UnauthorizedError(`The token's audience does not include ${provider.audience}`);
    return new UnauthorizedError(`The token's '${error.claim}' claim is missing or invalid (${error.reason})`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return new UnauthorizedError('The token is signed with an algorithm that is not accepted');
  if (error instanceof errors.JWKSNoMatchingKey) return new UnauthorizedError("The token is signed with a key the identity provider's key set does not hold");
  if (error instanceof errors.JWSSignatureVerificationFailed) return new UnauthorizedError('The token signature is invalid');
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || (provider && !(error instanceof errors.JOSEError))) {
    return new ServiceError('unavailable', "The identity provider's key set could not be fetched; try again later", { cause: error, isRetryable: true, retryAfterS: 5 });
  }
  return new UnauthorizedError('Malformed token: expected a signed JWT');
}
