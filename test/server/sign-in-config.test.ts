import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../server/config.js';

const base = { DATA_DIR: '/tmp/avatar-sign-in-config', JWT_SECRET: 'a-secret-long-enough-for-the-config-check' };
const config = (env: Record<string, string>) => loadConfig({ ...base, ...env });
const provider = { JWT_JWKS_URL: 'https://login.example.com/.well-known/jwks.json', JWT_ISSUER: 'https://login.example.com/', JWT_AUDIENCE: 'avatar-service' };

describe('sign-in configuration', () => {
  it('defaults: no identity provider, sign-up off', () => {
    const dev = config({});
    assert.equal(dev.externalJwt, undefined);
    assert.equal(dev.allowSignup, false);
    assert.equal(config({ ALLOW_SIGNUP: 'true' }).allowSignup, true);
  });

  it('reads the identity provider; the account claim defaults to email', () => {
    assert.deepEqual(config(provider).externalJwt, {
      jwksUrl: 'https://login.example.com/.well-known/jwks.json',
      issuer: 'https://login.example.com/',
      audience: 'avatar-service',
      accountClaim: 'email',
    });
    assert.equal(config({ ...provider, JWT_ACCOUNT_CLAIM: 'https://example.com/claims/email' }).externalJwt?.accountClaim, 'https://example.com/claims/email');
    assert.equal(config({ ...provider, JWT_JWKS_URL: 'http://127.0.0.1:9000/jwks' }).externalJwt?.jwksUrl, 'http://127.0.0.1:9000/jwks', 'http outside production');
  });

  it('stops on an incomplete or unsafe provider setting, naming the variable', () => {
    const { JWT_ISSUER: _issuer, ...noIssuer } = provider;
    const { JWT_AUDIENCE: _audience, ...noAudience } = provider;
    for (const [env, variable] of [
      [noIssuer, 'JWT_ISSUER'],
      [noAudience, 'JWT_AUDIENCE'],
      [{ JWT_ISSUER: 'https://login.example.com/' }, 'JWT_ISSUER'],
      [{ JWT_AUDIENCE: 'avatar-service' }, 'JWT_AUDIENCE'],
      [{ JWT_ACCOUNT_CLAIM: 'email' }, 'JWT_ACCOUNT_CLAIM'],
      [{ ...provider, JWT_JWKS_URL: 'not a url' }, 'JWT_JWKS_URL'],
      [{ ...provider, JWT_JWKS_URL: 'http://login.example.com/jwks', NODE_ENV: 'production' }, 'JWT_JWKS_URL'],
      [{ ...provider, JWT_ACCOUNT_CLAIM: 'two words' }, 'JWT_ACCOUNT_CLAIM'],
      [{ ALLOW_SIGNUP: 'maybe' }, 'ALLOW_SIGNUP'],
    ] as const) {
      assert.throws(() => config(env), (error: unknown) => error instanceof ConfigError && error.variable === variable, JSON.stringify(env));
    }
  });
});
