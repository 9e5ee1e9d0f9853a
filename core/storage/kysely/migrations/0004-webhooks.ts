import type { Kysely, Migration } from 'kysely';
import { isPostgres } from './engine.js';

/**
 * Webhooks and their transactional outbox (docs/webhooks.md): an outbox row per event and
 * subscribed webhook, written in the transaction of the change that causes the event; the
 * dispatcher moves outbox rows to deliveries and claims each webhook's due deliveries by
 * `(webhook_id, status, next_attempt_at)`.
 */
export const webhooks: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('webhooks')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(64)', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('mode', 'varchar(8)', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('status_reason', 'text')
      .addColumn('status_since', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhooks_owner').on('webhooks').columns(['account_id', 'mode', 'id']).execute();

    // The outbox: what a change writes in its own transaction, one row per event and subscribed
    // webhook with the exact bytes every attempt sends. No secondary index, so storing an event
    // costs one B-tree page; the dispatcher moves rows to webhook_deliveries in batches.
    // `seq` numbers rows in insertion order: SQLite's rowid (an `integer primary key`), an
    // identity column on PostgreSQL.
    await db.schema
      .createTable('webhook_outbox')
      .addColumn('seq', isPostgres(db) ? 'bigint' : 'integer', (c) => (isPostgres(db) ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey()))
      .addColumn('delivery_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('webhook_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('event_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('event_type', 'varchar(64)', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    // Deliveries with their state and log.
    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('webhook_id', 'varchar(64)', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
      .addColumn('event_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('event_type', 'varchar(64)', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'bigint')
      .addColumn('locked_until', 'bigint')
      .addColumn('last_attempt_at', 'bigint')
      .addColumn('last_response_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('last_duration_ms', 'integer')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    // Claims read each webhook's first due deliveries; the log lists a webhook's deliveries by id.
    await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['webhook_id', 'status', 'next_attempt_at']).execute();
    await db.schema.createIndex('webhook_deliveries_log').on('webhook_deliveries').columns(['webhook_id', 'id']).execute();
  },
};
