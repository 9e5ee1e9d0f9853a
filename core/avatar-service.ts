import type { Clock } from './clock.js';
import type { IdGenerator } from './ids.js';
import type { BlobStore } from './ports/blob-store.js';
import type { Store } from './ports/store.js';
import { ConversationVersions, trackConversationWrites } from './storage/conversation-versions.js';
import { ApiKeyCache } from './access/api-key-cache.js';
import type { ApiKeyCacheOptions } from './access/api-key-cache.js';
import type { AIProvider } from './providers/chat-model.js';
import type { SpeechProvider } from './speech/speech-provider.js';
import { AccountService } from './accounts/account-service.js';
import { externalTokenVerifier } from './accounts/jwt.js';
import type { ExternalTokenOptions } from './accounts/jwt.js';
import { AvatarLibrary, DEFAULT_AVATAR_MAX_BYTES } from './avatars/avatar-library.js';
import type { Owner } from './ports/store.js';
import { systemClock } from './clock.js';
import { ConversationService } from './conversations/conversation-service.js';
import { withJoinedReplyAudio } from './conversations/reply-audio-blobs.js';
import { createIdGenerator } from './ids.js';
import { PersonaCatalog } from './personas/persona-catalog.js';
import { ProviderRegistry } from './providers/provider-registry.js';
import { SpeechRegistry } from './speech/speech-registry.js';
import { avatarVoices } from './speech/avatar-voices.js';
import { SessionService } from './sessions/session-service.js';
import type { ConnectionCounter } from './access/connection-counter.js';
import { MemoryConnectionCounter } from './access/connection-counter.js';
import type { RateLimiter } from './access/rate-limiter.js';
import { MemoryRateLimiter } from './access/rate-limiter.js';
import { AccessLimits } from './access/access-limits.js';
import { UsageService } from './usage/usage-service.js';
import { ChatCompletionService } from './providers/chat-completion-service.js';
import { TtsService } from './speech/tts-service.js';
import type { Mailer } from './ports/mailer.js';
import type { LookupAll } from './webhooks/address-policy.js';
import { WebhookOutbox } from './webhooks/webhook-outbox.js';
import type { ModerationCheck } from './safety/moderation.js';
import { WebhookService } from './webhooks/webhook-service.js';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher.js';
import type { WebhookSender } from './webhooks/webhook-dispatcher.js';
import { WebhookPoster } from './webhooks/post-webhook.js';
import { checkServiceOptions } from './config/check-service-options.js';
import type { MessageBus, Subscription } from './ports/message-bus.js';
import { LocalMessageBus } from './util/local-message-bus.js';
import { randomUUID } from 'node:crypto';
import type { Telemetry } from './ports/telemetry.js';
import { noTelemetry } from './ports/telemetry.js';
import { observedAiProvider, observedSpeechProvider } from './telemetry/observed-providers.js';
import { replyTiming } from './telemetry/reply-timing.js';
import { RetentionSweeper } from './retention/retention-sweeper.js';
import type { RetentionOptions } from './retention/retention-sweeper.js';

/**
 * With several processes on one database, a reply still `streaming` after this long has no process
 * writing it (its process crashed): far longer than a reply runs (its AI stream and speech are
 * bounded by their vendors' timeouts), far shorter than anyone waits for one.
 */
const STRANDED_REPLY_MS = 10 * 60_000;

/** Webhook delivery settings (docs/webhooks.md). */
export interface WebhookOptions {
  /** Allow `http://` and private, loopback or link-local receivers: development only. Default false. */
  allowInsecure?: boolean;
  /** Delays between attempts, in ms. Default 5 s, 30 s, 5 min, 1 h. */
  retrySchedule?: readonly number[];
  /** Time allowed for one attempt (connecting, sending, the answer). Default 10 s. */
  timeoutMs?: number;
  /** Resolves receiver host names; the system resolver by default. */
  lookup?: LookupAll;
  /** Sends attempts; an HTTP poster with the address policy by default. */
  sender?: WebhookSender;
  /** How often due retries are looked for. Default 1 s. */
  pollIntervalMs?: number;
}

/** The bus channel of interrupts for replies another process runs: `<node id>\n<conversation id>`. */
const INTERRUPT_CHANNEL = 'conversations.interrupt';

/** The bus channel of conversation writes: `<node id>\n<conversation id, or empty for any>`. */
export const CONVERSATIONS_CHANGED_CHANNEL = 'conversations.changed';

export const DEFAULT_WEBHOOK_RETRY_SCHEDULE: readonly number[] = Object.freeze([5_000, 30_000, 300_000, 3_600_000]);

export interface AvatarServiceOptions {
  store: Store;
  /** Where synthesized audio goes. */
  blobs: BlobStore;
  /** HS256 secret for account and session tokens: at least 32 characters (`MIN_SECRET_LENGTH`). */
  jwtSecret: string;
  /** Also accept account tokens from an external identity provider, checked against its key set. */
  externalTokens?: ExternalTokenOptions;
  aiProviders: readonly AIProvider[];
  speechProviders: readonly SpeechProvider[];
  defaultAiProvider?: string;
  defaultTtsProvider?: string;
  /** AI provider ids tried in order when the chosen one fails before answering. */
  aiFallback?: readonly string[];
  /** Speech engine ids tried in order when the chosen one fails. */
  ttsFallback?: readonly string[];
  /** Told whenever a fallback provider or engine takes over (the operator should know the first choice fails). */
  onFallback?: (event: { kind: 'ai' | 'speech'; failed: string; next: string; error: unknown }) => void;
  /** An active conversation with no activity for this long ends with reason `timeout`. */
  conversationIdleTimeoutMs?: number;
  /** Request counting; in-memory by default (one process), Redis-backed for several. */
  rateLimiter?: RateLimiter;
  connectionCounter?: ConnectionCounter;
  /**
   * Broadcasts between the processes of a deployment (key revocations, conversation changes for
   * the read caches, the server's WebSocket frames); in memory by default.
   */
  bus?: MessageBus;
  webhooks?: WebhookOptions;
  /** Tells owners their webhook is failing; without one nobody is told. */
  mailer?: Mailer;
  /** A vendor moderation check of users' messages, after the word-list checks (docs/safety.md). */
  moderation?: ModerationCheck;
  /** Told of background failures (webhook bookkeeping, e-mail) that have no caller to throw to. */
  onBackgroundError?: (message: string, error?: unknown) => void;
  /** Largest custom avatar model (VRM file) accepted, in bytes (default 30 MiB). */
  avatarMaxBytes?: number;
  /** Requests per minute of one anonymous client address on public reads (default 120). */
  anonymousRequestsPerMinute?: number;
  /**
   * The principal cache (API keys and the keys behind sessions; core/access/api-key-cache.ts):
   * its size and time to live — the bound on how late a revocation made by another process is
   * seen. `false`: every authentication reads the store. Default: 10 000 keys, 5 s.
   */
  keyCache?: false | ApiKeyCacheOptions;
  clock?: Clock;
  ids?: IdGenerator;
  /** Told of vendor calls, reply timings and webhook attempts, for metrics (none by default). */
  telemetry?: Telemetry;
  /** How long reply audio and conversations are kept; for ever by default. Each period at least an hour. */
  retention?: RetentionOptions;
}

/**
 * The whole service as a library: construct it with storage and providers, call its parts, and
 * `close()` it. It holds no global state, so several can live in one process.
 *
 * @example
 * const service = createAvatarService({ store, blobs, jwtSecret, aiProviders: [createLocalProvider()], speechProviders: [] });
 * await service.start();
 * const conversation = await service.conversations.create(owner, { avatarId: 'luna-001' });
 */
export interface AvatarService {
  readonly accounts: AccountService;
  /** Presets and custom avatars; `avatars.presets` has the presets alone, synchronously. */
  readonly avatars: AvatarLibrary;
  readonly personas: PersonaCatalog;
  readonly conversations: ConversationService;
  readonly sessions: SessionService;
  readonly limits: AccessLimits;
  readonly usage: UsageService;
  readonly providers: ProviderRegistry;
  readonly speech: SpeechRegistry;
  /** Raw chat completions outside conversations. */
  readonly chat: ChatCompletionService;
  /** Text-to-speech outside conversations. */
  readonly tts: TtsService;
  readonly webhooks: WebhookService;
  /** Delivers webhook events; `drain()` sends everything due now. */
  readonly webhookDispatcher: WebhookDispatcher;
  /** Deletes reply audio and conversations past their retention periods; `sweep()` runs one sweep now. */
  readonly retention: RetentionSweeper;
  /**
   * The store the service uses: the one given, with every write to a conversation or its
   * messages reported to {@link conversationVersions}.
   */
  readonly store: Store;
  /** Broadcasts to every process of the deployment (this one included). */
  readonly bus: MessageBus;
  /** This process's id on the bus. */
  readonly nodeId: string;
  /** A version per conversation, changed by every write to it or its messages: what caches of conversation reads are keyed by. */
  readonly conversationVersions: ConversationVersions;
  /** The principal cache, when on; `invalidate` it with news of revocations from other processes. */
  readonly keyCache: ApiKeyCache | undefined;
  /** The blob store as clients read it: a reply's whole MP3 is joined from its clips (`withJoinedReplyAudio`). */
  readonly blobs: BlobStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Applies migrations, recovers replies a crash cut off, and starts background work (idle time-outs, webhook delivery). */
  start(): Promise<void>;
  /** Stops background work, interrupts running replies, releases engines and the store. */
  close(): Promise<void>;
}

/** Checks the options (`checkServiceOptions`: throws a `ConfigurationError` naming the option) and wires the service. */
export function createAvatarService(options: AvatarServiceOptions): AvatarService {
  checkServiceOptions(options);
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? createIdGenerator(clock);
  const { blobs } = options;
  const conversationVersions = new ConversationVersions();
  const store = trackConversationWrites(options.store, conversationVersions);
  const keyCache = options.keyCache === false ? undefined : new ApiKeyCache({ ...options.keyCache, now: options.keyCache?.now ?? (() => clock.now()) });
  const personas = new PersonaCatalog();
  const telemetry = options.telemetry;
  const aiProviders = telemetry ? options.aiProviders.map((provider) => observedAiProvider(provider, telemetry)) : options.aiProviders;
  const speechProviders = telemetry ? options.speechProviders.map((provider) => observedSpeechProvider(provider, telemetry)) : options.speechProviders;
  const providers = new ProviderRegistry(aiProviders, options.defaultAiProvider, options.aiFallback, (e) =>
    options.onFallback?.({ kind: 'ai', failed: e.failed.provider, next: e.next.provider, error: e.error }),
  );
  const speech = new SpeechRegistry(speechProviders, options.defaultTtsProvider, options.ttsFallback, (e) =>
    options.onFallback?.({ kind: 'speech', ...e }),
  );
  const bus = options.bus ?? new LocalMessageBus();
  const nodeId = randomUUID();
  const accounts = new AccountService({
    store,
    clock,
    ids,
    jwtSecret: options.jwtSecret,
    bus,
    nodeId,
    ...(keyCache && { keyCache }),
    ...(options.externalTokens && { externalTokens: externalTokenVerifier(options.externalTokens) }),
  });
  const usage = new UsageService({ store, clock });
  const outbox = new WebhookOutbox({ clock, ids });
  const voices = new Set(avatarVoices().map((voice) => voice.id));
  const avatars = new AvatarLibrary({
    store,
    blobs,
    clock,
    ids,
    outbox,
    maxModelBytes: options.avatarMaxBytes ?? DEFAULT_AVATAR_MAX_BYTES,
    isVoice: (id) => voices.has(id),
    afterDelete: (owner, avatarId) => endConversationsWith(owner, avatarId),
  });
  const hooks = options.webhooks ?? {};
  const policy = { allowInsecure: hooks.allowInsecure ?? false, ...(hooks.lookup && { lookup: hooks.lookup }) };
  const timeoutMs = hooks.timeoutMs ?? 10_000;
  const webhooks = new WebhookService({ store, clock, ids, outbox, policy });
  const webhookDispatcher = new WebhookDispatcher({
    store,
    clock,
    outbox,
    sender: hooks.sender ?? new WebhookPoster({ policy, timeoutMs, connectTimeoutMs: Math.min(timeoutMs, 5_000) }),
    mailer: options.mailer,
    retrySchedule: hooks.retrySchedule ?? DEFAULT_WEBHOOK_RETRY_SCHEDULE,
    leaseMs: 2 * timeoutMs + 1_000,
    ...(hooks.pollIntervalMs !== undefined && { pollIntervalMs: hooks.pollIntervalMs }),
    ...(options.onBackgroundError && { onError: options.onBackgroundError }),
    telemetry: telemetry ?? noTelemetry,
  });
  const conversations = new ConversationService({
    store,
    blobs,
    clock,
    ids,
    avatars,
    personas,
    providers,
    speech,
    usage,
    outbox,
    moderation: options.moderation,
    interruptElsewhere: (conversationId) => void bus.publish(INTERRUPT_CHANNEL, `${nodeId}\n${conversationId}`).catch(() => undefined),
    onBackgroundError: (error) => options.onBackgroundError?.('The moderation check failed; the message was checked by the word lists only', error),
  });
  if (telemetry) conversations.onEvent(replyTiming(telemetry));
  const retention = new RetentionSweeper({
    store,
    blobs,
    clock,
    conversations,
    options: options.retention ?? {},
    ...(options.onBackgroundError && { onError: options.onBackgroundError }),
  });
  const sessions = new SessionService({ conversations, store, secret: options.jwtSecret, clock, ...(keyCache && { keyCache }) });
  const limits = new AccessLimits({
    store,
    clock,
    rates: options.rateLimiter ?? new MemoryRateLimiter(clock),
    connections: options.connectionCounter ?? new MemoryConnectionCounter(),
    anonymousPerMinute: options.anonymousRequestsPerMinute ?? 120,
  });
  const idleMs = options.conversationIdleTimeoutMs ?? 30 * 60_000;

  /** A deleted avatar cannot reply: its owner's active conversations with it end (reason `avatar_deleted`). */
  async function endConversationsWith(owner: Owner, avatarId: string): Promise<void> {
    for (;;) {
      const active = await store.conversations.listActiveByAvatar(owner, avatarId, 100);
      if (active.length === 0) return;
      for (const conversation of active) await conversations.end(owner, conversation.id, 'avatar_deleted');
    }
  }
  let sweeper: ReturnType<typeof setInterval> | undefined;
  let revocations: Subscription | undefined;
  let remoteChanges: Subscription | undefined;
  let remoteInterrupts: Subscription | undefined;
  let stopPublishingChanges: (() => void) | undefined;

  /**
   * Conversation writes of every process reach every process's `conversationVersions`, so a
   * cached conversation read is never served after another process changed it (beyond the
   * moment the broadcast takes); interrupts reach the process running the reply.
   */
  async function listenToOtherProcesses(): Promise<void> {
    remoteChanges = bus.subscribe(CONVERSATIONS_CHANGED_CHANNEL, (message) => {
      const split = message.indexOf('\n');
      if (split < 0 || message.slice(0, split) === nodeId) return;
      conversationVersions.invalidate(message.slice(split + 1) || undefined);
    });
    await remoteChanges.ready;
    remoteInterrupts = bus.subscribe(INTERRUPT_CHANNEL, (message) => {
      const split = message.indexOf('\n');
      if (split < 0 || message.slice(0, split) === nodeId) return;
      conversations.stopReply(message.slice(split + 1)).catch(() => undefined);
    });
    await remoteInterrupts.ready;
    stopPublishingChanges = conversationVersions.onChange((conversationId) => {
      bus.publish(CONVERSATIONS_CHANGED_CHANNEL, `${nodeId}\n${conversationId ?? ''}`).catch(() => undefined);
    });
  }

  return {
    accounts,
    avatars,
    personas,
    conversations,
    sessions,
    limits,
    usage,
    providers,
    speech,
    chat: new ChatCompletionService({ providers, usage, ids }),
    tts: new TtsService({ speech, blobs, ids, usage }),
    webhooks,
    webhookDispatcher,
    retention,
    store,
    bus,
    nodeId,
    conversationVersions,
    keyCache,
    blobs: withJoinedReplyAudio(blobs),
    clock,
    ids,
    async start() {
      await store.migrate();
      // One process: every `streaming` reply was cut off by its crash. Several (a shared bus): only
      // those older than any reply runs; the sweeper below finds the ones a crashed node leaves later.
      const recovery = options.bus ? { olderThanMs: STRANDED_REPLY_MS } : {};
      await conversations.recoverInterrupted(recovery);
      revocations = accounts.listenForRemoteRevocations();
      await revocations.ready;
      await listenToOtherProcesses();
      sweeper = setInterval(() => {
        void conversations.endIdle(idleMs).catch(() => undefined);
        if (options.bus) void conversations.recoverInterrupted(recovery).catch(() => undefined);
      }, Math.min(idleMs, 60_000));
      sweeper.unref();
      webhookDispatcher.start();
      retention.start();
    },
    async close() {
      if (sweeper) clearInterval(sweeper);
      await retention.close();
      await conversations.close(); // the replies it interrupts are written, and their changes shared
      stopPublishingChanges?.();
      // A bus already closed has nothing to stop.
      await revocations?.close().catch(() => undefined);
      await remoteChanges?.close().catch(() => undefined);
      await remoteInterrupts?.close().catch(() => undefined);
      await webhookDispatcher.close();
      await options.mailer?.close();
      await speech.close();
      await store.close();
    },
  };
}
