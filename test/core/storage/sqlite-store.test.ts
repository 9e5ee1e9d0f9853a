import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { createSqliteStore } from '../../../core/index.js';
import { testStoreConformance } from './store-conformance.js';

const dir = await mkdtemp(join(tmpdir(), 'avatar-sqlite-'));
after(() => rm(dir, { recursive: true, force: true }));
let n = 0;

// The SQLite store answers the hot reads with its own prepared statements (core/storage/sqlite/
// sqlite-fast-reads.ts); the generic Kysely repositories answer them on every other engine.
// Both must behave alike.
testStoreConformance('SQLite', async () => {
  const store = await createSqliteStore({ filename: join(dir, `store-${n++}.db`) });
  await store.migrate();
  return store;
});

testStoreConformance('SQLite, generic Kysely reads', async () => {
  const store = await createSqliteStore({ filename: join(dir, `store-${n++}.db`), fastReads: false });
  await store.migrate();
  return store;
});

it('SQLite runs in WAL mode with foreign keys on, in a real file', async () => {
  const filename = join(dir, 'pragmas.db');
  const store = await createSqliteStore({ filename });
  await store.migrate();
  await store.close();
  const db = new BetterSqlite3(filename);
  assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  const tables = db.prepare("select name from sqlite_master where type = 'table' order by name").all() as { name: string }[];
  assert.deepEqual(
    tables.map((t) => t.name).filter((t) => !t.startsWith('kysely_')),
    ['accounts', 'api_keys', 'avatars', 'conversations', 'messages', 'usage_daily', 'webhook_deliveries', 'webhook_outbox', 'webhooks'],
  );
  db.close();
});
