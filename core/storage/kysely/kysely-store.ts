import { CompiledQuery, Migrator, sql } from 'kysely';
import type { Kysely } from 'kysely';
import type {
  AccountRepository,
  ApiKeyRepository,
  AvatarRepository,
  ConversationRepository,
  MessageRepository,
  Store,
  UsageRepository,
  WebhookDeliveryRepository,
  WebhookRepository,
} from '../../ports/store.js';
import type { Database } from './database.js';
import { migrationProvider } from './migrations/index.js';
import { safetyCodesColumn, toAccount, toApiKey, toConversation, toMessage } from './row-mappers.js';
import { precompile } from './precompiled-query.js';
import { webhookDeliveryRepository, webhookRepository } from './webhook-repositories.js';
import { avatarRepository } from './avatar-repository.js';

/** The liveness probe of {@link KyselyStore.problem}, compiled once. */
const PING = CompiledQuery.raw('select 1');
const P1 = '\u0000p1';
const P2 = '\u0000p2';
const P3 = '\u0000p3';

export interface KyselyStoreOptions {
  /** Inside a transaction: nested `transaction` calls join it. */
  inTransaction?: boolean;
  /** The engine's own account of failing writes (a full disk), for {@link KyselyStore.problem}. */
  problem?: () => string | undefined;
  /**
   * The engine has row locks (`SELECT … FOR UPDATE SKIP LOCKED`, PostgreSQL): queue claims lock
   * the rows they take and pass over rows another transaction holds. Without it (SQLite) the
   * single writer already serializes claims.
   */
  rowLocks?: boolean;
}

/**
 * The {@link Store} on any Kysely dialect. The engine-specific part (opening the connection,
 * pragmas) lives in the engine's folder; this class only builds queries.
 */
export class KyselyStore implements Store {
  readonly accounts: AccountRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly conversations: ConversationRepository;
  readonly messages: MessageRepository;
  readonly usage: UsageRepository;
  readonly avatars: AvatarRepository;
  readonly webhooks: WebhookRepository;
  readonly webhookDeliveries: WebhookDeliveryRepository;
  readonly #db: Kysely<Database>;
  readonly #options: KyselyStoreOptions;

  constructor(db: Kysely<Database>, options: KyselyStoreOptions = {}) {
    this.#db = db;
    this.#options = options;
    this.accounts = accountRepository(db);
    this.apiKeys = apiKeyRepository(db);
    this.messages = messageRepository(db);
    this.conversations = conversationRepository(db, this.messages);
    this.usage = usageRepository(db);
    this.avatars = avatarRepository(db);
    this.webhooks = webhookRepository(db);
    this.webhookDeliveries = webhookDeliveryRepository(db, { rowLocks: options.rowLocks ?? false });
  }

  transaction<T>(work: (store: Store) => Promise<T>): Promise<T> {
    if (this.#options.inTransaction) return work(this);
    return this.#db.transaction().execute((trx) => work(new KyselyStore(trx, { ...this.#options, inTransaction: true })));
  }

  async migrate(): Promise<string[]> {
    const migrator = new Migrator({ db: this.#db, provider: migrationProvider });
    const { error, results = [] } = await migrator.migrateToLatest();
    if (error) throw error;
    return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
  }

  async close(): Promise<void> {
    await this.#db.destroy();
  }

  async problem(): Promise<string | undefined> {
    try {
      await this.#db.executeQuery(PING);
    } catch (error) {
      return `the database does not answer: ${error instanceof Error ? error.message : String(error)}`;
    }
    return this.#options.problem?.();
  }
}

function accountRepository(db: Kysely<Database>): AccountRepository {
  return {
    async create(a) {
      await db
        .insertInto('accounts')
        .values({
          id: a.id,
          email: a.email,
          password_hash: a.passwordHash,
          tier: a.tier,
          rpm_override: a.rpmOverride,
          connections_override: a.connectionsOverride,
          created_at: a.createdAt,
        })
        .execute();
    },
    async findById(id) {
      const row = await db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toAccount(row);
    },
    async findByEmail(email) {
      const row = await db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
      return row && toAccount(row);
    },
    async update(id, patch) {
      await db
        .updateTable('accounts')
        .set({
          ...(patch.tier !== undefined && { tier: patch.tier }),
          ...(patch.rpmOverride !== undefined && { rpm_override: patch.rpmOverride }),
          ...(patch.connectionsOverride !== undefined && { connections_override: patch.connectionsOverride }),
        })
        .where('id', '=', id)
        .execute();
    },
    async count() {
      const row = await db.selectFrom('accounts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

function apiKeyRepository(db: Kysely<Database>): ApiKeyRepository {
  const byHash = precompile(db.selectFrom('api_keys').selectAll().where('hash', '=', P1), [P1]);
  return {
    async create(k) {
      await db
        .insertInto('api_keys')
        .values({
          id: k.id,
          account_id: k.accountId,
          name: k.name,
          mode: k.mode,
          hash: k.hash,
          last4: k.last4,
          allowed_origins: k.allowedOrigins === null ? null : JSON.stringify(k.allowedOrigins),
          created_at: k.createdAt,
          last_used_at: k.lastUsedAt,
          revoked_at: k.revokedAt,
        })
        .execute();
    },
    async findByHash(hash) {
      const [row] = (await byHash.execute(db as Kysely<never>, [hash])).rows;
      return row && toApiKey(row);
    },
    async findById(accountId, id) {
      const row = await db
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return row && toApiKey(row);
    },
    async findByIdAnyAccount(id) {
      const row = await db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toApiKey(row);
    },
    async listByAccount(accountId, page) {
      let query = db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('id');
      if (page?.after !== undefined) query = query.where('id', '>', page.after);
      if (page) query = query.limit(page.limit);
      return (await query.execute()).map(toApiKey);
    },
    async revoke(id, at) {
      await db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    },
    async touch(id, at) {
      await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
    },
  };
}

function conversationRepository(db: Kysely<Database>, messages: MessageRepository): ConversationRepository {
  const byOwner = precompile(
    db.selectFrom('conversations').selectAll().where('id', '=', P1).where('account_id', '=', P2).where('mode', '=', P3),
    [P1, P2, P3],
  );
  return {
    async create(c) {
      await db
        .insertInto('conversations')
        .values({
          id: c.id,
          account_id: c.accountId,
          mode: c.mode,
          avatar_id: c.avatarId,
          persona_id: c.personaId,
          status: c.status,
          ai_provider: c.aiProvider,
          ai_model: c.aiModel,
          tts_provider: c.ttsProvider,
          voice_id: c.voiceId,
          system_prompt: c.systemPrompt,
          ai_tokens: c.aiTokens,
          tts_characters: c.ttsCharacters,
          created_at: c.createdAt,
          updated_at: c.updatedAt,
          ended_at: c.endedAt,
          end_reason: c.endReason,
          safety: JSON.stringify(c.safety),
          escalated_at: c.escalatedAt,
          escalation_reason: c.escalationReason,
        })
        .execute();
    },
    async find(owner, id) {
      const [row] = (await byOwner.execute(db as Kysely<never>, [id, owner.accountId, owner.mode])).rows;
      return row && toConversation(row);
    },
    async findWithMessages(owner, id) {
      const [row] = (await byOwner.execute(db as Kysely<never>, [id, owner.accountId, owner.mode])).rows;
      if (!row) return undefined;
      const conversation = toConversation(row);
      const all = await messages.listByConversation(id);
      return { conversation, messages: all.filter((message) => message.status !== 'streaming') };
    },
    async findById(id) {
      const row = await db.selectFrom('conversations').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toConversation(row);
    },
    async update(id, patch) {
      await db
        .updateTable('conversations')
        .set({
          ...(patch.status !== undefined && { status: patch.status }),
          ...(patch.updatedAt !== undefined && { updated_at: patch.updatedAt }),
          ...(patch.endedAt !== undefined && { ended_at: patch.endedAt }),
          ...(patch.endReason !== undefined && { end_reason: patch.endReason }),
          ...(patch.escalatedAt !== undefined && { escalated_at: patch.escalatedAt }),
          ...(patch.escalationReason !== undefined && { escalation_reason: patch.escalationReason }),
        })
        .where('id', '=', id)
        .execute();
    },
    async addUsage(id, usage, at) {
      await db
        .updateTable('conversations')
        .set((eb) => ({
          ai_tokens: eb('ai_tokens', '+', usage.aiTokens),
          tts_characters: eb('tts_characters', '+', usage.ttsCharacters),
          updated_at: at,
        }))
        .where('id', '=', id)
        .execute();
    },
    async listIdle(before, limit) {
      const rows = await db
        .selectFrom('conversations')
        .selectAll()
        .where('status', 'in', ['active', 'escalated'])
        .where('updated_at', '<', before)
        .orderBy('updated_at')
        .limit(limit)
        .execute();
      return rows.map(toConversation);
    },
    async listActiveByAvatar(owner, avatarId, limit) {
      const rows = await db
        .selectFrom('conversations')
        .selectAll()
        .where('avatar_id', '=', avatarId)
        .where('status', 'in', ['active', 'escalated'])
        .where('account_id', '=', owner.accountId)
        .where('mode', '=', owner.mode)
        .orderBy('created_at')
        .limit(limit)
        .execute();
      return rows.map(toConversation);
    },
    async delete(id) {
      await db.deleteFrom('conversations').where('id', '=', id).execute();
    },
    async listUpdatedBefore(before, limit) {
      const rows = await db.selectFrom('conversations').selectAll().where('updated_at', '<', before).orderBy('updated_at').orderBy('id').limit(limit).execute();
      return rows.map(toConversation);
    },
  };
}

function messageRepository(db: Kysely<Database>): MessageRepository {
  const ofConversation = precompile(
    db.selectFrom('messages').selectAll().where('conversation_id', '=', P1).orderBy('seq'),
    [P1],
  );
  const recentOfConversation = precompile(
    db
      .selectFrom('messages')
      .selectAll()
      .where('conversation_id', '=', P1)
      .orderBy('seq', 'desc')
      .limit(P2 as unknown as number),
    [P1, P2],
  );
  const settled = db.selectFrom('messages').selectAll().where('conversation_id', '=', P1).where('status', '!=', 'streaming');
  const firstPage = precompile(settled.orderBy('seq').limit(P2 as unknown as number), [P1, P2]);
  const pageAfter = precompile(
    settled
      .where('seq', '>', P3 as unknown as number)
      .orderBy('seq')
      .limit(P2 as unknown as number),
    [P1, P2, P3],
  );
  const cursorOf = precompile(db.selectFrom('messages').select('seq').where('conversation_id', '=', P1).where('id', '=', P2), [P1, P2]);
  return {
    async create(m) {
      await db
        .insertInto('messages')
        .values({
          id: m.id,
          conversation_id: m.conversationId,
          role: m.role,
          content: m.content,
          status: m.status,
          audio_key: m.audioKey,
          audio_base: m.audioBase,
          audio_error: m.audioError,
          ai_tokens: m.aiTokens,
          tts_characters: m.ttsCharacters,
          created_at: m.createdAt,
          safety: safetyCodesColumn(m.safety),
          seq: (eb) =>
            eb.selectFrom('messages').select(sql<number>`coalesce(max(seq), 0) + 1`.as('next')).where('conversation_id', '=', m.conversationId),
        })
        .execute();
    },
    async update(id, patch) {
      const row = {
        ...(patch.content !== undefined && { content: patch.content }),
        ...(patch.status !== undefined && { status: patch.status }),
        ...(patch.audioKey !== undefined && { audio_key: patch.audioKey }),
        ...(patch.audioBase !== undefined && { audio_base: patch.audioBase }),
        ...(patch.audioError !== undefined && { audio_error: patch.audioError }),
        ...(patch.aiTokens !== undefined && { ai_tokens: patch.aiTokens }),
        ...(patch.ttsCharacters !== undefined && { tts_characters: patch.ttsCharacters }),
        ...(patch.safety !== undefined && { safety: safetyCodesColumn(patch.safety) }),
      };
      if (Object.keys(row).length > 0) await db.updateTable('messages').set(row).where('id', '=', id).execute();
    },
    async delete(id) {
      await db.deleteFrom('messages').where('id', '=', id).execute();
    },
    async listByStatus(status, limit) {
      const rows = await db.selectFrom('messages').selectAll().where('status', '=', status).orderBy('created_at').limit(limit).execute();
      return rows.map(toMessage);
    },
    async listByConversation(conversationId) {
      const { rows } = await ofConversation.execute(db as Kysely<never>, [conversationId]);
      return rows.map(toMessage);
    },
    async listRecent(conversationId, limit) {
      const { rows } = await recentOfConversation.execute(db as Kysely<never>, [conversationId, limit]);
      return rows.map(toMessage).reverse();
    },
    async listPage(conversationId, page) {
      if (page.after === undefined) return (await firstPage.execute(db as Kysely<never>, [conversationId, page.limit])).rows.map(toMessage);
      // Keyset paging on the stored order: the cursor's position, then the rows after it.
      const [cursor] = (await cursorOf.execute(db as Kysely<never>, [conversationId, page.after])).rows;
      if (!cursor) return undefined;
      return (await pageAfter.execute(db as Kysely<never>, [conversationId, page.limit, cursor.seq])).rows.map(toMessage);
    },
    async deleteByConversation(conversationId) {
      await db.deleteFrom('messages').where('conversation_id', '=', conversationId).execute();
    },
    async listWithAudioBefore(before, limit) {
      const rows = await db
        .selectFrom('messages')
        .selectAll()
        .where('audio_base', 'is not', null)
        .where('status', '!=', 'streaming')
        .where('created_at', '<', before)
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(toMessage);
    },
  };
}

function usageRepository(db: Kysely<Database>): UsageRepository {
  return {
    async add(owner, day, amounts) {
      await db
        .insertInto('usage_daily')
        .values({ account_id: owner.accountId, mode: owner.mode, day, ai_tokens: amounts.aiTokens, tts_characters: amounts.ttsCharacters })
        .onConflict((oc) =>
          oc.columns(['account_id', 'mode', 'day']).doUpdateSet((eb) => ({
            ai_tokens: eb('usage_daily.ai_tokens', '+', eb.ref('excluded.ai_tokens')),
            tts_characters: eb('usage_daily.tts_characters', '+', eb.ref('excluded.tts_characters')),
          })),
        )
        .execute();
    },
    async list(owner, from, to) {
      const rows = await db
        .selectFrom('usage_daily')
        .selectAll()
        .where('account_id', '=', owner.accountId)
        .where('mode', '=', owner.mode)
        .where('day', '>=', from)
        .where('day', '<=', to)
        .orderBy('day')
        .execute();
      return rows.map((r) => ({ day: r.day, aiTokens: Number(r.ai_tokens), ttsCharacters: Number(r.tts_characters) }));
    },
  };
}
