import type { Kysely, Migration } from 'kysely';

/**
 * The account's conversations newest first (`ConversationRepository.listPage`) and per creation
 * day (`countByDay`): an index in that order, so a page reads its rows instead of sorting them all.
 */
export const conversationList: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('conversations_by_created').on('conversations').columns(['account_id', 'created_at', 'id']).execute();
  },
};
