import type { Kysely, Migration } from 'kysely';

/**
 * Conversation safety: the settings a conversation was created with (JSON; null on rows from
 * before this migration, read as the defaults), when and why it was handed to a person, and which
 * checks fired on each message (a JSON list of codes; null when none).
 */
export const safety: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('conversations').addColumn('safety', 'text').execute();
    await db.schema.alterTable('conversations').addColumn('escalated_at', 'bigint').execute();
    await db.schema.alterTable('conversations').addColumn('escalation_reason', 'varchar(32)').execute();
    await db.schema.alterTable('messages').addColumn('safety', 'text').execute();
  },
};
