import type { AvatarLibrary } from '../avatars/avatar-library.js';
import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { PersonaCatalog } from '../personas/persona-catalog.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { ConversationListItem, ConversationListQuery, ConversationRecord, ConversationScope, MessageRecord, Owner, Store } from '../ports/store.js';
import type { ProviderRegistry } from '../providers/provider-registry.js';
import type { SpeechRegistry } from '../speech/speech-registry.js';
import type { UsageService } from '../usage/usage-service.js';
import type { ConversationEvent, ReplyEvent } from './reply-event.js';
import { NotFoundError, ServiceError, ValidationError } from '../errors.js';
import { Limits, checkText } from '../text-limits.js';
import { parseAvatarVoiceId } from '../speech/avatar-voices.js';
import { EventChannel } from '../util/event-channel.js';
import { deleteReplyAudio } from './speech-pipeline.js';
import { runReply } from './run-reply.js';
import type { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import { pageOf, type Page } from '../util/page.js';
import { conversationEnded, conversationStarted, messageCreated } from './webhook-data.js';
import type { ModerationCheck } from '../safety/moderation.js';
import type { SafetyVerdict } from '../safety/safety-check.js';
import { checkUserMessage, withModeration } from '../safety/safety-check.js';
import { DEFAULT_SAFETY, parseSafetySettings } from '../safety/safety-settings.js';
import { enqueueUserSafetyEvents } from './safety-events.js';

export interface ConversationServiceDeps {
  store: Store;
  blobs: BlobStore;
  clock: Clock;
  ids: IdGenerator;
  avatars: AvatarLibrary;
  personas: PersonaCatalog;
  providers: ProviderRegistry;
  speech: SpeechRegistry;
  usage: UsageService;
  /** Webhook events are written with the changes that cause them. */
  outbox: WebhookOutbox;
  /** The optional vendor moderation check of users' messages. */
  moderation?: ModerationCheck | undefined;
  /** Failures that cost no request its answer (a moderation vendor down: the message passes). */
  onBackgroundError?: ((error: unknown) => void) | undefined;
  /**
   * Asks the other processes of the deployment to stop their running reply of a conversation
   * (an `interrupt`, or a barge-in message, arriving at a process that does not run the reply);
   * they call {@link ConversationService.stopReply}.
   */
  interruptElsewhere?: ((conversationId: string) => void) | undefined;
}

export interface CreateConversationInput {
  avatarId: string;
  personaId?: string;
  aiProvider?: string;
  aiModel?: string;
  ttsProvider?: string;
  voiceId?: string;
  systemPrompt?: string;
  /**
   * Safety settings in the REST API's wire shape (`{blocked_topics, filter, escalation, refusal}`,
   * docs/safety.md), over the persona's defaults; validated here.
   */
  safety?: unknown;
}

export interface ConversationWithMessages {
  conversation: ConversationRecord;
  messages: MessageRecord[];
}

export interface ReplyOptions {
  /** Aborting (client gone) stops generation and speech; the partial reply is kept as interrupted. */
  signal?: AbortSignal;
  /** When a reply is already running: `reject` answers 409 busy, `interrupt` cuts it off first (barge-in). */
  whenBusy?: 'reject' | 'interrupt';
}

export interface StartedReply {
  userMessage: MessageRecord;
  events: AsyncIterable<ReplyEvent>;
}

export type ConversationListener = (conversationId: string, event: ConversationEvent) => void;

/**
 * Conversations with avatars: their lifecycle (active → ended → deleted) and replies. One reply
 * at a time per conversation; the user's message is stored before anything can fail.
 */
export class ConversationService {
  readonly #deps: ConversationServiceDeps;
  readonly #running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  readonly #listeners = new Set<ConversationListener>();

  constructor(deps: ConversationServiceDeps) {
    this.#deps = deps;
  }

  async create(owner: Owner, input: CreateConversationInput): Promise<ConversationRecord> {
    const { avatars, personas, providers, speech, clock, ids, store } = this.#deps;
    const avatar = await avatars.find(owner, input.avatarId);
    if (!avatar) throw new ValidationError('avatar_id', `avatar_id '${input.avatarId}' is not an avatar; see the avatar list`);
    if (input.personaId !== undefined && !personas.find(input.personaId)) {
      throw new ValidationError('persona_id', `persona_id '${input.personaId}' is not a persona; see the persona list`);
    }
    if (input.systemPrompt !== undefined) checkText('system_prompt', input.systemPrompt, Limits.systemPromptMaxChars, true);
    const persona = input.personaId === undefined ? undefined : personas.find(input.personaId);
    // The most specific defaults: the avatar's own (custom avatars), else the persona's, else the service's.
    const safety = parseSafetySettings(input.safety, avatar.safety ?? persona?.safety ?? DEFAULT_SAFETY);
    const aiProvider = input.aiProvider ?? providers.defaultId;
    providers.requireConfigured(aiProvider);
    const model = providers.chatModel(aiProvider, input.aiModel);
    const ttsProvider = input.ttsProvider ?? speech.defaultId;
    // A chosen engine must be able to speak; the default may not (the reply then keeps its text).
    const engine = input.ttsProvider === undefined ? speech.resolve(ttsProvider) : await speech.requireAvailable(ttsProvider);
    const voiceId = input.voiceId ?? avatar.defaultVoice;
    if (input.voiceId !== undefined) {
      // The voices the engine speaks: avatar voices, and the engine's own ids.
      if (engine) engine.engineVoiceFor(voiceId);
      else if (!parseAvatarVoiceId(voiceId)) {
        throw new ValidationError('voice_id', 'voice_id must look like en-US-Neural2-F (<locale>-Neural2-<letter>) with browser speech');
      }
    }
    const now = clock.now();
    const conversation: ConversationRecord = {
      id: ids.next('conv'),
      accountId: owner.accountId,
      mode: owner.mode,
      avatarId: avatar.id,
      personaId: input.personaId ?? null,
      status: 'active',
      aiProvider,
      aiModel: model.modelId,
      ttsProvider,
      voiceId,
      systemPrompt: input.systemPrompt ?? null,
      aiTokens: 0,
      ttsCharacters: 0,
      createdAt: now,
      updatedAt: now,
      endedAt: null,
      endReason: null,
      safety,
      escalatedAt: null,
      escalationReason: null,
    };
    await store.transaction(async (tx) => {
      await tx.conversations.create(conversation);
      await this.#deps.outbox.enqueue(tx, owner, 'conversation.started', conversationStarted(conversation));
    });
    return conversation;
  }

  async get(owner: Owner, id: string): Promise<ConversationRecord> {
    const conversation = await this.#deps.store.conversations.find(owner, id);
    if (!conversation) throw new NotFoundError('conversation', id);
    return conversation;
  }

  async getWithMessages(owner: Owner, id: string): Promise<ConversationWithMessages> {
    // A reply still being written is shown once it is stored (its events stream meanwhile).
    const found = await this.#deps.store.conversations.findWithMessages(owner, id);
    if (!found) throw new NotFoundError('conversation', id);
    return found;
  }

  /**
   * One page of the conversation's messages, oldest first, after the message `startingAfter` (a
   * cursor: the last id of the previous page); like {@link getWithMessages}, a reply still being
   * written is left out. An ended conversation stays readable.
   * @throws NotFoundError when `owner` may not see the conversation.
   * @throws ValidationError (field `starting_after`) when the cursor is not a message of it.
   */
  async pageMessages(owner: Owner, id: string, page: { limit: number; startingAfter?: string }): Promise<Page<MessageRecord>> {
    await this.get(owner, id);
    const rows = await this.#deps.store.messages.listPage(id, {
      limit: page.limit + 1,
      ...(page.startingAfter !== undefined && { after: page.startingAfter }),
    });
    if (!rows) throw new ValidationError('starting_after', 'starting_after must be the id of a message of this conversation');
    return pageOf(rows, page.limit);
  }

  /**
   * One page of the scope's conversations (an account in one mode, or both), newest first,
   * each with its message count; filters as {@link ConversationListQuery}.
   * @throws ValidationError (field `starting_after`) when the cursor is not a conversation of the scope,
   * (field `created_after`) when the time range is empty.
   */
  async list(
    scope: ConversationScope,
    page: Omit<ConversationListQuery, 'after'> & { startingAfter?: string },
  ): Promise<Page<ConversationListItem>> {
    const { startingAfter, ...query } = page;
    if (query.createdAfter !== undefined && query.createdBefore !== undefined && query.createdAfter >= query.createdBefore) {
      throw new ValidationError('created_after', 'created_after must be before created_before');
    }
    const rows = await this.#deps.store.conversations.listPage(scope, {
      ...query,
      limit: page.limit + 1,
      ...(startingAfter !== undefined && { after: startingAfter }),
    });
    if (!rows) throw new ValidationError('starting_after', 'starting_after must be the id of a conversation in this list');
    return pageOf(rows, page.limit);
  }

  /**
   * After a crash: replies left `streaming` are kept as `interrupted` with the text saved so far
   * (empty ones are removed), and their sentence clips deleted — the joined reply MP3 was never
   * made, so no `audio_url` points at them. Call once at start, before serving.
   *
   * Several processes on one database (a message bus shared through Redis): another process may be
   * writing a `streaming` reply right now, so pass `olderThanMs` to take only replies older than
   * any reply runs, and call it again from time to time to find those a crashed process left.
   */
  async recoverInterrupted(options: { olderThanMs?: number } = {}): Promise<number> {
    const { store, blobs, outbox, clock } = this.#deps;
    const batch = 100;
    let recovered = 0;
    for (;;) {
      const streaming = await store.messages.listByStatus('streaming', batch);
      // With an age, a reply another process may still be writing is left to it; this process's own never count.
      const cutoff = options.olderThanMs === undefined ? Infinity : clock.now() - options.olderThanMs;
      const stranded = streaming.filter((m) => m.createdAt <= cutoff && !this.#running.has(m.conversationId));
      if (stranded.length === 0) return recovered;
      for (const message of stranded) {
        if (message.audioBase) await deleteReplyAudio(blobs, message.audioBase);
        if (message.content.trim() === '') await store.messages.delete(message.id);
        else {
          const kept: MessageRecord = {
            ...message,
            status: 'interrupted',
            audioKey: null,
            audioBase: null,
            audioError: message.audioBase ? 'the server stopped while this reply was being spoken' : null,
          };
          // Stored now for good: the webhook event its reply never got goes with it.
          const conversation = await store.conversations.findById(message.conversationId);
          await store.transaction(async (tx) => {
            await tx.messages.update(message.id, { status: kept.status, audioKey: null, audioBase: null, audioError: kept.audioError });
            if (conversation) {
              await outbox.enqueue(tx, { accountId: conversation.accountId, mode: conversation.mode }, 'message.created', messageCreated(conversation, kept));
            }
          });
        }
        recovered++;
      }
      if (streaming.length < batch) return recovered;
    }
  }

  /** Ends a conversation; idempotent (ending an ended one returns it unchanged). */
  async end(owner: Owner, id: string, reason = 'ended'): Promise<ConversationRecord> {
    const conversation = await this.get(owner, id);
    if (conversation.status === 'ended') return conversation;
    await this.#stop(id);
    const now = this.#deps.clock.now();
    await this.#deps.store.transaction(async (tx) => {
      await tx.conversations.update(id, { status: 'ended', endedAt: now, updatedAt: now, endReason: reason });
      await this.#deps.outbox.enqueue(tx, owner, 'conversation.ended', conversationEnded(conversation, reason));
    });
    for (const listener of this.#listeners) listener(id, { type: 'ended', reason });
    return { ...conversation, status: 'ended', endedAt: now, updatedAt: now, endReason: reason };
  }

  /** Deletes a conversation, its messages and every audio file of it; an active one ends (reason `deleted`). */
  async delete(owner: Owner, id: string): Promise<void> {
    const conversation = await this.get(owner, id);
    await this.#stop(id);
    const { store, blobs, outbox } = this.#deps;
    const messages = await store.messages.listByConversation(id);
    await store.transaction(async (tx) => {
      await tx.messages.deleteByConversation(id);
      await tx.conversations.delete(id);
      if (conversation.status !== 'ended') await outbox.enqueue(tx, owner, 'conversation.ended', conversationEnded(conversation, 'deleted'));
    });
    for (const message of messages) if (message.audioBase) await deleteReplyAudio(blobs, message.audioBase);
  }

  isReplying(conversationId: string): boolean {
    return this.#running.has(conversationId);
  }

  /**
   * Stops a running reply (barge-in); resolves once its partial reply is stored when this process
   * runs it. A reply running in another process is asked to stop (`interruptElsewhere`) and stops
   * there a moment later.
   */
  async interrupt(owner: Owner, id: string): Promise<void> {
    await this.get(owner, id);
    if (this.#running.has(id)) await this.#stop(id);
    else this.#deps.interruptElsewhere?.(id);
  }

  /** Stops this process's running reply of a conversation, if any: for requests from other processes (the owner was checked there). */
  stopReply(id: string): Promise<void> {
    return this.#stop(id);
  }

  /** Observes every conversation's reply events and endings, e.g. to relay a reply started over REST to realtime clients. */
  onEvent(listener: ConversationListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Stores the user's message and starts the reply. Validation, 404, 409 ended / busy are thrown
   * here, before anything is stored; after that every outcome is an event.
   */
  async startReply(owner: Owner, id: string, content: string, options: ReplyOptions = {}): Promise<StartedReply> {
    checkText('content', content, Limits.contentMaxChars);
    const conversation = await this.get(owner, id);
    if (conversation.status === 'ended') {
      throw new ServiceError('conversation_ended', `Conversation ${id} has ended; start a new one to keep talking`);
    }
    if (!this.#running.has(id) && options.whenBusy === 'interrupt') this.#deps.interruptElsewhere?.(id);
    if (this.#running.has(id)) {
      if (options.whenBusy !== 'interrupt') {
        throw new ServiceError('conversation_busy', `Conversation ${id} is already replying; wait for it or interrupt it`, {
          isRetryable: true,
        });
      }
      await this.#stop(id);
      if (this.#running.has(id)) throw new ServiceError('conversation_busy', `Conversation ${id} is already replying`);
    }
    const { store, clock, ids, avatars, personas, providers, speech, blobs, usage, outbox } = this.#deps;
    const controller = new AbortController();
    const channel = new EventChannel<ReplyEvent>();
    let finished!: () => void;
    this.#running.set(id, { controller, done: new Promise<void>((resolve) => (finished = resolve)) });

    try {
      // The checks run before the message is stored, so the message is stored with its verdict,
      // and before any AI sees it. History is read first: frustration looks at earlier messages.
      const earlier = await store.messages.listRecent(id, Limits.historyMessages);
      const verdict = await this.#check(content, conversation, earlier, options.signal);
      const now = clock.now();
      const userMessage: MessageRecord = {
        id: ids.next('msg'),
        conversationId: id,
        role: 'user',
        content,
        status: 'complete',
        audioKey: null,
        audioBase: null,
        audioError: null,
        aiTokens: 0,
        ttsCharacters: 0,
        createdAt: now,
        safety: verdict.codes,
      };
      const escalatesNow = verdict.action === 'escalate' && conversation.escalatedAt === null;
      const escalatedAt = escalatesNow ? now : (conversation.escalatedAt ?? now);
      await store.transaction(async (tx) => {
        await tx.messages.create(userMessage);
        await tx.conversations.update(id, {
          updatedAt: now,
          ...(escalatesNow && { status: 'escalated', escalatedAt: now, escalationReason: verdict.escalationReason ?? 'requested' }),
        });
        await outbox.enqueue(tx, owner, 'message.created', messageCreated(conversation, userMessage));
        await enqueueUserSafetyEvents(tx, outbox, owner, conversation, userMessage.id, verdict, escalatesNow ? now : undefined);
      });
      const history = [...earlier, userMessage].slice(-Limits.historyMessages);
      const onAbort = () => controller.abort(options.signal?.reason);
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener('abort', onAbort, { once: true });

      const emit = (event: ReplyEvent) => {
        channel.push(event);
        for (const listener of this.#listeners) listener(id, event);
      };
      void runReply({
        conversation,
        avatar: await avatars.get(owner, conversation.avatarId),
        persona: conversation.personaId ? personas.find(conversation.personaId) : undefined,
        history,
        model: providers.chatModelWithFallback(conversation.aiProvider, conversation.aiModel),
        speech: speech.withFallback(conversation.ttsProvider),
        store,
        blobs,
        clock,
        ids,
        usage,
        outbox,
        owner,
        userMessageId: userMessage.id,
        verdict,
        ...(verdict.action === 'escalate' && {
          escalation: { reason: verdict.escalationReason ?? 'requested', message: conversation.safety.escalation.message, escalatedAt },
        }),
        signal: controller.signal,
        emit,
      }).finally(() => {
        options.signal?.removeEventListener('abort', onAbort);
        this.#running.delete(id);
        channel.close();
        finished();
      });
      return { userMessage, events: channel };
    } catch (error) {
      this.#running.delete(id);
      finished();
      throw error;
    }
  }

  /** Sends a message and waits for the whole reply; a failed reply throws (the user message stays stored). */
  async sendMessage(owner: Owner, id: string, content: string, options: ReplyOptions = {}): Promise<MessageRecord> {
    const { events } = await this.startReply(owner, id, content, options);
    let result: MessageRecord | undefined;
    let failure: ServiceError | undefined;
    for await (const event of events) {
      if (event.type === 'done') result = event.message;
      else if (event.type === 'error') failure = event.error;
    }
    if (failure) throw failure;
    if (!result) throw new ServiceError('internal_error', 'The reply ended without a result');
    return result;
  }

  /** Ends active conversations idle for longer than `idleMs`, with reason `timeout`. */
  async endIdle(idleMs: number): Promise<ConversationRecord[]> {
    const { store, clock } = this.#deps;
    const idle = await store.conversations.listIdle(clock.now() - idleMs, 100);
    const ended: ConversationRecord[] = [];
    for (const conversation of idle) {
      if (this.#running.has(conversation.id)) continue;
      ended.push(await this.end({ accountId: conversation.accountId, mode: conversation.mode }, conversation.id, 'timeout'));
    }
    return ended;
  }

  /** Stops every running reply and waits for them to store what they said. */
  async close(): Promise<void> {
    await Promise.all([...this.#running.keys()].map((id) => this.#stop(id)));
  }

  /**
   * The safety verdict on a user's message: the word-list checks, then — for a message they let
   * through — the vendor moderation check when one is configured. A moderation failure lets the
   * message pass (reported to `onBackgroundError`): a vendor outage must not silence every
   * conversation, and the word-list checks still ran.
   */
  async #check(content: string, conversation: ConversationRecord, earlier: readonly MessageRecord[], signal: AbortSignal | undefined): Promise<SafetyVerdict> {
    const recentUser = earlier.filter((m) => m.role === 'user').map((m) => m.content);
    const verdict = checkUserMessage(content, conversation.safety, recentUser);
    const { moderation } = this.#deps;
    if (!moderation || verdict.action === 'block' || verdict.action === 'escalate') return verdict;
    try {
      return withModeration(verdict, await moderation.check(verdict.masked ?? content, signal), conversation.safety);
    } catch (error) {
      if (!signal?.aborted) this.#deps.onBackgroundError?.(error);
      return verdict;
    }
  }

  async #stop(id: string): Promise<void> {
    const running = this.#running.get(id);
    if (!running) return;
    running.controller.abort(new ServiceError('conversation_busy', 'Interrupted'));
    await running.done;
  }
}
