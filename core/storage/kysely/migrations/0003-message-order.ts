import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';

/**
 * A total order of messages within a conversation: `seq` counts from 1 in the order messages were
 * stored, so two stored in the same millisecond (or across a clock step back) never swap.
 * Existing rows are numbered by their old order (time, then id), in SQL every dialect runs.
 */
export const messageOrder: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('messages').addColumn('seq', 'integer').execute();
    await sql`
      update messages set seq = (
        select count(*) from messages earlier
        where earlier.conversation_id = messages.conversation_id
          and (earlier.created_at < messages.created_at or (earlier.created_at = messages.created_at and earlier.id <= messages.id))
      )`.execute(db);
    await db.schema.createIndex('messages_order').on('messages').columns(['conversation_id', 'seq']).unique().execute();
    await db.schema.createIndex('messages_status').on('messages').column('status').execute();
  },
};
