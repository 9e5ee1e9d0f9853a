import type { ServiceError } from '../errors.js';
import type { EscalationReason, MessageRecord, SafetyCode } from '../ports/store.js';
import type { SafetyVerdict } from '../safety/safety-check.js';
import type { VisemeCue } from '../speech/speech-provider.js';
import type { ReplyEmotion } from './reply-emotion.js';

/** What the avatar is doing, for animation: waiting for the reply, speaking it, or neither. */
export type AvatarState = 'idle' | 'thinking' | 'talking';

/** One event of a reply as it is produced, in order. Hosts turn these into SSE / socket frames. */
export type ReplyEvent =
  | { type: 'state'; state: AvatarState }
  /** Reply text, one checked sentence at a time; `emotion`: what the sentence's words convey (`inferReplyEmotion`). */
  | { type: 'text-delta'; delta: string; emotion?: ReplyEmotion }
  /** A synthesized sentence; `seq` counts from 0 within the reply; `emotion` as on its text. */
  | { type: 'audio'; key: string; seq: number; text: string; durationMs: number; visemes?: VisemeCue[]; emotion?: ReplyEmotion }
  /**
   * Safety checks fired: on the user's message (`user`: before the AI saw it) or on a sentence of
   * the reply (`reply`: before it was shown or spoken). `escalation` is set when the conversation
   * is handed to a person; the avatar then says `escalation.message`.
   */
  | { type: 'safety'; side: 'user' | 'reply'; codes: SafetyCode[]; action: Exclude<SafetyVerdict['action'], 'allow'>; topic?: string; escalation?: SafetyEscalation }
  /** The stored assistant message, with its usage. */
  | { type: 'done'; message: MessageRecord }
  /** The reply failed; the user's message is stored, and so is any partial reply (interrupted). */
  | { type: 'error'; error: ServiceError; message?: MessageRecord };

/** What observers of a conversation see: its replies' events, and its end. */
export type ConversationEvent = ReplyEvent | { type: 'ended'; reason: string };

export interface SafetyEscalation {
  reason: EscalationReason;
  message: string;
  /** When the conversation was escalated (the first time, if it already was). */
  escalatedAt: number;
}
