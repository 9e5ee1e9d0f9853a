import type { ConversationRecord, EscalationReason, MessageRecord, SafetyCode } from '../ports/store.js';
import type { ServiceError } from '../errors.js';

/** The `data` of the conversation webhook events (docs/webhooks.md, Events). */

export function conversationStarted(conversation: ConversationRecord) {
  return {
    conversationId: conversation.id,
    avatarId: conversation.avatarId,
    personaId: conversation.personaId,
    aiProvider: conversation.aiProvider,
    ttsProvider: conversation.ttsProvider,
    voiceId: conversation.voiceId,
  };
}

/** `reason`: `ended` (asked to), `timeout` (idle too long), `deleted` (deleted while active). */
export function conversationEnded(conversation: ConversationRecord, reason: string) {
  return { conversationId: conversation.id, avatarId: conversation.avatarId, reason };
}

export function messageCreated(conversation: ConversationRecord, message: MessageRecord) {
  return {
    conversationId: conversation.id,
    avatarId: conversation.avatarId,
    message: { id: message.id, role: message.role, content: message.content },
  };
}

/** A reply that failed; `message` is what was said before it failed, when anything was (stored as interrupted). */
export function messageFailed(conversation: ConversationRecord, userMessageId: string, error: ServiceError, partial: MessageRecord | undefined) {
  return {
    conversationId: conversation.id,
    avatarId: conversation.avatarId,
    userMessageId,
    error: { code: error.code, message: error.message },
    ...(partial && { message: { id: partial.id, role: partial.role, content: partial.content } }),
  };
}

/** Which side of the model a safety check ran on: the user's message or the reply. */
export type SafetySide = 'user' | 'reply';

export function topicBlocked(conversation: ConversationRecord, messageId: string, side: SafetySide, topic: string) {
  return { conversationId: conversation.id, avatarId: conversation.avatarId, messageId, side, topic };
}

/**
 * `source`: `word_list` (profanity, masked or — strict, in replies — replaced), `moderation` (the
 * vendor check flagged the message: blocked), `severe_content` (blocked because escalation is off).
 */
export function filterTriggered(
  conversation: ConversationRecord,
  messageId: string,
  side: SafetySide,
  outcome: { source: 'word_list' | 'moderation' | 'severe_content'; action: 'masked' | 'replaced' | 'blocked'; categories?: string[] },
) {
  return { conversationId: conversation.id, avatarId: conversation.avatarId, messageId, side, ...outcome };
}

export function safetyEscalation(conversation: ConversationRecord, messageId: string, reason: EscalationReason, codes: readonly SafetyCode[]) {
  return { conversationId: conversation.id, avatarId: conversation.avatarId, messageId, reason, codes: [...codes] };
}

export function conversationEscalated(conversation: ConversationRecord, messageId: string, reason: EscalationReason, escalatedAt: number) {
  return { conversationId: conversation.id, avatarId: conversation.avatarId, messageId, reason, escalatedAt: new Date(escalatedAt).toISOString() };
}
