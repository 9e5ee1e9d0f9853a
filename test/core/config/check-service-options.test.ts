import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AvatarServiceOptions, BlobStore, Store } from '../../../core/index.js';
import { ConfigurationError, createAvatarService, createLocalProvider, createLocalSpeechProvider, createSqliteStore } from '../../../core/index.js';
import { ConfigError, loadConfig } from '../../../server/config.js';

/** Options that would build a service; the store and blobs are never touched when the check fails. */
function options(overrides: Partial<AvatarServiceOptions>): AvatarServiceOptions {
  return {
    store: {} as Store,
    blobs: {} as BlobStore,
    jwtSecret: 'a-secret-of-at-least-thirty-two-characters',
    aiProviders: [createLocalProvider()],
    speechProviders: [createLocalSpeechProvider()],
    ...overrides,
  };
}

function refusal(overrides: Partial<AvatarServiceOptions>): ConfigurationError {
  try {
    createAvatarService(options(overrides));
  } catch (error) {
    assert.ok(error instanceof ConfigurationError, `a ConfigurationError, got ${String(error)}`);
    return error;
  }
  assert.fail('createAvatarService accepted the options');
}

describe('createAvatarService checks its options at construction', () => {
  it('refuses a missing JWT secret by name instead of failing at the first token', () => {
    const error = refusal({ jwtSecret: undefined as unknown as string });
    assert.equal(error.option, 'jwtSecret');
    assert.match(error.message, /^jwtSecret: is required: at least 32 random characters/);
  });

  it('refuses a short secret with the words the server uses for JWT_SECRET', () => {
    const core = refusal({ jwtSecret: 'short' }).message;
    assert.equal(core, 'jwtSecret: must be at least 32 characters (got 5); e.g. openssl rand -base64 32');
    let server = '';
    try {
      loadConfig({ DATA_DIR: '/tmp/avatar-config-rules', JWT_SECRET: 'short' });
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      server = error.message;
    }
    assert.equal(server.replace(/^JWT_SECRET/, 'jwtSecret'), core);
  });

  it('refuses unknown provider ids in defaults and fallbacks, listing the known ones', () => {
    assert.equal(refusal({ defaultAiProvider: 'opneai' }).message, "defaultAiProvider: 'opneai' is not one of local");
    assert.equal(refusal({ aiFallback: ['local', 'gone'] }).message, "aiFallback: 'gone' is not one of local");
    assert.equal(refusal({ defaultTtsProvider: 'elevenlab' }).message, "defaultTtsProvider: 'elevenlab' is not one of local, browser");
    assert.equal(refusal({ ttsFallback: ['browser'] }).message, "ttsFallback: 'browser' is not one of local");
  });

  it('refuses a provider registered twice', () => {
    assert.equal(refusal({ aiProviders: [createLocalProvider(), createLocalProvider()] }).message, "aiProviders: 'local' is registered twice");
  });

  it('builds the service when the options follow the rules', async () => {
    const store = await createSqliteStore({ filename: ':memory:' });
    const service = createAvatarService(options({ store, defaultAiProvider: 'local', defaultTtsProvider: 'browser', ttsFallback: ['local'] }));
    assert.ok(service.conversations);
    await store.close();
  });
});
