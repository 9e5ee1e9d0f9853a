import type { Avatar } from '../avatars/avatar.js';
import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { Persona } from '../personas/persona.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { ConversationRecord, MessageRecord, Owner, Store } from '../ports/store.js';
import type { UsageService } from '../usage/usage-service.js';
import type { ChatModel, TokenUsage } from '../providers/chat-model.js';
import type { SpeechProvider } from '../speech/speech-provider.js';
import type { ReplyEvent, SafetyEscalation } from './reply-event.js';
import type { SafetyVerdict } from '../safety/safety-check.js';
import { ReplyGuard, speakable } from './reply-guard.js';
import { enqueueReplySafetyEvents } from './safety-events.js';
import { estimateInputTokens, estimateTokens } from '../providers/token-count.js';
import { ProviderError, ServiceError, isServiceError } from '../errors.js';
import { SentenceSplitter } from '../speech/sentence-splitter.js';
import { Limits } from '../text-limits.js';
import { capReplyLength } from '../providers/cap-reply-length.js';
import { buildChatRequest } from './build-chat-request.js';
import { SpeechPipeline } from './speech-pipeline.js';
import { inferReplyEmotion } from './reply-emotion.js';
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
  /**
   * The safety verdict on the user's message, already stored with it. A `block` or `escalate`
   * verdict means the AI is never asked: the avatar says the refusal or hand-off message.
   */
  verdict: SafetyVerdict;
  /** Set when the verdict escalated: what the `safety` event tells clients. */
  escalation?: SafetyEscalation;
  signal: AbortSignal;
  emit(event: ReplyEvent): void;
}

/**
 * Produces one assistant reply: streams the model, checks each sentence as soon as it is complete
 * and then shows and speaks it (speech runs alongside generation), saving the text as it grows,
 * then stores the message with its usage. Never throws: every outcome is emitted. Interrupted
 * replies keep what was said, marked `interrupted`. When the user's message was blocked or
 * escalated, the reply is the refusal or hand-off message and no AI is asked.
 */
export async function runReply(context: RunReplyContext): Promise<void> {
  const { conversation, speech, store, blobs, clock, ids, usage: meter, outbox, owner, userMessageId, verdict, signal, emit } = context;
  const safety = conversation.safety;
  const scripted =
    verdict.action === 'escalate' ? safety.escalation.message : verdict.action === 'block' ? safety.refusal : undefined;
  const model = scripted === undefined ? context.model : scriptedModel(scripted);
  // Scripted lines are ours; only what a model writes is checked.
  const guard = scripted === undefined ? new ReplyGuard(safety) : undefined;
  emit({ type: 'state', state: 'thinking' });
  if (verdict.action !== 'allow') {
    emit({
      type: 'safety',
      side: 'user',
      codes: verdict.codes,
      action: verdict.action,
      ...(verdict.topic !== undefined && { topic: verdict.topic }),
      ...(context.escalation && { escalation: context.escalation }),
    });
  }
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
    safety: scripted === undefined ? [] : verdict.codes,
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
  let generated = '';
  let usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  let failure: ServiceError | undefined;
  let cutShort = false;
  let stopped = false;
  const checkpoint = new Checkpoint((content) => store.messages.update(reply.id, { content }));

  /** Shows and speaks one checked sentence; false when the reply must end here. */
  const say = (sentence: string): boolean => {
    const outcome = guard ? guard.review(sentence) : { text: sentence, stop: false, verdict: undefined };
    if (outcome.verdict) {
      const { codes, action, topic } = outcome.verdict;
      if (action !== 'allow') emit({ type: 'safety', side: 'reply', codes, action, ...(topic !== undefined && { topic }) });
    }
    if (outcome.text) {
      if (text === '') emit({ type: 'state', state: 'talking' });
      const delta = text === '' ? outcome.text : ` ${outcome.text}`;
      text += delta;
      // The face follows the words: the same emotion travels with the text and its audio.
      const emotion = inferReplyEmotion(outcome.text);
      emit({ type: 'text-delta', delta, ...(emotion && { emotion }) });
      pipeline?.enqueue(speakable(outcome.text), emotion);
      checkpoint.save(text);
    }
    return !outcome.stop;
  };

  const request = buildChatRequest({ ...context, signal });
  try {
    stream: for await (const part of capReplyLength(model.stream(request), request, Limits.replyMaxChars)) {
      if (part.type === 'text-delta') {
        generated += part.delta;
        for (const sentence of splitter.push(part.delta)) {
          if (!say(sentence)) {
            stopped = true;
            break stream; // leaving the loop closes the model's stream: nothing more is generated
          }
        }
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
  // A reply stopped by the guard never saw the vendor's usage report: estimate it, as for a capped reply.
  if (stopped && scripted === undefined) usage = { inputTokens: estimateInputTokens(request), outputTokens: estimateTokens(generated) };
  const interrupted = !stopped && (cutShort || signal.aborted || failure !== undefined);
  // The last words: checked and said when the reply ended by itself, or the vendor failed mid-way
  // (kept as the interrupted reply). A reply cut off by the client keeps only what it was shown.
  if (!stopped && !signal.aborted) {
    const rest = splitter.flush();
    if (rest) say(rest);
  }
  // Every sentence dropped (strict filter): the refusal stands in for the reply.
  if (text === '' && !interrupted && guard?.replaced) say(safety.refusal);

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
        safety: guard ? guard.codes : reply.safety,
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
          safety: stored.safety,
        });
        await tx.conversations.addUsage(conversation.id, { aiTokens: stored.aiTokens, ttsCharacters: stored.ttsCharacters }, now);
        await meter.record(owner, { aiTokens: stored.aiTokens, ttsCharacters: stored.ttsCharacters }, tx);
        await outbox.enqueue(tx, owner, 'message.created', messageCreated(conversation, stored));
        if (guard) await enqueueReplySafetyEvents(tx, outbox, owner, conversation, stored.id, guard);
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

/** A model that says one fixed line: the refusal or hand-off message, spoken like any reply. */
function scriptedModel(line: string): ChatModel {
  return {
    provider: 'safety',
    modelId: 'scripted',
    async *stream() {
      yield { type: 'text-delta', delta: line };
      yield { type: 'finish', finishReason: 'stop', usage: { inputTokens: 0, outputTokens: 0 } };
    },
  };
}
