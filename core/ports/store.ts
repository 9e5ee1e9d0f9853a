/**
 * The storage port. Services speak only to these repositories; engines (SQLite, PostgreSQL, …)
 * implement them. Every method is async so a network database fits the same shape.
 * Timestamps are milliseconds since the Unix epoch.
 */

export type Tier = 'free' | 'creator' | 'pro' | 'enterprise';
export type KeyMode = 'live' | 'test';

/** Whose data a call may see: an account in one mode. Live and test data never mix. */
export interface Owner {
  accountId: string;
  mode: KeyMode;
}

export interface AccountRecord {
  id: string;
  email: string;
  passwordHash: string;
  tier: Tier;
  rpmOverride: number | null;
  connectionsOverride: number | null;
  createdAt: number;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string;
  mode: KeyMode;
  /** Hex SHA-256 of the key value; the value itself is never stored. */
  hash: string;
  last4: string;
  /** Browser origins allowed to use this key (and sessions minted with it); null: any. */
  allowedOrigins: string[] | null;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export type ConversationStatus = 'active' | 'ended';

export interface ConversationRecord {
  id: string;
  accountId: string;
  mode: KeyMode;
  avatarId: string;
  personaId: string | null;
  status: ConversationStatus;
  aiProvider: string;
  aiModel: string;
  ttsProvider: string;
  voiceId: string;
  systemPrompt: string | null;
  aiTokens: number;
  ttsCharacters: number;
  createdAt: number;
  updatedAt: number;
  endedAt: number | null;
  endReason: string | null;
}

export type MessageRole = 'user' | 'assistant';
/**
 * `interrupted`: the reply was cut off (client gone, barge-in, server stopped); content holds what
 * was said. `streaming`: a reply being written — saved as it grows, so a crash loses nothing;
 * recovered as `interrupted` at the next start.
 */
export type MessageStatus = 'complete' | 'interrupted' | 'streaming';

export interface MessageRecord {
  id: string;
  conversationId: string;
  role: MessageRole;
  content: string;
  status: MessageStatus;
  /** Blob key of the reply's audio, e.g. `aud_….mp3`; null for user messages or without speech. */
  audioKey: string | null;
  /** `aud_…`: prefix of every blob of this reply's speech (sentence clips too), for deletion. */
  audioBase: string | null;
  audioError: string | null;
  aiTokens: number;
  ttsCharacters: number;
  createdAt: number;
}

export interface AccountRepository {
  create(account: AccountRecord): Promise<void>;
  findById(id: string): Promise<AccountRecord | undefined>;
  findByEmail(email: string): Promise<AccountRecord | undefined>;
  update(id: string, patch: Partial<Pick<AccountRecord, 'tier' | 'rpmOverride' | 'connectionsOverride'>>): Promise<void>;
  count(): Promise<number>;
}

export interface ApiKeyRepository {
  create(key: ApiKeyRecord): Promise<void>;
  findByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  findById(accountId: string, id: string): Promise<ApiKeyRecord | undefined>;
  findByIdAnyAccount(id: string): Promise<ApiKeyRecord | undefined>;
  /** The account's keys, oldest first; with `page`, at most `limit` of those whose id sorts after `after`. */
  listByAccount(accountId: string, page?: { limit: number; after?: string }): Promise<ApiKeyRecord[]>;
  revoke(id: string, at: number): Promise<void>;
  touch(id: string, at: number): Promise<void>;
}

export interface ConversationRepository {
  create(conversation: ConversationRecord): Promise<void>;
  /** The conversation if `owner` may see it; undefined otherwise (callers answer 404). */
  find(owner: Owner, id: string): Promise<ConversationRecord | undefined>;
  update(
    id: string,
    patch: Partial<Pick<ConversationRecord, 'status' | 'updatedAt' | 'endedAt' | 'endReason'>>,
  ): Promise<void>;
  addUsage(id: string, usage: { aiTokens: number; ttsCharacters: number }, at: number): Promise<void>;
  /** Active conversations not updated since `before`, for the idle time-out. */
  listIdle(before: number, limit: number): Promise<ConversationRecord[]>;
  delete(id: string): Promise<void>;
}

export type MessagePatch = Partial<Pick<MessageRecord, 'content' | 'status' | 'audioKey' | 'audioBase' | 'audioError' | 'aiTokens' | 'ttsCharacters'>>;

export interface MessageRepository {
  /** Stores a message after every earlier one of its conversation: the order stored is the order listed. */
  create(message: MessageRecord): Promise<void>;
  update(id: string, patch: MessagePatch): Promise<void>;
  delete(id: string): Promise<void>;
  /** The conversation's messages in the order they were stored. */
  listByConversation(conversationId: string): Promise<MessageRecord[]>;
  /** The last `limit` messages, oldest first (what a reply's context needs). */
  listRecent(conversationId: string, limit: number): Promise<MessageRecord[]>;
  /** Messages in a status across conversations, e.g. replies left `streaming` by a crash. */
  listByStatus(status: MessageStatus, limit: number): Promise<MessageRecord[]>;
  deleteByConversation(conversationId: string): Promise<void>;
}

export interface UsageAmounts {
  aiTokens: number;
  ttsCharacters: number;
}

export interface DailyUsage extends UsageAmounts {
  /** UTC date, YYYY-MM-DD. */
  day: string;
}

export interface UsageRepository {
  /** Adds to the owner's counters of `day` (atomic upsert). */
  add(owner: Owner, day: string, amounts: UsageAmounts): Promise<void>;
  /** Days from `from` to `to` inclusive that have usage, oldest first. */
  list(owner: Owner, from: string, to: string): Promise<DailyUsage[]>;
}

export interface Store {
  readonly accounts: AccountRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly conversations: ConversationRepository;
  readonly messages: MessageRepository;
  readonly usage: UsageRepository;
  /** Runs `work` atomically: every write inside commits together or not at all. */
  transaction<T>(work: (store: Store) => Promise<T>): Promise<T>;
  /** Applies pending schema migrations; returns the names applied. */
  migrate(): Promise<string[]>;
  /** Why the store cannot serve right now (no answer, writes failing on a full disk), or undefined when it can. */
  problem(): Promise<string | undefined>;
  close(): Promise<void>;
}
