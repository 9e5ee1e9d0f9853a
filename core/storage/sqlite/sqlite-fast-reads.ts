import type Database from 'better-sqlite3';
import type {
  ApiKeyRecord,
  ApiKeyRepository,
  ConversationRecord,
  ConversationRepository,
  ConversationStatus,
  EscalationReason,
  KeyMode,
  MessageRecord,
  MessageRepository,
  MessageRole,
  MessageStatus,
  Owner,
  SafetyCode,
  SafetySettings,
  Store,
} from '../../ports/store.js';
import { DEFAULT_SAFETY } from '../../safety/safety-settings.js';
import type { KyselyStore } from '../kysely/kysely-store.js';

/**
 * The {@link Store} on SQLite: the generic {@link KyselyStore} for everything, except the reads
 * on every request's path — key by digest, key by id (sessions), conversation by owner, its
 * messages, the health probe — which run here as prepared better-sqlite3 statements returning
 * arrays (`.raw()`), mapped by column position. Kysely's executor, its result objects and the
 * per-column object building of the driver cost more than the SQLite engine itself for point
 * reads (bench/README.md, api-throughput). A conversation and its messages are read in one read
 * transaction: one lock instead of one per statement.
 *
 * The connection is the one Kysely uses, so the fast reads see every committed write. While a
 * transaction is open on it (Kysely holds the connection across the awaits of `transaction`),
 * a read here would see its uncommitted writes; such reads go through the generic repositories,
 * which wait for the connection like any other query. Reads inside a transaction go through the
 * transaction's own (generic) store.
 */
export class SqliteStore implements Store {
  readonly accounts: Store['accounts'];
  readonly apiKeys: ApiKeyRepository;
  readonly conversations: ConversationRepository;
  readonly messages: MessageRepository;
  readonly usage: Store['usage'];
  readonly avatars: Store['avatars'];
  readonly webhooks: Store['webhooks'];
  readonly webhookDeliveries: Store['webhookDeliveries'];
  readonly #generic: KyselyStore;
  readonly #database: Database.Database;
  readonly #ping: () => void;
  readonly #engineProblem: () => string | undefined;

  /**
   * `engine.translate` turns an engine error into the store's (storage unavailable → 503);
   * `engine.problem` is the engine's account of failing writes (a full disk).
   */
  constructor(
    generic: KyselyStore,
    database: Database.Database,
    engine: { translate: (error: unknown) => unknown; problem: () => string | undefined },
  ) {
    this.#generic = generic;
    this.#database = database;
    this.#engineProblem = engine.problem;
    const translate = engine.translate;
    // Prepared on first use: the tables exist only once the store is migrated.
    const prepare = (sql: string) => {
      let statement: Database.Statement | undefined;
      return {
        get: (...parameters: unknown[]) => (statement ??= database.prepare(sql).raw(true)).get(...parameters),
        all: (...parameters: unknown[]) => (statement ??= database.prepare(sql).raw(true)).all(...parameters),
      };
    };
    // Each fast read: the generic one while a transaction holds the connection, else the statement.
    const fast = <A extends unknown[], R>(generic: (...args: A) => Promise<R>, read: (...args: A) => R) =>
      (...args: A): Promise<R> => {
        if (database.inTransaction) return generic(...args);
        try {
          return Promise.resolve(read(...args));
        } catch (error) {
          return Promise.reject(translate(error));
        }
      };

    const keyByHash = prepare(`select ${KEY_COLUMNS} from api_keys where hash = ?`);
    const keyById = prepare(`select ${KEY_COLUMNS} from api_keys where id = ?`);
    const keys = generic.apiKeys;
    this.apiKeys = {
      ...keys,
      findByHash: fast(keys.findByHash, (hash) => rowOf(keyByHash.get(hash), toApiKey)),
      findByIdAnyAccount: fast(keys.findByIdAnyAccount, (id) => rowOf(keyById.get(id), toApiKey)),
    };

    const conversationByOwner = prepare(`select ${CONVERSATION_COLUMNS} from conversations where id = ? and account_id = ? and mode = ?`);
    const messagesOf = prepare(`select ${MESSAGE_COLUMNS} from messages where conversation_id = ? order by seq`);
    const settledOf = prepare(`select ${MESSAGE_COLUMNS} from messages where conversation_id = ? and status != 'streaming' order by seq`);
    const recentOf = prepare(`select ${MESSAGE_COLUMNS} from messages where conversation_id = ? order by seq desc limit ?`);
    const find = (owner: Owner, id: string) => rowOf(conversationByOwner.get(id, owner.accountId, owner.mode), toConversation);
    // One read transaction for both statements: one lock, one consistent snapshot. Its own
    // prepared BEGIN / COMMIT: better-sqlite3's `transaction()` wrapper costs more than both.
    let begin: Database.Statement | undefined;
    let commit: Database.Statement | undefined;
    const findWithMessages = (owner: Owner, id: string) => {
      (begin ??= database.prepare('begin')).run();
      try {
        const conversation = find(owner, id);
        const found = conversation && { conversation, messages: (settledOf.all(id) as unknown[][]).map(toMessage) };
        (commit ??= database.prepare('commit')).run();
        return found;
      } catch (error) {
        if (database.inTransaction) database.prepare('rollback').run();
        throw error;
      }
    };
    const conversations = generic.conversations;
    this.conversations = {
      ...conversations,
      find: fast(conversations.find, find),
      findWithMessages: fast(conversations.findWithMessages, (owner, id) => findWithMessages(owner, id)),
    };
    const messages = generic.messages;
    this.messages = {
      ...messages,
      listByConversation: fast(messages.listByConversation, (id) => (messagesOf.all(id) as unknown[][]).map(toMessage)),
      listRecent: fast(messages.listRecent, (id, limit) => (recentOf.all(id, limit) as unknown[][]).map(toMessage).reverse()),
    };

    this.accounts = generic.accounts;
    this.usage = generic.usage;
    this.avatars = generic.avatars;
    this.webhooks = generic.webhooks;
    this.webhookDeliveries = generic.webhookDeliveries;
    const ping = database.prepare('select 1').pluck(true);
    this.#ping = () => void ping.get();
  }

  transaction<T>(work: (store: Store) => Promise<T>): Promise<T> {
    return this.#generic.transaction(work);
  }

  migrate(): Promise<string[]> {
    return this.#generic.migrate();
  }

  close(): Promise<void> {
    return this.#generic.close();
  }

  /** As the generic store's, with the probe a prepared statement (health checks come often). */
  async problem(): Promise<string | undefined> {
    if (!this.#database.open) return 'the database is closed';
    if (this.#database.inTransaction) return this.#generic.problem();
    try {
      this.#ping();
    } catch (error) {
      return `the database does not answer: ${error instanceof Error ? error.message : String(error)}`;
    }
    return this.#engineProblem();
  }
}

function rowOf<T>(row: unknown, map: (row: unknown[]) => T): T | undefined {
  return row === undefined ? undefined : map(row as unknown[]);
}

// Column lists and their mappers: positions must match (the conformance suite reads every field back).
const KEY_COLUMNS = 'id, account_id, name, mode, hash, last4, allowed_origins, created_at, last_used_at, revoked_at';

function toApiKey(r: unknown[]): ApiKeyRecord {
  return {
    id: r[0] as string,
    accountId: r[1] as string,
    name: r[2] as string,
    mode: r[3] as KeyMode,
    hash: r[4] as string,
    last4: r[5] as string,
    allowedOrigins: r[6] === null ? null : (JSON.parse(r[6] as string) as string[]),
    createdAt: r[7] as number,
    lastUsedAt: r[8] as number | null,
    revokedAt: r[9] as number | null,
  };
}

const CONVERSATION_COLUMNS =
  'id, account_id, mode, avatar_id, persona_id, status, ai_provider, ai_model, tts_provider, voice_id, system_prompt, ' +
  'ai_tokens, tts_characters, created_at, updated_at, ended_at, end_reason, safety, escalated_at, escalation_reason';

function toConversation(r: unknown[]): ConversationRecord {
  return {
    id: r[0] as string,
    accountId: r[1] as string,
    mode: r[2] as KeyMode,
    avatarId: r[3] as string,
    personaId: r[4] as string | null,
    status: r[5] as ConversationStatus,
    aiProvider: r[6] as string,
    aiModel: r[7] as string,
    ttsProvider: r[8] as string,
    voiceId: r[9] as string,
    systemPrompt: r[10] as string | null,
    aiTokens: r[11] as number,
    ttsCharacters: r[12] as number,
    createdAt: r[13] as number,
    updatedAt: r[14] as number,
    endedAt: r[15] as number | null,
    endReason: r[16] as string | null,
    safety: r[17] === null ? DEFAULT_SAFETY : (JSON.parse(r[17] as string) as SafetySettings),
    escalatedAt: r[18] as number | null,
    escalationReason: r[19] as EscalationReason | null,
  };
}

const MESSAGE_COLUMNS = 'id, conversation_id, role, content, status, audio_key, audio_base, audio_error, ai_tokens, tts_characters, created_at, safety';
const NO_CODES: readonly SafetyCode[] = Object.freeze([]);

function toMessage(r: unknown[]): MessageRecord {
  return {
    id: r[0] as string,
    conversationId: r[1] as string,
    role: r[2] as MessageRole,
    content: r[3] as string,
    status: r[4] as MessageStatus,
    audioKey: r[5] as string | null,
    audioBase: r[6] as string | null,
    audioError: r[7] as string | null,
    aiTokens: r[8] as number,
    ttsCharacters: r[9] as number,
    createdAt: r[10] as number,
    safety: r[11] === null ? NO_CODES : (JSON.parse(r[11] as string) as SafetyCode[]),
  };
}
