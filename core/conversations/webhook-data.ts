import type { ConversationRecord, MessageRecord } from '../ports/store.js';
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
