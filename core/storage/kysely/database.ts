import type { Generated } from 'kysely';

/** Table shapes as the SQL engines store them (snake_case columns, epoch-millisecond times). */

export interface AccountsTable {
  id: string;
  email: string;
  password_hash: string;
  tier: string;
  rpm_override: number | null;
  connections_override: number | null;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  mode: string;
  hash: string;
  last4: string;
  /** JSON array of origins, or null. */
  allowed_origins: string | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface ConversationsTable {
  id: string;
  account_id: string;
  mode: string;
  avatar_id: string;
  persona_id: string | null;
  status: string;
  ai_provider: string;
  ai_model: string;
  tts_provider: string;
  voice_id: string;
  system_prompt: string | null;
  ai_tokens: number;
  tts_characters: number;
  created_at: number;
  updated_at: number;
  ended_at: number | null;
  end_reason: string | null;
  /** JSON of the SafetySettings; null: the defaults (rows from before safety settings). */
  safety: string | null;
  escalated_at: number | null;
  escalation_reason: string | null;
}

export interface MessagesTable {
  id: string;
  conversation_id: string;
  role: string;
  content: string;
  status: string;
  audio_key: string | null;
  audio_base: string | null;
  audio_error: string | null;
  ai_tokens: number;
  tts_characters: number;
  created_at: number;
  /** Position in the conversation, from 1, in the order stored. */
  seq: number;
  /** JSON list of the safety codes that fired; null when none. */
  safety: string | null;
}

export interface UsageDailyTable {
  account_id: string;
  mode: string;
  /** UTC date, YYYY-MM-DD. */
  day: string;
  ai_tokens: number;
  tts_characters: number;
}

export interface AvatarsTable {
  id: string;
  account_id: string;
  mode: string;
  name: string;
  description: string;
  /** JSON array of tags. */
  tags: string;
  default_voice: string;
  /** JSON object `{idle, talking, thinking}`. */
  animations: string;
  personality: string;
  speaking_style: string;
  model_key: string;
  model_bytes: number;
  vrm_version: string;
  preview_key: string | null;
  /** JSON of the avatar's SafetySettings; null when it has none. */
  safety: string | null;
  created_at: number;
  updated_at: number;
}

export interface WebhooksTable {
  id: string;
  account_id: string;
  mode: string;
  url: string;
  /** JSON array of event types. */
  events: string;
  secret: string;
  status: string;
  status_reason: string | null;
  status_since: number | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookOutboxTable {
  /** Insertion order (SQLite's rowid); generated. */
  seq: Generated<number>;
  delivery_id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  body: string;
  created_at: number;
}

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  /** The exact JSON sent on every attempt. */
  body: string;
  status: string;
  attempts: number;
  next_attempt_at: number | null;
  locked_until: number | null;
  last_attempt_at: number | null;
  last_response_status: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  created_at: number;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  conversations: ConversationsTable;
  messages: MessagesTable;
  usage_daily: UsageDailyTable;
  avatars: AvatarsTable;
  webhooks: WebhooksTable;
  webhook_outbox: WebhookOutboxTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
