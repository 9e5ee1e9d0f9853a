import type { Kysely, Migration } from 'kysely';

/**
 * Custom avatars (docs/api.md, Custom avatars): one row per uploaded avatar, its files in the blob
 * store. Ids are the primary key, so two uploads can never take the same `<slug>-<digits>`; the
 * owner index serves the list, and conversations get an index by avatar so deleting an avatar
 * finds the conversations it ends without scanning.
 */
export const customAvatars: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('avatars')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(64)', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('mode', 'varchar(8)', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('tags', 'text', (c) => c.notNull())
      .addColumn('default_voice', 'varchar(32)', (c) => c.notNull())
      .addColumn('animations', 'text', (c) => c.notNull())
      .addColumn('personality', 'text', (c) => c.notNull())
      .addColumn('speaking_style', 'text', (c) => c.notNull())
      .addColumn('model_key', 'varchar(64)', (c) => c.notNull())
      .addColumn('model_bytes', 'bigint', (c) => c.notNull())
      .addColumn('vrm_version', 'varchar(8)', (c) => c.notNull())
      .addColumn('preview_key', 'varchar(64)')
      .addColumn('safety', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('avatars_owner').on('avatars').columns(['account_id', 'mode', 'created_at']).execute();
    await db.schema.createIndex('conversations_avatar').on('conversations').columns(['avatar_id', 'status']).execute();
  },
};
