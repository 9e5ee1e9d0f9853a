import type { ConversationRecord, Owner, Store } from '../ports/store.js';
import type { SafetyVerdict } from '../safety/safety-check.js';
import type { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import type { ReplyGuard } from './reply-guard.js';
import { conversationEscalated, filterTriggered, safetyEscalation, topicBlocked } from './webhook-data.js';

/**
 * The webhook events of a user's message's safety verdict, written in the transaction that stores
 * the message: `safety.topic_blocked`, `safety.filter_triggered` (masked profanity, a moderation
 * flag, or severe content blocked because escalation is off), and for a hand-off
 * `safety.escalation` — plus `conversation.escalated` when `escalatedAt` says this message is the
 * one that escalated the conversation.
 */
export async function enqueueUserSafetyEvents(
  tx: Store,
  outbox: WebhookOutbox,
  owner: Owner,
  conversation: ConversationRecord,
  messageId: string,
  verdict: SafetyVerdict,
  escalatedAt: number | undefined,
): Promise<void> {
  const { codes } = verdict;
  if (verdict.topic !== undefined) {
    await outbox.enqueue(tx, owner, 'safety.topic_blocked', topicBlocked(conversation, messageId, 'user', verdict.topic));
  }
  if (codes.includes('moderation_flagged')) {
    const categories = verdict.moderationCategories ?? [];
    await outbox.enqueue(tx, owner, 'safety.filter_triggered', filterTriggered(conversation, messageId, 'user', { source: 'moderation', action: 'blocked', categories }));
  }
  if (codes.includes('filter_triggered')) {
    await outbox.enqueue(tx, owner, 'safety.filter_triggered', filterTriggered(conversation, messageId, 'user', { source: 'word_list', action: 'masked' }));
  }
  if (codes.includes('severe_content') && verdict.action !== 'escalate') {
    await outbox.enqueue(tx, owner, 'safety.filter_triggered', filterTriggered(conversation, messageId, 'user', { source: 'severe_content', action: 'blocked' }));
  }
  if (verdict.action === 'escalate' && verdict.escalationReason !== undefined) {
    const reason = verdict.escalationReason;
    await outbox.enqueue(tx, owner, 'safety.escalation', safetyEscalation(conversation, messageId, reason, codes));
    if (escalatedAt !== undefined) {
      await outbox.enqueue(tx, owner, 'conversation.escalated', conversationEscalated(conversation, messageId, reason, escalatedAt));
    }
  }
}

/** The webhook events of what a reply's guard did, written with the stored reply. */
export async function enqueueReplySafetyEvents(
  tx: Store,
  outbox: WebhookOutbox,
  owner: Owner,
  conversation: ConversationRecord,
  messageId: string,
  guard: ReplyGuard,
): Promise<void> {
  if (guard.topic !== undefined) {
    await outbox.enqueue(tx, owner, 'safety.topic_blocked', topicBlocked(conversation, messageId, 'reply', guard.topic));
  }
  if (guard.codes.includes('filter_triggered')) {
    const action = guard.replaced ? 'replaced' : 'masked';
    await outbox.enqueue(tx, owner, 'safety.filter_triggered', filterTriggered(conversation, messageId, 'reply', { source: 'word_list', action }));
  }
}
