import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import pg from 'pg';
import { DEFAULT_SAFETY, ServiceError, createPostgresStore } from '../../../core/index.js';
import { startPostgres } from '../../support/postgres-engine.js';
import type { PostgresEngine } from '../../support/postgres-engine.js';
import { testStoreConformance } from './store-conformance.js';

// One throwaway cluster for this file; a fresh database per store.
let engine: PostgresEngine;
before(async () => {
  engine = await startPostgres();
});
after(() => engine?.stop());

testStoreConformance('PostgreSQL', async () => {
  const store = await createPostgresStore({ url: await engine.createDatabase(), poolMax: 4 });
  await store.migrate();
  return store;
});

it('PostgreSQL: the migrations make the same tables as on SQLite, with bigint times and an identity outbox key', async () => {
  const url = await engine.createDatabase();
  const store = await createPostgresStore({ url });
  await store.migrate();
  await store.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>("select table_name from information_schema.tables where table_schema = 'public' order by table_name");
    assert.deepEqual(
      tables.rows.map((t) => t.table_name).filter((t) => !t.startsWith('kysely_')),
      ['accounts', 'api_keys', 'avatars', 'conversations', 'messages', 'usage_daily', 'webhook_deliveries', 'webhook_outbox', 'webhooks'],
    );
    const columns = await client.query<{ column_name: string; data_type: string; is_identity: string }>(
      "select column_name, data_type, is_identity from information_schema.columns where table_name = 'webhook_outbox' and column_name = 'seq'",
    );
    assert.deepEqual(columns.rows, [{ column_name: 'seq', data_type: 'bigint', is_identity: 'YES' }]);
  } finally {
    await client.end();
  }
});

it('PostgreSQL: a statement past statement_timeout is cancelled and becomes a 503 `unavailable`; health says why until a write succeeds', async () => {
  const url = await engine.createDatabase();
  const store = await createPostgresStore({ url, statementTimeoutMs: 200 });
  const blocker = new pg.Client({ connectionString: url });
  try {
    await store.migrate();
    assert.equal(await store.problem(), undefined);
    // Another session holds the accounts table, so the store's read waits past its timeout.
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('lock table accounts in access exclusive mode');
    const error = await store.accounts.findById('acct_x').then(
      () => assert.fail('the read should have been cancelled'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ServiceError, String(error));
    assert.equal(error.code, 'unavailable');
    assert.equal(error.status, 503);
    assert.match(String((error.cause as Error).message), /statement timeout/);
    await blocker.query('rollback');
    // The server answers again, but the failure is remembered until a write succeeds.
    assert.equal(await store.accounts.findById('acct_x'), undefined);
    assert.match((await store.problem()) ?? '', /statement timeout/);
    await store.accounts.create({ id: 'acct_x', email: 'x@example.com', passwordHash: 'h', tier: 'free', rpmOverride: null, connectionsOverride: null, createdAt: 1 });
    assert.equal(await store.problem(), undefined);
  } finally {
    await blocker.end().catch(() => undefined);
    await store.close();
  }
});

it('PostgreSQL: an unreachable server is a 503 `unavailable`, not a crash', async () => {
  const store = await createPostgresStore({ url: 'postgres://postgres@127.0.0.1:1/nothing', connectTimeoutMs: 2000 });
  try {
    const error = await store.accounts.findById('acct_x').then(
      () => assert.fail('there is no server'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ServiceError, String(error));
    assert.equal(error.code, 'unavailable');
    assert.match((await store.problem()) ?? '', /does not answer: the database cannot be reached \(ECONNREFUSED\)/);
  } finally {
    await store.close();
  }
});

it('PostgreSQL: two stores (two processes) storing messages in one conversation at once number them 1…n without a gap or a clash', async () => {
  const url = await engine.createDatabase();
  const a = await createPostgresStore({ url, poolMax: 8 });
  const b = await createPostgresStore({ url, poolMax: 8 });
  try {
    await a.migrate();
    await a.accounts.create({ id: 'acct_race', email: 'race@example.com', passwordHash: 'h', tier: 'free', rpmOverride: null, connectionsOverride: null, createdAt: 1 });
    const conversation = {
      id: 'conv_race', accountId: 'acct_race', mode: 'test' as const, avatarId: 'luna-001', personaId: null, status: 'active' as const,
      aiProvider: 'local', aiModel: 'm', ttsProvider: 'local', voiceId: 'v', systemPrompt: null, aiTokens: 0, ttsCharacters: 0,
      createdAt: 1, updatedAt: 1, endedAt: null, endReason: null, safety: DEFAULT_SAFETY, escalatedAt: null, escalationReason: null,
    };
    await a.conversations.create(conversation);
    const message = (n: number) => ({
      id: `msg_race${String(n).padStart(4, '0')}`, conversationId: 'conv_race', role: 'user' as const, content: `m${n}`, status: 'complete' as const,
      audioKey: null, audioBase: null, audioError: null, aiTokens: 0, ttsCharacters: 0, createdAt: 1, safety: [],
    });
    // Half stored alone, half inside a transaction (as a send stores its message with its webhook event).
    await Promise.all(
      Array.from({ length: 60 }, (_, n) => {
        const store = n % 2 === 0 ? a : b;
        return n % 3 === 0 ? store.transaction((tx) => tx.messages.create(message(n))) : store.messages.create(message(n));
      }),
    );
    const stored = await b.messages.listByConversation('conv_race');
    assert.equal(stored.length, 60);
    assert.deepEqual(new Set(stored.map((m) => m.id)).size, 60);
    const page = await b.messages.listPage('conv_race', { limit: 100 });
    assert.equal(page?.length, 60, 'every message has its own place in the order');
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
