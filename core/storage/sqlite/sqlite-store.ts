import { Kysely, SqliteDialect } from 'kysely';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Store } from '../../ports/store.js';
import type { Database } from '../kysely/database.js';
import { KyselyStore } from '../kysely/kysely-store.js';

export interface SqliteStoreSettings {
  /** Path of the database file, or `:memory:`. */
  filename: string;
}

/**
 * The embedded default store: one SQLite file through better-sqlite3 (loaded on first use), in
 * WAL mode with foreign keys on. `synchronous=NORMAL` is safe with WAL: a power cut can lose
 * the last commits but never corrupts the file.
 */
export async function createSqliteStore(settings: SqliteStoreSettings): Promise<Store> {
  const { default: BetterSqlite3 } = await import('better-sqlite3');
  if (settings.filename !== ':memory:') await mkdir(dirname(settings.filename), { recursive: true });
  const database = new BetterSqlite3(settings.filename);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  return new KyselyStore(new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) }));
}

const STATEMENT_CACHE_SIZE = 256;

/**
 * Kysely's SQLite driver prepares every query anew; preparing costs about as much as running a
 * point read. The store's queries are a small fixed set, so their statements are kept (the
 * driver runs one query at a time on the connection, so a statement is never used twice at once).
 */
function withStatementCache(database: SqliteDatabase & { prepare(sql: string): SqliteStatement }): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
        statement = database.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
    close: () => database.close(),
  };
}
