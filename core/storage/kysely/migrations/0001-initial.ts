import type { Kysely, Migration } from 'kysely';

/** Accounts, API keys, conversations and messages. Written for every Kysely dialect we ship. */
export const initial: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('accounts')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('email', 'varchar(320)', (c) => c.notNull().unique())
      .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
      .addColumn('tier', 'varchar(16)', (c) => c.notNull())
      .addColumn('rpm_override', 'integer')
      .addColumn('connections_override', 'integer')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(64)', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('mode', 'varchar(8)', (c) => c.notNull())
      .addColumn('hash', 'char(64)', (c) => c.notNull().unique())
      .addColumn('last4', 'varchar(4)', (c) => c.notNull())
      .addColumn('allowed_origins', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();

    await db.schema
      .createTable('conversations')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(64)', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('mode', 'varchar(8)', (c) => c.notNull())
      .addColumn('avatar_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('persona_id', 'varchar(64)')
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('ai_provider', 'varchar(64)', (c) => c.notNull())
      .addColumn('ai_model', 'varchar(128)', (c) => c.notNull())
      .addColumn('tts_provider', 'varchar(64)', (c) => c.notNull())
      .addColumn('voice_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('system_prompt', 'text')
      .addColumn('ai_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('tts_characters', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('ended_at', 'bigint')
      .addColumn('end_reason', 'varchar(32)')
      .execute();
    await db.schema.createIndex('conversations_owner').on('conversations').columns(['account_id', 'mode']).execute();
    await db.schema.createIndex('conversations_idle').on('conversations').columns(['status', 'updated_at']).execute();

    await db.schema
      .createTable('messages')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('conversation_id', 'varchar(64)', (c) =>
        c.notNull().references('conversations.id').onDelete('cascade'),
      )
      .addColumn('role', 'varchar(16)', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('audio_key', 'varchar(160)')
      .addColumn('audio_base', 'varchar(160)')
      .addColumn('audio_error', 'text')
      .addColumn('ai_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('tts_characters', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('messages_conversation').on('messages').columns(['conversation_id', 'created_at', 'id']).execute();
  },
};
