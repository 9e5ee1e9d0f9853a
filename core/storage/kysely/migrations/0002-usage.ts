import type { Kysely, Migration } from 'kysely';

/** Daily usage counters per account and mode, for metering and billing. */
export const usage: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('usage_daily')
      .addColumn('account_id', 'varchar(64)', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('mode', 'varchar(8)', (c) => c.notNull())
      .addColumn('day', 'char(10)', (c) => c.notNull())
      .addColumn('ai_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('tts_characters', 'bigint', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('usage_daily_pk', ['account_id', 'mode', 'day'])
      .execute();
  },
};
