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

/** `escalated`: handed to a person (the conversation goes on; the status says a human is needed). */
export type ConversationStatus = 'active' | 'escalated' | 'ended';

/** Which safety checks fired on a message (docs/safety.md); the checks live in core/safety. */
export type SafetyCode = 'severe_content' | 'escalation_requested' | 'topic_blocked' | 'moderation_flagged' | 'filter_triggered';

/** Why a conversation was handed to a person. */
export type EscalationReason = 'requested' | 'frustration' | 'severe_content';

export type SafetyFilterLevel = 'off' | 'standard' | 'strict';

/** A topic the avatar refuses; a message matching any keyword (word or phrase) is blocked. */
export interface BlockedTopic {
  name: string;
  keywords: readonly string[];
}

/** A conversation's safety settings, fixed when it is created. */
export interface SafetySettings {
  blockedTopics: readonly BlockedTopic[];
  filter: SafetyFilterLevel;
  escalation: { enabled: boolean; message: string };
  /** What the avatar says instead of answering a blocked topic or filtered request. */
  refusal: string;
}

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
  safety: SafetySettings;
  escalatedAt: number | null;
  escalationReason: EscalationReason | null;
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
  /** The safety checks that fired on this message, in the order of {@link SafetyCode}. */
  safety: readonly SafetyCode[];
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
  /**
   * The conversation if `owner` may see it, with its settled messages (not `streaming`) in the
   * order stored, read together (one consistent read where the engine allows it); undefined when
   * `owner` may not see it.
   */
  findWithMessages(owner: Owner, id: string): Promise<{ conversation: ConversationRecord; messages: MessageRecord[] } | undefined>;
  /** Any owner's conversation: for background work (crash recovery), never for a caller's request. */
  findById(id: string): Promise<ConversationRecord | undefined>;
  update(
    id: string,
    patch: Partial<Pick<ConversationRecord, 'status' | 'updatedAt' | 'endedAt' | 'endReason' | 'escalatedAt' | 'escalationReason'>>,
  ): Promise<void>;
  addUsage(id: string, usage: { aiTokens: number; ttsCharacters: number }, at: number): Promise<void>;
  /** Conversations not ended and not updated since `before`, for the idle time-out. */
  listIdle(before: number, limit: number): Promise<ConversationRecord[]>;
  /** The owner's conversations with one avatar that have not ended (active or escalated), oldest first (ended when the avatar is deleted). */
  listActiveByAvatar(owner: Owner, avatarId: string, limit: number): Promise<ConversationRecord[]>;
  delete(id: string): Promise<void>;
  /** Any owner's conversations not updated since `before`, least recently updated first (the retention sweeper's). */
  listUpdatedBefore(before: number, limit: number): Promise<ConversationRecord[]>;
}

export type MessagePatch = Partial<
  Pick<MessageRecord, 'content' | 'status' | 'audioKey' | 'audioBase' | 'audioError' | 'aiTokens' | 'ttsCharacters' | 'safety'>
>;

export interface MessageRepository {
  /** Stores a message after every earlier one of its conversation: the order stored is the order listed. */
  create(message: MessageRecord): Promise<void>;
  update(id: string, patch: MessagePatch): Promise<void>;
  delete(id: string): Promise<void>;
  /** The conversation's messages in the order they were stored. */
  listByConversation(conversationId: string): Promise<MessageRecord[]>;
  /** The last `limit` messages, oldest first (what a reply's context needs). */
  listRecent(conversationId: string, limit: number): Promise<MessageRecord[]>;
  /**
   * One page of the conversation's settled messages (not `streaming`) in the order stored: at most
   * `limit` of those stored after the message `after` (a cursor: an id from an earlier page), or
   * from the first without it. Undefined when `after` is not a message of this conversation.
   */
  listPage(conversationId: string, page: { limit: number; after?: string }): Promise<MessageRecord[] | undefined>;
  /** Messages in a status across conversations, e.g. replies left `streaming` by a crash. */
  listByStatus(status: MessageStatus, limit: number): Promise<MessageRecord[]>;
  deleteByConversation(conversationId: string): Promise<void>;
  /** Settled replies (not `streaming`) created before `before` that still have audio (`audioBase` set), oldest first (the retention sweeper's). */
  listWithAudioBefore(before: number, limit: number): Promise<MessageRecord[]>;
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

/**
 * A custom avatar uploaded by an owner. Presets are not stored; ids are unique across both. The
 * model and preview live in the blob store under unguessable keys that change with every upload.
 */
export interface AvatarRecord {
  /** `<slug>-<three digits>`, e.g. `robin-042`. */
  id: string;
  accountId: string;
  mode: KeyMode;
  name: string;
  description: string;
  tags: string[];
  /** `<locale>-Neural2-<letter>`. */
  defaultVoice: string;
  animations: { idle: string; talking: string; thinking: string };
  personality: string;
  speakingStyle: string;
  /** Blob key of the VRM file, `avf_….vrm`. */
  modelKey: string;
  modelBytes: number;
  /** The VRM specification the file declares. */
  vrmVersion: '1.0' | '0.x';
  /** Blob key of the PNG preview, `avf_….png`; null when none was uploaded. */
  previewKey: string | null;
  /** The safety settings conversations with this avatar start from; null: the persona's or the service's. */
  safety: SafetySettings | null;
  createdAt: number;
  updatedAt: number;
}

export type AvatarPatch = Partial<
  Pick<AvatarRecord, 'name' | 'description' | 'tags' | 'defaultVoice' | 'animations' | 'personality' | 'speakingStyle' | 'modelKey' | 'modelBytes' | 'vrmVersion' | 'previewKey' | 'safety' | 'updatedAt'>
>;

export interface AvatarRepository {
  /** Stores the avatar unless its id is taken (by anyone); false when it was. */
  create(avatar: AvatarRecord): Promise<boolean>;
  /** The avatar if `owner` may see it; undefined otherwise (callers answer 404). */
  find(owner: Owner, id: string): Promise<AvatarRecord | undefined>;
  /** The owner's avatars, oldest first. */
  listByOwner(owner: Owner): Promise<AvatarRecord[]>;
  /** Which of `ids` are stored, whoever owns them (to pick a free `<slug>-<digits>`). */
  takenIds(ids: readonly string[]): Promise<string[]>;
  update(id: string, patch: AvatarPatch): Promise<void>;
  delete(id: string): Promise<void>;
}

/** `failing`: deliveries keep failing (the owner was e-mailed); `disabled`: nothing is sent (by the owner, or a 410 Gone). */
export type WebhookStatus = 'active' | 'failing' | 'disabled';

export interface WebhookRecord {
  id: string;
  accountId: string;
  mode: KeyMode;
  url: string;
  /** Event types the receiver subscribed to. */
  events: string[];
  /** Signing secret. Kept as given: signing needs it (unlike API keys, which are only compared). */
  secret: string;
  status: WebhookStatus;
  /** Why the webhook is failing or disabled, for its owner. */
  statusReason: string | null;
  /** When the current status began (failing since, disabled since). */
  statusSince: number | null;
  createdAt: number;
  updatedAt: number;
}

export type WebhookPatch = Partial<Pick<WebhookRecord, 'url' | 'events' | 'secret' | 'status' | 'statusReason' | 'statusSince' | 'updatedAt'>>;

export interface WebhookRepository {
  create(webhook: WebhookRecord): Promise<void>;
  /** The webhook if `owner` may see it; undefined otherwise (callers answer 404). */
  find(owner: Owner, id: string): Promise<WebhookRecord | undefined>;
  findById(id: string): Promise<WebhookRecord | undefined>;
  /** The owner's webhooks, oldest first; at most `limit` of those whose id sorts after `after`. */
  listByOwner(owner: Owner, page: { limit: number; after?: string }): Promise<WebhookRecord[]>;
  countByOwner(owner: Owner): Promise<number>;
  /** The owner's webhooks that are not disabled and subscribe to `type`. */
  listSubscribed(owner: Owner, type: string): Promise<WebhookRecord[]>;
  update(id: string, patch: WebhookPatch): Promise<void>;
  /** Applies `patch` only while the webhook is in status `from`; true when it did (one caller wins a race). */
  transition(id: string, from: WebhookStatus, patch: WebhookPatch): Promise<boolean>;
  /** Deletes the webhook and its deliveries. */
  delete(id: string): Promise<void>;
}

/** An event on its way into the outbox: the exact JSON bytes every attempt sends. */
export interface WebhookEventRecord {
  id: string;
  accountId: string;
  mode: KeyMode;
  type: string;
  body: string;
  createdAt: number;
}

/** `pending`: an attempt is due at `nextAttemptAt`; `failed`: the schedule ran out; `cancelled`: the webhook was disabled first. */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';

/** One event on its way to one webhook, with the outcome of its latest attempt. */
export interface DeliveryRecord {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  /** Attempts made so far. */
  attempts: number;
  nextAttemptAt: number | null;
  /** A dispatcher holds the delivery until then (a crashed one's claim lapses). */
  lockedUntil: number | null;
  lastAttemptAt: number | null;
  lastResponseStatus: number | null;
  lastError: string | null;
  lastDurationMs: number | null;
  createdAt: number;
}

export type DeliveryPatch = Partial<
  Pick<DeliveryRecord, 'status' | 'attempts' | 'nextAttemptAt' | 'lockedUntil' | 'lastAttemptAt' | 'lastResponseStatus' | 'lastError' | 'lastDurationMs'>
>;

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  delivery: DeliveryRecord;
  body: string;
  webhook: WebhookRecord;
}

export interface WebhookDeliveryRepository {
  /**
   * Writes the event to the outbox, one row per webhook: call it in the transaction of the change
   * that causes the event. Deliveries appear once {@link relayOutbox} has moved the rows.
   */
  enqueue(event: WebhookEventRecord, deliveries: readonly { id: string; webhookId: string }[]): Promise<void>;
  /**
   * Moves up to `limit` outbox rows, oldest first, to pending deliveries due at their event's time
   * (cancelled for a disabled webhook, dropped for a deleted one); returns how many rows it took.
   * Call it inside a transaction.
   */
  relayOutbox(limit: number): Promise<number>;
  /**
   * Claims pending deliveries due by `now` and not held by anyone, holding them until `lockedUntil`:
   * at most `limit` in all and `perWebhook` per webhook, none of `skipWebhooks`. Atomic, so two
   * dispatchers never claim the same delivery.
   */
  claimDue(options: { now: number; lockedUntil: number; limit: number; perWebhook: number; skipWebhooks: readonly string[] }): Promise<ClaimedDelivery[]>;
  update(id: string, patch: DeliveryPatch): Promise<void>;
  /** Cancels the webhook's pending deliveries (it was disabled). */
  cancelPending(webhookId: string): Promise<number>;
  /** Deliveries waiting to be sent: pending ones and outbox rows not yet moved to deliveries (the queue depth). */
  countQueued(): Promise<number>;
  /** Deletes finished deliveries created before `before`; returns how many. */
  prune(before: number): Promise<number>;
  /** The webhook's deliveries, newest first; at most `limit` of those whose id sorts before `before`. */
  listByWebhook(webhookId: string, page: { limit: number; before?: string }): Promise<DeliveryRecord[]>;
}

export interface Store {
  readonly accounts: AccountRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly conversations: ConversationRepository;
  readonly messages: MessageRepository;
  readonly usage: UsageRepository;
  readonly avatars: AvatarRepository;
  readonly webhooks: WebhookRepository;
  readonly webhookDeliveries: WebhookDeliveryRepository;
  /** Runs `work` atomically: every write inside commits together or not at all. */
  transaction<T>(work: (store: Store) => Promise<T>): Promise<T>;
  /** Applies pending schema migrations; returns the names applied. */
  migrate(): Promise<string[]>;
  /** Why the store cannot serve right now (no answer, writes failing on a full disk), or undefined when it can. */
  problem(): Promise<string | undefined>;
  close(): Promise<void>;
}
