import { PostgresAdapter } from 'kysely';
import type { Kysely } from 'kysely';

/**
 * Whether a migration runs on PostgreSQL. Migrations are written once for every engine; the few
 * places where the engines need different DDL (an auto-numbered key) ask this.
 */
export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
