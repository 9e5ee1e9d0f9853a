/**
 * The webhook events of the API (docs/webhooks.md, Events). Every body has the same envelope;
 * `data` depends on the type and always carries `conversationId` / `avatarId` where they apply.
 */
export const WebhookEventTypes = [
  'conversation.started',
  'conversation.ended',
  'conversation.escalated',
  'message.created',
  'message.failed',
  'avatar.updated',
  'avatar.deleted',
  'safety.escalation',
  'safety.topic_blocked',
  'safety.filter_triggered',
] as const;

export type WebhookEventType = (typeof WebhookEventTypes)[number];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WebhookEventTypes as readonly string[]).includes(value);
}

/** The JSON body of every delivery; its exact bytes are signed. */
export interface WebhookEventBody {
  /** `evt_…`: the same on every attempt; receivers deduplicate by it. */
  id: string;
  type: WebhookEventType;
  /** ISO 8601 time of the change that caused the event. */
  timestamp: string;
  data: Record<string, unknown>;
}

/** A custom avatar as the avatar events carry it (core/avatars/avatar-webhook-data.ts). */
const sampleAvatar = {
  id: 'robin-042',
  name: 'Robin',
  description: 'A patient guide for first-time customers.',
  tags: ['support'],
  defaultVoice: 'en-GB-Neural2-B',
  animations: { idle: 'idle_breathing', talking: 'talking_gestures', thinking: 'thinking_chin' },
  traits: { personality: 'Calm and patient.', speakingStyle: 'Short, clear sentences.' },
  vrmVersion: '1.0',
  modelBytes: 625092,
  hasPreview: true,
  createdAt: '2026-01-01T12:00:00.000Z',
  updatedAt: '2026-01-01T12:05:00.000Z',
};

/**
 * What `POST /webhooks/test` sends for each type: the shape of a real event of that type, with
 * ids that name nothing stored and `test: true`.
 */
export function sampleEventData(type: WebhookEventType, ids: { conversationId: string; messageId: string }): Record<string, unknown> {
  const conversation = { conversationId: ids.conversationId, avatarId: 'luna-001' };
  const samples: Record<WebhookEventType, Record<string, unknown>> = {
    'conversation.started': { ...conversation, personaId: null },
    'conversation.ended': { ...conversation, reason: 'ended' },
    'conversation.escalated': { ...conversation, messageId: ids.messageId, reason: 'requested', escalatedAt: '2026-01-01T00:00:00.000Z' },
    'message.created': { ...conversation, message: { id: ids.messageId, role: 'user', content: 'Hello!' } },
    'message.failed': { ...conversation, userMessageId: ids.messageId, error: { code: 'provider_error', message: 'The AI provider did not answer' } },
    'avatar.updated': { avatarId: sampleAvatar.id, change: 'updated', fields: ['description'], avatar: sampleAvatar },
    'avatar.deleted': { avatarId: sampleAvatar.id, avatar: sampleAvatar },
    'safety.escalation': { ...conversation, messageId: ids.messageId, reason: 'requested', codes: ['escalation_requested'] },
    'safety.topic_blocked': { ...conversation, messageId: ids.messageId, side: 'user', topic: 'medical advice' },
    'safety.filter_triggered': { ...conversation, messageId: ids.messageId, side: 'user', source: 'word_list', action: 'masked' },
  };
  return { ...samples[type], test: true };
}
