import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { JWK } from 'jose';
import { io as connectIo } from 'socket.io-client';
import WebSocket from 'ws';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

const ISSUER = 'https://login.example.test/';
const AUDIENCE = 'avatar-service';

type SigningKey = { kid: string; privateKey: CryptoKey; jwk: JWK };

async function signingKey(kid: string, alg: 'ES256' | 'RS256' = 'ES256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

/** A local identity provider's key set endpoint; `keys` is what it publishes now. */
async function startJwksServer(): Promise<{ url: string; keys: JWK[]; fetches: () => number; close(): Promise<void> }> {
  let fetches = 0;
  const state = { keys: [] as JWK[] };
  const server: Server = createServer((req, res) => {
    fetches++;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: state.keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`,
    get keys() {
      return state.keys;
    },
    set keys(value: JWK[]) {
      state.keys = value;
    },
    fetches: () => fetches,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function providerToken(
  key: SigningKey,
  claims: { email?: string; iss?: string; aud?: string; expSecondsFromNow?: number; emailVerified?: boolean } = {},
  alg = key.jwk.alg as string,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const token = new SignJWT({
    ...(claims.email !== undefined && { email: claims.email }),
    ...(claims.emailVerified !== undefined && { email_verified: claims.emailVerified }),
  })
    .setProtectedHeader({ alg, kid: key.kid, typ: 'JWT' })
    .setIssuer(claims.iss ?? ISSUER)
    .setAudience(claims.aud ?? AUDIENCE)
    .setSubject('user-123')
    .setIssuedAt(now - 60)
    .setExpirationTime(now + (claims.expSecondsFromNow ?? 600));
  return token.sign(key.privateKey);
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function errorOf(res: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await res.json()) as { error: { code: string; message: string } };
  return { status: res.status, code: body.error.code, message: body.error.message };
}

describe('Account tokens: the own HS256 tokens through jose, and an external identity provider', () => {
  let jwks: Awaited<ReturnType<typeof startJwksServer>>;
  let t: TestServer;
  let first: SigningKey;
  before(async () => {
    jwks = await startJwksServer();
    first = await signingKey('key-2026-01');
    jwks.keys = [first.jwk];
    t = await startTestServer({
      env: { JWT_JWKS_URL: jwks.url, JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE },
      // Every unknown key fetches the set again at once, so rotation is seen without waiting.
      externalTokens: { refetchCooldownMs: 0 },
    });
  });
  after(async () => {
    await t.close();
    await jwks.close();
  });

  it("accepts the provider's token naming an account's e-mail on the account routes, and caches the key set", async () => {
    const token = await providerToken(first, { email: 'A@Example.com', emailVerified: true });
    const before = jwks.fetches();
    for (const path of ['/v1/api-keys', '/v1/conversations', '/v1/usage/daily']) {
      assert.equal((await t.request(path, { auth: token })).status, 200, path);
    }
    assert.ok(jwks.fetches() - before <= 1, 'the key set is fetched once, then served from the cache');
    const keys = (await (await t.request('/v1/api-keys', { auth: token })).json()) as { api_keys: { name: string }[] };
    assert.deepEqual(keys.api_keys.map((k) => k.name).sort(), ['live A', 'test A'], "account A's keys");
  });

  it('picks up a rotated key: the new kid is accepted after a refetch, the removed one is refused', async () => {
    const old = await providerToken(first, { email: 'a@example.com' });
    assert.equal((await t.request('/v1/api-keys', { auth: old })).status, 200);
    const second = await signingKey('key-2026-02', 'RS256');
    jwks.keys = [second.jwk];
    const before = jwks.fetches();
    const rotated = await providerToken(second, { email: 'a@example.com' });
    assert.equal((await t.request('/v1/api-keys', { auth: rotated })).status, 200);
    assert.ok(jwks.fetches() > before, 'the unknown kid made the set be fetched again');
    const refused = await errorOf(await t.request('/v1/api-keys', { auth: old }));
    assert.deepEqual([refused.status, refused.code], [401, 'unauthorized']);
    assert.match(refused.message, /key the identity provider's key set does not hold/);
    jwks.keys = [first.jwk, second.jwk];
  });

  it('refuses alg none, the wrong issuer or audience, expired tokens and forged signatures with clear 401s', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { email: 'a@example.com', iss: ISSUER, aud: AUDIENCE, sub: 'user-123', iat: now, exp: now + 600 };
    const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;
    const other = await signingKey('key-2026-01'); // same kid, another private key
    const cases: [string, string, RegExp][] = [
      ['alg none', unsigned, /Unsigned tokens \(alg: none\) are not accepted/],
      ['wrong issuer', await providerToken(first, { email: 'a@example.com', iss: 'https://evil.example/' }), /issuer is not https:\/\/login\.example\.test\//],
      ['wrong audience', await providerToken(first, { email: 'a@example.com', aud: 'another-app' }), /audience does not include avatar-service/],
      ['expired', await providerToken(first, { email: 'a@example.com', expSecondsFromNow: -120 }), /has expired/],
      ['forged signature', await providerToken(other, { email: 'a@example.com' }), /signature is invalid/],
      ['no account claim', await providerToken(first, {}), /no 'email' claim/],
      ['unverified e-mail', await providerToken(first, { email: 'a@example.com', emailVerified: false }), /has not verified this e-mail address/],
      ['unknown account', await providerToken(first, { email: 'nobody@example.com' }), /No account has the e-mail address nobody@example.com/],
      ['not a JWT', 'not-a-token', /Malformed token/],
    ];
    for (const [name, token, message] of cases) {
      const error = await errorOf(await t.request('/v1/api-keys', { auth: token }));
      assert.deepEqual([error.status, error.code], [401, 'unauthorized'], name);
      assert.match(error.message, message, name);
    }
  });

  it("refuses an HS256 token keyed with the provider's public key (algorithm confusion)", async () => {
    const publicJwk = JSON.stringify(first.jwk);
    const now = Math.floor(Date.now() / 1000);
    const confused = await new SignJWT({ email: 'a@example.com' })
      .setProtectedHeader({ alg: 'HS256', kid: first.kid })
      .setSubject(t.accountId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(new TextEncoder().encode(publicJwk));
    const error = await errorOf(await t.request('/v1/api-keys', { auth: confused }));
    assert.deepEqual([error.status, error.message], [401, 'The token signature is invalid']);
  });

  it('keeps the own tokens: login answers token and expires_at, which work beside the provider', async () => {
    const res = await t.request('/v1/auth/login', { method: 'POST', json: { email: 'a@example.com', password: 'password-a' }, auth: null });
    const login = (await res.json()) as { token: string; expires_at: string };
    assert.equal(res.status, 200);
    const lifetime = Date.parse(login.expires_at) - Date.now();
    assert.ok(lifetime > 59 * 60_000 && lifetime <= 3600_000, `one hour, got ${lifetime} ms`);
    assert.equal((await t.request('/v1/api-keys', { auth: login.token })).status, 200);
  });

  it('refuses account tokens, own or provider, with one rule on the realtime doors and key-only routes', async () => {
    const own = (await t.service.accounts.issueToken(t.accountId)).token;
    const provider = await providerToken(first, { email: 'a@example.com' });
    const created = (await (await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } })).json()) as { id: string };
    for (const token of [own, provider]) {
      // REST routes that need an API key, SSE included.
      for (const [path, init] of [
        ['/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } }],
        [`/v1/conversations/${created.id}/messages`, { method: 'POST', json: { content: 'Hi', stream: true } }],
      ] as const) {
        const error = await errorOf(await t.request(path, { ...init, auth: token }));
        assert.equal(error.status, 401, path);
        assert.match(error.message, /Account tokens \(JWT\) work on \/v1\/api-keys/, path);
      }
      // The plain WebSocket: the same refusal in the handshake answer.
      const ws = new WebSocket(`${t.url.replace('http', 'ws')}/v1/conversations/${created.id}/ws`, { headers: { authorization: `Bearer ${token}` } });
      const status = await new Promise<number>((resolve, reject) => {
        ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.once('open', () => reject(new Error('opened with an account token')));
        ws.once('error', () => undefined);
      });
      ws.terminate();
      assert.equal(status, 401);
      // socket.io: the same message in the connect error.
      const socket = connectIo(t.url, { path: '/v1/realtime', auth: { token }, transports: ['websocket'], reconnection: false });
      try {
        const error = await new Promise<Error & { data?: { error: { code: string; message: string } } }>((resolve, reject) => {
          socket.once('connect_error', resolve);
          socket.once('connect', () => reject(new Error('connected with an account token')));
        });
        assert.equal(error.data?.error.code, 'unauthorized');
        assert.match(error.data?.error.message ?? '', /Account tokens \(JWT\) work on \/v1\/api-keys/);
      } finally {
        socket.close();
      }
    }
  });

  it('keeps API keys and session tokens off the key management routes', async () => {
    const session = (await (await t.request('/v1/sessions', { method: 'POST', json: { avatar_id: 'luna-001' } })).json()) as { token: string };
    for (const credential of [t.key, session.token]) {
      const error = await errorOf(await t.request('/v1/api-keys', { auth: credential }));
      assert.equal(error.status, 401);
      assert.match(error.message, /Key management needs an account token/);
    }
  });
});

describe('Account tokens without an identity provider', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it("refuses a provider's token by its algorithm, and expired or foreign own tokens with clear messages", async () => {
    const key = await signingKey('k1');
    const error = await errorOf(await t.request('/v1/api-keys', { auth: await providerToken(key, { email: 'a@example.com' }) }));
    assert.deepEqual([error.status, error.message], [401, 'Tokens signed with ES256 are not accepted: account tokens come from POST /v1/auth/login']);

    const now = Math.floor(Date.now() / 1000);
    const secret = new TextEncoder().encode(t.config.jwtSecret);
    const own = (iat: number, exp: number, sub = t.accountId) =>
      new SignJWT({}).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(sub).setIssuedAt(iat).setExpirationTime(exp).sign(secret);
    const expired = await errorOf(await t.request('/v1/api-keys', { auth: await own(now - 7200, now - 3600) }));
    assert.deepEqual([expired.status, expired.message], [401, 'The token has expired: sign in again']);
    const gone = await errorOf(await t.request('/v1/api-keys', { auth: await own(now, now + 600, 'acct_00000000000000000000000000') }));
    assert.deepEqual([gone.status, gone.message], [401, 'The account of this token no longer exists']);
    assert.equal((await t.request('/v1/api-keys', { auth: await own(now, now + 600) })).status, 200, 'a well-signed own token passes');
  });
});
