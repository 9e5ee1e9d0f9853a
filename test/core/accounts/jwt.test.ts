import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { generateKeyPair, SignJWT } from 'jose';
import { externalTokenVerifier, signJwt, verifyJwt } from '../../../core/accounts/jwt.js';

const SECRET = 'jwt-unit-tests-secret-0123456789abcdef';

describe('Own account tokens (HS256 through jose)', () => {
  it('round-trips the subject and keeps the claims sub, iat, exp', async () => {
    const token = await signJwt({ sub: 'acct_1', iat: 1_000, exp: 4_600 }, SECRET);
    const [header, payload] = token.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>);
    assert.deepEqual(header, { alg: 'HS256', typ: 'JWT' });
    assert.deepEqual(payload, { sub: 'acct_1', iat: 1_000, exp: 4_600 });
    assert.equal(await verifyJwt(token, SECRET, 2_000_000), 'acct_1');
  });

  it("refuses it at its expiry time (the caller's clock) and under another secret", async () => {
    const token = await signJwt({ sub: 'acct_1', iat: 1_000, exp: 4_600 }, SECRET);
    await assert.rejects(verifyJwt(token, SECRET, 4_600_000), { code: 'unauthorized', message: 'The token has expired: sign in again' });
    await assert.rejects(verifyJwt(token, `${SECRET}-other`, 2_000_000), { code: 'unauthorized', message: 'The token signature is invalid' });
  });

  it('refuses a token without a subject', async () => {
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(1_000).setExpirationTime(4_600).sign(new TextEncoder().encode(SECRET));
    await assert.rejects(verifyJwt(token, SECRET, 2_000_000), { code: 'unauthorized', message: /'sub' claim/ });
  });
});

describe('Identity provider tokens', () => {
  it('answers 503 (retryable) when the key set cannot be fetched', async () => {
    // A port that accepts nothing: taken, then released.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const verify = externalTokenVerifier({ jwksUrl: `http://127.0.0.1:${port}/jwks.json`, issuer: 'https://idp.test/', audience: 'svc' });
    const { privateKey } = await generateKeyPair('ES256');
    const token = await new SignJWT({ email: 'a@example.com' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k' })
      .setIssuer('https://idp.test/')
      .setAudience('svc')
      .setExpirationTime(Math.floor(Date.now() / 1000) + 600)
      .sign(privateKey);
    await assert.rejects(verify(token, Date.now()), { code: 'unavailable', status: 503, isRetryable: true });
  });
});
