import type { Selectable } from 'kysely';
import type {
  AccountRecord,
  AvatarRecord,
  ApiKeyRecord,
  ConversationRecord,
  ConversationStatus,
  KeyMode,
  MessageRecord,
  MessageRole,
  MessageStatus,
  Tier,
  DeliveryRecord,
  EscalationReason,
  SafetyCode,
  SafetySettings,
  DeliveryStatus,
  WebhookRecord,
  WebhookStatus,
} from '../../ports/store.js';
import { DEFAULT_SAFETY } from '../../safety/safety-settings.js';
import type { AccountsTable, ApiKeysTable, AvatarsTable, ConversationsTable, MessagesTable, WebhookDeliveriesTable, WebhooksTable } from './database.js';

/** Some drivers (node-postgres) return 64-bit integers as strings; records always hold numbers. */
function num(value: number | string): number;
function num(value: number | string | null): number | null;
function num(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}

export function toAccount(row: Selectable<AccountsTable>): AccountRecord {
  return {
    id: row.id,
    email: row.email,
    passwordHash: row.password_hash,
    tier: row.tier as Tier,
    rpmOverride: num(row.rpm_override),
    connectionsOverride: num(row.connections_override),
    createdAt: num(row.created_at),
  };
}

export function toApiKey(row: Selectable<ApiKeysTable>): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    mode: row.mode as KeyMode,
    hash: row.hash,
    last4: row.last4,
    allowedOrigins: row.allowed_origins === null ? null : (JSON.parse(row.allowed_origins) as string[]),
    createdAt: num(row.created_at),
    lastUsedAt: num(row.last_used_at),
    revokedAt: num(row.revoked_at),
  };
}

export function toConversation(row: Selectable<ConversationsTable>): ConversationRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    mode: row.mode as KeyMode,
    avatarId: row.avatar_id,
    personaId: row.persona_id,
    status: row.status as ConversationStatus,
    aiProvider: row.ai_provider,
    aiModel: row.ai_model,
    ttsProvider: row.tts_provider,
    voiceId: row.voice_id,
    systemPrompt: row.system_prompt,
    aiTokens: num(row.ai_tokens),
    ttsCharacters: num(row.tts_characters),
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
    endedAt: num(row.ended_at),
    endReason: row.end_reason,
    safety: row.safety === null ? DEFAULT_SAFETY : (JSON.parse(row.safety) as SafetySettings),
    escalatedAt: num(row.escalated_at),
    escalationReason: row.escalation_reason as EscalationReason | null,
  };
}

export function toMessage(row: Selectable<MessagesTable>): MessageRecord {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    role: row.role as MessageRole,
    content: row.content,
    status: row.status as MessageStatus,
    audioKey: row.audio_key,
    audioBase: row.audio_base,
    audioError: row.audio_error,
    aiTokens: num(row.ai_tokens),
    ttsCharacters: num(row.tts_characters),
    createdAt: num(row.created_at),
    safety: row.safety === null ? NO_CODES : (JSON.parse(row.safety) as SafetyCode[]),
  };
}

const NO_CODES: readonly SafetyCode[] = Object.freeze([]);

/** A message's safety codes as stored: null when none fired. */
export function safetyCodesColumn(codes: readonly SafetyCode[]): string | null {
  return codes.length === 0 ? null : JSON.stringify(codes);
}

export function toWebhook(row: Selectable<WebhooksTable>): WebhookRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    mode: row.mode as KeyMode,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    secret: row.secret,
    status: row.status as WebhookStatus,
    statusReason: row.status_reason,
    statusSince: num(row.status_since),
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
  };
}

export function toDelivery(row: Omit<Selectable<WebhookDeliveriesTable>, 'body'>): DeliveryRecord {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status as DeliveryStatus,
    attempts: num(row.attempts),
    nextAttemptAt: num(row.next_attempt_at),
    lockedUntil: num(row.locked_until),
    lastAttemptAt: num(row.last_attempt_at),
    lastResponseStatus: num(row.last_response_status),
    lastError: row.last_error,
    lastDurationMs: num(row.last_duration_ms),
    createdAt: num(row.created_at),
  };
}

export function toAvatar(row: Selectable<AvatarsTable>): AvatarRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    mode: row.mode as KeyMode,
    name: row.name,
    description: row.description,
    tags: JSON.parse(row.tags) as string[],
    defaultVoice: row.default_voice,
    animations: JSON.parse(row.animations) as AvatarRecord['animations'],
    personality: row.personality,
    speakingStyle: row.speaking_style,
    modelKey: row.model_key,
    modelBytes: num(row.model_bytes),
    vrmVersion: row.vrm_version as AvatarRecord['vrmVersion'],
    previewKey: row.preview_key,
    safety: row.safety === null ? null : (JSON.parse(row.safety) as SafetySettings),
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
  };
}
