import { Kysely, SqliteDialect } from 'kysely';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Store } from '../../ports/store.js';
import { ServiceError } from '../../errors.js';
import type { Database } from '../kysely/database.js';
import { KyselyStore } from '../kysely/kysely-store.js';
import { SqliteStore } from './sqlite-fast-reads.js';
import { FailureMonitor } from '../failure-monitor.js';

export interface SqliteStoreSettings {
  /** Path of the database file, or `:memory:`. */
  filename: string;
  /** Caps the file at this many pages (4 KiB each): a full disk, on purpose (tests, quotas). */
  maxPageCount?: number;
  /**
   * false: every read through the generic Kysely repositories, as on any other engine (the
   * conformance suite runs both ways; benchmarks compare them). Default true: the hot reads as
   * prepared raw statements ({@link SqliteStore}).
   */
  fastReads?: boolean;
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
  if (settings.maxPageCount !== undefined) database.pragma(`max_page_count = ${Math.floor(settings.maxPageCount)}`);
  const monitor = new FailureMonitor();
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database, monitor) }) });
  const generic = new KyselyStore(db, { problem: () => monitor.problem() });
  if (settings.fastReads === false) return generic;
  return new SqliteStore(generic, database, { translate: (error) => unavailable(error, monitor), problem: () => monitor.problem() });
}

const STATEMENT_CACHE_SIZE = 256;

/**
 * SQLite result codes that mean the storage cannot serve right now — a full disk, an I/O error, a
 * read-only or vanished file, a lock held too long — not that the request was wrong. They become
 * 503 `unavailable` with a retry delay; the cause stays attached for the operator's log.
 */
const UNAVAILABLE = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|BUSY|LOCKED|NOMEM|PROTOCOL)/;
const RETRY_AFTER_S = 30;


function unavailable(error: unknown, monitor: FailureMonitor): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !UNAVAILABLE.test(code)) return error;
  const reason = code.startsWith('SQLITE_FULL') ? 'the disk is full' : `the database cannot be written (${code})`;
  monitor.failed(reason);
  return new ServiceError('unavailable', 'Storage is temporarily unavailable; try again later', { cause: error, retryAfterS: RETRY_AFTER_S });
}

/**
 * Kysely's SQLite driver prepares every query anew; preparing costs about as much as running a
 * point read. The store's queries are a small fixed set, so their statements are kept (the
 * driver runs one query at a time on the connection, so a statement is never used twice at once).
 * Statements also translate storage failures (see {@link UNAVAILABLE}) and tell the monitor how
 * writes fare. A `rollback` after SQLite already rolled back by itself (it does on a full disk)
 * is not an error: the original failure is the one the caller hears of.
 */
function withStatementCache(database: SqliteDatabase & { prepare(sql: string): SqliteStatement; readonly inTransaction: boolean }, monitor: FailureMonitor): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  const guarded = (sql: string, statement: SqliteStatement): SqliteStatement => ({
    get reader() {
      return statement.reader;
    },
    all: (parameters) => {
      try {
        return statement.all(parameters);
      } catch (error) {
        throw unavailable(error, monitor);
      }
    },
    run: (parameters) => {
      try {
        const result = statement.run(parameters);
        monitor.succeeded();
        return result;
      } catch (error) {
        if (sql === 'rollback' && !database.inTransaction) return { changes: 0, lastInsertRowid: 0 };
        throw unavailable(error, monitor);
      }
    },
    iterate: (parameters) => statement.iterate(parameters),
  });
  return {
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
        try {
          statement = guarded(sql, database.prepare(sql));
        } catch (error) {
          throw unavailable(error, monitor);
        }
        statements.set(sql, statement);
      }
      return statement;
    },
    close: () => database.close(),
  };
}
