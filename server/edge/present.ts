import type {
  ConversationListItem,
  ApiKeyRecord,
  Avatar,
  ConversationRecord,
  MessageRecord,
  Persona,
  WebhookRecord,
  DeliveryRecord,
  SafetySettings,
} from '../../core/index.js';
import { isCustomAvatar, isoTime, redactApiKey } from '../../core/index.js';
import type { UrlBuilder } from './urls.js';

/** Wire shapes (flat style, snake_case) of core records. The serializer adapts them to the style. */

const timeOrNull = (ms: number | null) => (ms === null ? null : isoTime(ms));

/** Where an avatar's files are served: the preset assets, or a custom avatar's files by their keys. */
export function avatarFileUrls(avatar: Avatar, urls: UrlBuilder): { model: string; preview: string | null } {
  if (!isCustomAvatar(avatar)) return { model: urls.avatarModel(avatar.id), preview: urls.avatarPreview(avatar.id) };
  return { model: urls.avatarFile(avatar.model.key), preview: avatar.previewKey === null ? null : urls.avatarFile(avatar.previewKey) };
}

export function presentAvatar(avatar: Avatar, urls: UrlBuilder) {
  const files = avatarFileUrls(avatar, urls);
  return {
    id: avatar.id,
    name: avatar.name,
    description: avatar.description,
    preview_url: files.preview,
    model_url: files.model,
    default_voice: avatar.defaultVoice,
    tags: avatar.tags,
    preset: avatar.preset,
  };
}

export function presentAvatarDetail(avatar: Avatar, urls: UrlBuilder) {
  return {
    ...presentAvatar(avatar, urls),
    animations: avatar.animations,
    voice: { default: avatar.defaultVoice, alternatives: avatar.alternativeVoices },
    traits: { personality: avatar.traits.personality, speaking_style: avatar.traits.speakingStyle },
    safety: avatar.safety ? presentSafety(avatar.safety) : null,
  };
}

export function presentPersona(persona: Persona) {
  return {
    id: persona.id,
    name: persona.name,
    vertical: persona.vertical,
    description: persona.description,
    system_prompt: persona.systemPrompt,
    greeting: persona.greeting,
    traits: persona.traits,
    suggested_avatar_id: persona.suggestedAvatarId,
  };
}

export function presentConversationCreated(conversation: ConversationRecord) {
  return {
    id: conversation.id,
    avatar_id: conversation.avatarId,
    status: conversation.status,
    created_at: isoTime(conversation.createdAt),
    persona_id: conversation.personaId,
    config: presentConfig(conversation),
    safety: presentSafety(conversation.safety),
  };
}

/** The engines and voice a conversation runs on. */
function presentConfig(conversation: ConversationRecord) {
  return { ai_provider: conversation.aiProvider, ai_model: conversation.aiModel, tts_provider: conversation.ttsProvider, voice_id: conversation.voiceId };
}

/** Safety settings in the wire shape clients send them in (docs/safety.md). */
export function presentSafety(settings: SafetySettings) {
  return {
    blocked_topics: settings.blockedTopics.map((topic) => ({ name: topic.name, keywords: [...topic.keywords] })),
    filter: settings.filter,
    escalation: { enabled: settings.escalation.enabled, message: settings.escalation.message },
    refusal: settings.refusal,
  };
}

/**
 * A conversation, with its messages when given. Built in one object literal per resource (no
 * spreads of partial objects): this is the hottest presenter (bench/README.md, api-throughput).
 * Fields only some conversations have are added in place, keeping the documented order.
 */
export function presentConversation(conversation: ConversationRecord, messages?: readonly MessageRecord[], urls?: UrlBuilder) {
  const wire: Record<string, unknown> = {
    id: conversation.id,
    avatar_id: conversation.avatarId,
    status: conversation.status,
    created_at: isoTime(conversation.createdAt),
    persona_id: conversation.personaId,
    config: presentConfig(conversation),
    safety: presentSafety(conversation.safety),
    updated_at: isoTime(conversation.updatedAt),
    ended_at: timeOrNull(conversation.endedAt),
  };
  if (conversation.endReason !== null) wire.end_reason = conversation.endReason;
  wire.escalated_at = timeOrNull(conversation.escalatedAt);
  if (conversation.escalationReason !== null) wire.escalation_reason = conversation.escalationReason;
  if (messages && urls) {
    const presented = new Array<unknown>(messages.length);
    for (let i = 0; i < messages.length; i++) presented[i] = presentMessage(messages[i]!, urls);
    wire.messages = presented;
  }
  wire.usage = { ai_tokens: conversation.aiTokens, tts_characters: conversation.ttsCharacters };
  return wire as ReturnType<typeof presentConversationCreated> & {
    updated_at: string;
    ended_at: string | null;
    end_reason?: string;
    escalated_at: string | null;
    escalation_reason?: string;
    messages?: ReturnType<typeof presentMessage>[];
    usage: { ai_tokens: number; tts_characters: number };
  };
}

/** A conversation as a list shows it (GET /v1/conversations). */
export function presentConversationSummary({ conversation, messageCount }: ConversationListItem) {
  return {
    id: conversation.id,
    avatar_id: conversation.avatarId,
    persona_id: conversation.personaId,
    mode: conversation.mode,
    status: conversation.status,
    created_at: isoTime(conversation.createdAt),
    ended_at: timeOrNull(conversation.endedAt),
    message_count: messageCount,
    escalated: conversation.escalatedAt !== null,
  };
}

export function presentMessage(message: MessageRecord, urls: UrlBuilder) {
  const wire: Record<string, unknown> = { id: message.id, role: message.role, content: message.content };
  if (message.role === 'assistant') {
    wire.audio_url = message.audioKey ? urls.audio(message.audioKey) : null;
    if (message.audioError !== null) wire.audio_error = message.audioError;
    wire.status = message.status;
  }
  wire.created_at = isoTime(message.createdAt);
  wire.safety = message.safety;
  wire.usage = { ai_tokens: message.aiTokens, tts_characters: message.ttsCharacters };
  return wire as {
    id: string;
    role: MessageRecord['role'];
    content: string;
    audio_url?: string | null;
    audio_error?: string;
    status?: MessageRecord['status'];
    created_at: string;
    safety: readonly MessageRecord['safety'][number][];
    usage: { ai_tokens: number; tts_characters: number };
  };
}

export function presentApiKey(key: ApiKeyRecord) {
  return {
    id: key.id,
    name: key.name,
    mode: key.mode,
    redacted: redactApiKey(key.mode, key.last4),
    allowed_origins: key.allowedOrigins,
    created_at: isoTime(key.createdAt),
    last_used_at: timeOrNull(key.lastUsedAt),
    revoked_at: timeOrNull(key.revokedAt),
  };
}

/** A webhook registration; never its secret. */
export function presentWebhook(webhook: WebhookRecord) {
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    status: webhook.status,
    status_reason: webhook.statusReason,
    status_since: timeOrNull(webhook.statusSince),
    mode: webhook.mode,
    created_at: isoTime(webhook.createdAt),
    updated_at: isoTime(webhook.updatedAt),
  };
}

export function presentDelivery(delivery: DeliveryRecord) {
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    response_status: delivery.lastResponseStatus,
    error: delivery.lastError,
    created_at: isoTime(delivery.createdAt),
    last_attempt_at: timeOrNull(delivery.lastAttemptAt),
    duration_ms: delivery.lastDurationMs,
    next_attempt_at: delivery.status === 'pending' ? timeOrNull(delivery.nextAttemptAt) : null,
  };
}
