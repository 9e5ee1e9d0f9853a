import { importOptional } from '../../util/optional-import.js';
import { Kysely, PostgresDialect } from 'kysely';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type { Store } from '../../ports/store.js';
import { ServiceError } from '../../errors.js';
import type { Database } from '../kysely/database.js';
import { KyselyStore } from '../kysely/kysely-store.js';
import { FailureMonitor } from '../failure-monitor.js';

export interface PostgresStoreSettings {
  /** `postgres://user:password@host:port/database` (libpq-style query options such as `sslmode` pass through). */
  url: string;
  /** Connections the pool keeps at most (per process). Default 10. */
  poolMax?: number;
  /** A statement running longer is cancelled by the server (`statement_timeout`). Default 30 s; 0 turns it off. */
  statementTimeoutMs?: number;
  /** How long to wait for a connection from the pool or the server before failing. Default 10 s. */
  connectTimeoutMs?: number;
  /** An idle pooled connection is closed after this long. Default 30 s. */
  idleTimeoutMs?: number;
}

export const POSTGRES_DEFAULTS = { poolMax: 10, statementTimeoutMs: 30_000, connectTimeoutMs: 10_000, idleTimeoutMs: 30_000 } as const;

/** PostgreSQL's type id for `bigint` (int8): times in epoch milliseconds and counters. */
const INT8_OID = 20;

/**
 * The store for several processes: PostgreSQL through node-postgres (`pg`, imported on first use
 * so SQLite deployments never load it) and Kysely's PostgreSQL dialect, on the same migrations and
 * queries as SQLite. Dialect differences stay in `core/storage`: `bigint` columns come back as
 * numbers (every stored value is an epoch-millisecond time or a counter, far below 2^53), and the
 * webhook queue claims rows with `FOR UPDATE SKIP LOCKED` so concurrent dispatchers never take
 * one delivery twice.
 */
export async function createPostgresStore(settings: PostgresStoreSettings): Promise<Store> {
  const { default: pg } = await importOptional<typeof import('pg')>('pg', 'DATABASE_URL');
  const int8 = (text: string) => Number(text);
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === INT8_OID && format !== 'binary' ? int8 : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
  };
  const statementTimeoutMs = settings.statementTimeoutMs ?? POSTGRES_DEFAULTS.statementTimeoutMs;
  const pool = new pg.Pool({
    connectionString: settings.url,
    max: settings.poolMax ?? POSTGRES_DEFAULTS.poolMax,
    connectionTimeoutMillis: settings.connectTimeoutMs ?? POSTGRES_DEFAULTS.connectTimeoutMs,
    idleTimeoutMillis: settings.idleTimeoutMs ?? POSTGRES_DEFAULTS.idleTimeoutMs,
    ...(statementTimeoutMs > 0 && { statement_timeout: statementTimeoutMs }),
    application_name: 'avatar-service',
    types,
  });
  const monitor = new FailureMonitor();
  // An idle connection the server drops (restart, failover) is reported here; without a listener
  // node-postgres would crash the process. The pool replaces it on the next checkout.
  pool.on('error', (error) => monitor.failed(`a pooled connection failed: ${error.message}`));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: translatingPool(pool, monitor) }) });
  return new KyselyStore(db, { problem: () => monitor.problem(), rowLocks: true });
}

const RETRY_AFTER_S = 5;

/**
 * Failures that mean the database cannot serve right now, not that the request was wrong: the
 * server unreachable or restarting, out of connections or disk, a statement cancelled by the
 * timeout, a serialization conflict worth retrying. SQLSTATE classes 08 (connection), 53
 * (resources), 57 (operator intervention, including 57014 `statement_timeout`), 40001 / 40P01.
 */
function unavailableReason(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code === 'string') {
    if (/^(08|53|57)/.test(code) || code === '40001' || code === '40P01') {
      if (code === '57014') return 'a statement ran past the statement timeout';
      if (code === '53100') return 'the database disk is full';
      return `the database cannot serve (${code}: ${message})`;
    }
    if (/^E(CONNREFUSED|CONNRESET|TIMEDOUT|HOSTUNREACH|NETUNREACH|PIPE|AI_AGAIN)$|^ENOTFOUND$/.test(code)) return `the database cannot be reached (${code})`;
  }
  if (/timeout exceeded when trying to connect|Connection terminated|connection timeout/i.test(message)) return `the database cannot be reached (${message})`;
  return undefined;
}

function translate(error: unknown, monitor: FailureMonitor): unknown {
  const reason = unavailableReason(error);
  if (reason === undefined) return error;
  monitor.failed(reason);
  return new ServiceError('unavailable', 'Storage is temporarily unavailable; try again later', { cause: error, retryAfterS: RETRY_AFTER_S });
}

/** The pool Kysely sees: the same connections, with storage failures translated (see {@link unavailableReason}). */
function translatingPool(pool: import('pg').Pool, monitor: FailureMonitor): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      let client: import('pg').PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw translate(error, monitor);
      }
      return {
        async query(...args: unknown[]) {
          try {
            const result = await (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
            // Like SQLite's monitor: a write that succeeds clears a remembered failure; reads do not.
            if (typeof args[0] === 'string' && !/^\s*select\b/i.test(args[0])) monitor.succeeded();
            return result;
          } catch (error) {
            throw translate(error, monitor);
          }
        },
        release: () => client.release(),
      } as PostgresPoolClient;
    },
    end: () => pool.end(),
  };
}
