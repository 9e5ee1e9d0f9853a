import type { Avatar } from '../avatars/avatar.js';
import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { Persona } from '../personas/persona.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { ConversationRecord, MessageRecord, Owner, Store } from '../ports/store.js';
import type { UsageService } from '../usage/usage-service.js';
import type { ChatModel, TokenUsage } from '../providers/chat-model.js';
import type { SpeechProvider } from '../speech/speech-provider.js';
import type { ReplyEvent } from './reply-event.js';
import { ProviderError, ServiceError, isServiceError } from '../errors.js';
import { SentenceSplitter } from '../speech/sentence-splitter.js';
import { Limits } from '../text-limits.js';
import { capReplyLength } from '../providers/cap-reply-length.js';
import { buildChatRequest } from './build-chat-request.js';
import { SpeechPipeline } from './speech-pipeline.js';
import type { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import { messageCreated, messageFailed } from './webhook-data.js';

export interface RunReplyContext {
  conversation: ConversationRecord;
  avatar: Avatar;
  persona: Persona | undefined;
  history: readonly MessageRecord[];
  model: ChatModel;
  /** Undefined for `browser` speech: text only. */
  speech: SpeechProvider | undefined;
  store: Store;
  blobs: BlobStore;
  clock: Clock;
  ids: IdGenerator;
  usage: UsageService;
  outbox: WebhookOutbox;
  owner: Owner;
  /** The message this reply answers (named by `message.failed`). */
  userMessageId: string;
  signal: AbortSignal;
  emit(event: ReplyEvent): void;
}

/**
 * Produces one assistant reply: streams the model, speaks each sentence as soon as it is complete
 * (speech runs alongside generation), saving the text as it grows, then stores the message with
 * its usage. Never throws: every outcome is emitted. Interrupted replies keep what was said,
 * marked `interrupted`.
 */
export async function runReply(context: RunReplyContext): Promise<void> {
  const { conversation, model, speech, store, blobs, clock, ids, usage: meter, outbox, owner, userMessageId, signal, emit } = context;
  emit({ type: 'state', state: 'thinking' });
  const audioBase = speech ? ids.next('aud') : null;
  // The reply is a stored row from its first moment, saved as it grows: a crash loses at most the
  // last sentence, and its clips are always reachable through `audio_base` (deleted with it).
  const reply: MessageRecord = {
    id: ids.next('msg'),
    conversationId: conversation.id,
    role: 'assistant',
    content: '',
    status: 'streaming',
    audioKey: null,
    audioBase,
    audioError: null,
    aiTokens: 0,
    ttsCharacters: 0,
    createdAt: clock.now(),
  };
  try {
    await store.messages.create(reply);
  } catch (error) {
    emit({ type: 'error', error: isServiceError(error) ? error : new ServiceError('internal_error', 'Storing the reply failed', { cause: error }) });
    emit({ type: 'state', state: 'idle' });
    return;
  }
  const pipeline =
    speech && audioBase
      ? new SpeechPipeline({
          provider: speech,
          voiceId: conversation.voiceId,
          blobs,
          keyBase: audioBase,
          signal,
          onClip: (clip) => emit(clip),
        })
      : undefined;
  const splitter = new SentenceSplitter(12);
  let text = '';
  let usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  let failure: ServiceError | undefined;
  let cutShort = false;
  const checkpoint = new Checkpoint((content) => store.messages.update(reply.id, { content }));

  try {
    const request = buildChatRequest({ ...context, signal });
    for await (const part of capReplyLength(model.stream(request), request, Limits.replyMaxChars)) {
      if (part.type === 'text-delta') {
        if (text === '') emit({ type: 'state', state: 'talking' });
        text += part.delta;
        emit({ type: 'text-delta', delta: part.delta });
        const sentences = splitter.push(part.delta);
        for (const sentence of sentences) pipeline?.enqueue(sentence);
        if (sentences.length > 0) checkpoint.save(text);
      } else if (part.type === 'error') {
        failure = part.error;
        break;
      } else {
        usage = part.usage;
        cutShort = part.finishReason === 'aborted';
      }
    }
  } catch (error) {
    failure = isServiceError(error)
      ? error
      : new ProviderError(model.provider, error instanceof Error ? error.message : String(error), { cause: error });
  }
  const interrupted = cutShort || signal.aborted || failure !== undefined;
  if (!interrupted) {
    const rest = splitter.flush();
    if (rest) pipeline?.enqueue(rest);
  }

  try {
    const spoken = pipeline ? await pipeline.finish() : { audioKey: null, audioError: null, characters: 0 };
    await checkpoint.settled();
    let message: MessageRecord | undefined;
    if (text.trim() !== '') {
      message = {
        ...reply,
        content: text,
        status: interrupted ? 'interrupted' : 'complete',
        audioKey: spoken.audioKey,
        audioBase: spoken.audioKey || spoken.characters > 0 ? audioBase : null,
        audioError: spoken.audioError,
        aiTokens: usage.inputTokens + usage.outputTokens,
        ttsCharacters: spoken.characters,
      };
      const stored = message;
      const now = clock.now();
      await store.transaction(async (tx) => {
        await tx.messages.update(stored.id, {
          content: stored.content,
          status: stored.status,
          audioKey: stored.audioKey,
          audioBase: stored.audioBase,
          audioError: stored.audioError,
          aiTokens: stored.aiTokens,
          ttsCharacters: stored.ttsCharacters,
        });
        await tx.conversations.addUsage(conversation.id, { aiTokens: stored.aiTokens, ttsCharacters: stored.ttsCharacters }, now);
        await meter.record(owner, { aiTokens: stored.aiTokens, ttsCharacters: stored.ttsCharacters }, tx);
        await outbox.enqueue(tx, owner, 'message.created', messageCreated(conversation, stored));
        if (failure) await outbox.enqueue(tx, owner, 'message.failed', messageFailed(conversation, userMessageId, failure, stored));
      });
    } else {
      if (!failure && !signal.aborted) failure = new ProviderError(model.provider, 'the model returned an empty reply');
      const failed = failure;
      await store.transaction(async (tx) => {
        await tx.messages.delete(reply.id);
        if (failed) await outbox.enqueue(tx, owner, 'message.failed', messageFailed(conversation, userMessageId, failed, undefined));
      });
    }
    if (failure) emit({ type: 'error', error: failure, ...(message && { message }) });
    else if (message) emit({ type: 'done', message });
  } catch (error) {
    emit({
      type: 'error',
      error: isServiceError(error) ? error : new ServiceError('internal_error', 'Storing the reply failed', { cause: error }),
    });
  } finally {
    emit({ type: 'state', state: 'idle' });
  }
}

/**
 * Saves a growing reply without queueing a write per sentence: one save at a time, and while it
 * runs only the newest text waits for the next. A failed save is not fatal (the final write
 * reports storage errors); `settled` waits for the last one.
 */
class Checkpoint {
  readonly #save: (content: string) => Promise<void>;
  #running: Promise<void> | undefined;
  #pending: string | undefined;

  constructor(save: (content: string) => Promise<void>) {
    this.#save = save;
  }

  save(content: string): void {
    this.#pending = content;
    this.#running ??= this.#drain();
  }

  async settled(): Promise<void> {
    await this.#running;
  }

  async #drain(): Promise<void> {
    while (this.#pending !== undefined) {
      const content = this.#pending;
      this.#pending = undefined;
      await this.#save(content).catch(() => undefined);
    }
    this.#running = undefined;
  }
}
