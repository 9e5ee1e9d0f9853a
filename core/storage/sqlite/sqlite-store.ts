import { Kysely, SqliteDialect } from 'kysely';
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
  return new KyselyStore(new Kysely<Database>({ dialect: new SqliteDialect({ database }) }));
}
