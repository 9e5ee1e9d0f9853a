import assert from 'node:assert/strict';
import { it } from 'node:test';
import { UnauthorizedError } from '../../../core/index.js';
import { startCoreService } from '../../support/core-service.js';

const START = Date.UTC(2026, 0, 1);

it('a key revoked behind the service (another process) is refused once the cache entry lapses, and at once when forgotten', async (t) => {
  const { service, clock } = await startCoreService(t, START, { keyCache: { ttlMs: 5_000 } });
  const account = await service.accounts.createAccount({ email: 'cache@example.com', password: 'password-1' });
  const first = await service.accounts.createApiKey(account.id, { name: 'a', mode: 'test' });
  const second = await service.accounts.createApiKey(account.id, { name: 'b', mode: 'test' });
  await service.accounts.authenticateApiKey(first.key);
  await service.accounts.authenticateApiKey(second.key);
  // Straight in the store, as another process sharing it would.
  await service.store.apiKeys.revoke(first.record.id, clock.now());
  await service.store.apiKeys.revoke(second.record.id, clock.now());

  await service.accounts.authenticateApiKey(first.key);
  clock.advance(5_000);
  await assert.rejects(service.accounts.authenticateApiKey(first.key), UnauthorizedError, 'stale for at most the time to live');

  service.accounts.forgetApiKey(second.record.id);
  await assert.rejects(service.accounts.authenticateApiKey(second.key), UnauthorizedError, 'the pub/sub hook drops it at once');
});

it('keeps recording when a cached key was last used, at most once a minute', async (t) => {
  const { service, clock } = await startCoreService(t, START, { keyCache: { ttlMs: 3_600_000 } });
  const account = await service.accounts.createAccount({ email: 'touch@example.com', password: 'password-1' });
  const { record, key } = await service.accounts.createApiKey(account.id, { name: 'a', mode: 'test' });
  await service.accounts.authenticateApiKey(key);
  assert.equal((await service.store.apiKeys.findById(account.id, record.id))?.lastUsedAt, START);
  clock.advance(30_000);
  await service.accounts.authenticateApiKey(key);
  assert.equal((await service.store.apiKeys.findById(account.id, record.id))?.lastUsedAt, START);
  clock.advance(31_000);
  await service.accounts.authenticateApiKey(key);
  assert.equal((await service.store.apiKeys.findById(account.id, record.id))?.lastUsedAt, START + 61_000);
});

it('without the cache (keyCache: false) every authentication reads the store', async (t) => {
  const { service, clock } = await startCoreService(t, START, { keyCache: false });
  const account = await service.accounts.createAccount({ email: 'nocache@example.com', password: 'password-1' });
  const { record, key } = await service.accounts.createApiKey(account.id, { name: 'a', mode: 'test' });
  await service.accounts.authenticateApiKey(key);
  await service.store.apiKeys.revoke(record.id, clock.now());
  await assert.rejects(service.accounts.authenticateApiKey(key), UnauthorizedError);
});
