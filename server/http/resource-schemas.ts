import type {
  AIProvider,
  ConversationStatus,
  EscalationReason,
  FinishReason,
  KeyMode,
  MessageRole,
  MessageStatus,
  ModelCapability,
  Voice,
} from '../../core/index.js';
import { AvatarAnimations, SAFETY_CODE_ORDER, SAFETY_LIMITS, SafetyFilterLevels, Verticals, WebhookEventTypes } from '../../core/index.js';
import type { DeliveryStatus, WebhookStatus } from '../../core/index.js';
import { s } from '../schema/schema.js';
import type { JsonSchema } from '../schema/schema.js';

/**
 * Success bodies of the JSON routes (flat style), for the OpenAPI document. They are written with
 * the request DSL so that test/server/response-schemas.test.ts can `parse` real responses with
 * them: a field the server sends but the document lacks (or the reverse) fails that test.
 */

/**
 * Every member of the core union `U`, checked both ways by the compiler: a value core adds or
 * drops breaks the build here instead of silently leaving the document behind.
 */
const every =
  <U extends string>() =>
  <const V extends readonly U[]>(values: V & ([Exclude<U, V[number]>] extends [never] ? unknown : never)): V =>
    values;

const time = (description: string) => s.string({ format: 'date-time', description });
const nullableTime = (description: string) => s.nullable(time(description));
const url = (description: string) => s.string({ format: 'uri', description });
const count = (description: string) => s.integer({ min: 0, description });

const usage = s.object(
  {
    ai_tokens: count('AI tokens, prompt and completion'),
    tts_characters: count('Characters synthesized to speech'),
  },
  'Metered usage',
);

const dependencySchema = s.object(
  {
    status: s.enum(['ok', 'failing'] as const),
    ms: count('How long the check took'),
    problem: s.optional(s.string({ description: 'What is wrong, when failing' })),
  },
  'One dependency: answered, or what is wrong',
);

const dependenciesSchema = s.object(
  {
    database: dependencySchema,
    blob_store: dependencySchema,
    redis: s.optional(dependencySchema),
  },
  'Each dependency the server needs (Redis only when REDIS_URL is set)',
);

export const healthSchema = s.object({
  status: s.enum(['ok'] as const),
  version: s.string({ description: 'Version of the server package' }),
  uptime_s: count('Seconds since the server started'),
  checks: dependenciesSchema,
});

export const healthReportSchema = s.object({
  status: s.enum(['ok', 'unavailable', 'shutting_down'] as const, 'ok: send traffic; unavailable: a dependency fails; shutting_down: the server is stopping'),
  version: s.string({ description: 'Version of the server package' }),
  uptime_s: count('Seconds since the server started'),
  checks: dependenciesSchema,
});

export const liveSchema = s.object({ status: s.enum(['ok'] as const), uptime_s: count('Seconds since the server started') });

export const deletedSchema = s.object({ deleted: s.boolean('Always true') });

// Safety settings (docs/safety.md): of conversations, and the defaults custom avatars may carry

const L = SAFETY_LIMITS;

/** Safety settings as clients send them at creation; every part optional (the persona's defaults fill in). */
export const safetyInputSchema = s.object(
  {
    blocked_topics: s.optional(
      s.array(
        s.object({
          name: s.string({ min: 1, max: L.maxTopicNameChars, description: 'Shown in events, e.g. "medical advice"' }),
          keywords: s.array(s.string({ min: 1, max: L.maxKeywordChars }), {
            min: 1,
            max: L.maxKeywords,
            description: 'Words or phrases; a message containing any of them (whole words, any case) is on the topic',
          }),
        }),
        { max: L.maxTopics, description: "Topics the avatar refuses to discuss; replaces the persona's list" },
      ),
    ),
    filter: s.optional(s.enum(SafetyFilterLevels, 'Profanity filter: off, standard (mask), strict (replies: drop the sentence). Default standard')),
    escalation: s.optional(
      s.object({
        enabled: s.optional(s.boolean('Hand off to a person on request, repeated frustration or severe content. Default true')),
        message: s.optional(s.string({ min: 1, max: L.maxMessageChars, description: 'What the avatar says when handing off' })),
      }),
    ),
    refusal: s.optional(s.string({ min: 1, max: L.maxMessageChars, description: 'What the avatar says instead of discussing a blocked topic' })),
  },
  'Safety settings (docs/safety.md)',
);

export const safetySchema = s.object(
  {
    blocked_topics: s.array(s.object({ name: s.string(), keywords: s.array(s.string()) })),
    filter: s.enum(SafetyFilterLevels),
    escalation: s.object({ enabled: s.boolean(), message: s.string() }),
    refusal: s.string(),
  },
  'The safety settings the conversation runs with, defaults resolved',
);

// Avatars and personas

const avatarFields = {
  id: s.string({ description: 'e.g. luna-001' }),
  name: s.string(),
  description: s.string(),
  preview_url: s.nullable(url('PNG preview; null for a custom avatar uploaded without one')),
  model_url: url('VRM model (1.0 for presets; 1.0 or 0.x for custom avatars)'),
  default_voice: s.string({ description: 'Voice id used unless a conversation picks another, e.g. en-US-Neural2-F' }),
  tags: s.array(s.string()),
  preset: s.boolean('true: ships with the service, read-only; false: your custom avatar'),
};

export const avatarSchema = s.object(avatarFields, 'An avatar: a preset or one of your custom avatars');

export const avatarListSchema = s.object({ avatars: s.array(avatarSchema) });

export const avatarDetailSchema = s.object(
  {
    ...avatarFields,
    animations: s.object(
      {
        idle: s.enum(AvatarAnimations.idle),
        talking: s.enum(AvatarAnimations.talking),
        thinking: s.enum(AvatarAnimations.thinking),
      },
      'The animation the widget plays in each state',
    ),
    voice: s.object({ default: s.string(), alternatives: s.array(s.string()) }),
    traits: s.object({ personality: s.string(), speaking_style: s.string() }),
    safety: s.nullable(safetySchema),
  },
  'An avatar with its animations, voices and traits',
);

export const avatarModelSchema = s.object({
  id: s.string(),
  model_url: url('VRM model'),
  format: s.enum(['vrm'] as const),
  spec_version: s.enum(['1.0', '0.x'] as const, 'The VRM specification the file declares'),
  size_bytes: count('Size of the model file'),
});

export const personaSchema = s.object(
  {
    id: s.string(),
    name: s.string(),
    vertical: s.enum(Verticals),
    description: s.string(),
    system_prompt: s.string({ description: 'Instructions the AI gets in this role' }),
    greeting: s.string({ description: 'Opening line' }),
    traits: s.array(s.string()),
    suggested_avatar_id: s.string(),
  },
  'A persona preset: a role an avatar can play',
);

export const personaListSchema = s.object({ personas: s.array(personaSchema) });

export const personaVerticalSchema = s.object({ vertical: s.enum(Verticals), personas: s.array(personaSchema) });

// Conversations

const safetyCodes = s.array(s.enum(SAFETY_CODE_ORDER), {
  description: 'Safety checks that fired on this message (docs/safety.md); empty when none',
});

export const messageSchema = s.object(
  {
    id: s.string({ description: 'msg_…' }),
    role: s.enum(every<MessageRole>()(['user', 'assistant'])),
    content: s.string({ description: 'The text; for an interrupted reply, what was said before the cut' }),
    audio_url: s.optional(s.nullable(url('Assistant messages only: the reply as MP3; null without server speech'))),
    audio_error: s.optional(s.string({ description: 'Assistant messages only, present when speech synthesis failed' })),
    status: s.optional(
      // A reply still `streaming` is not listed: GET shows stored turns only.
      s.enum(every<Exclude<MessageStatus, 'streaming'>>()(['complete', 'interrupted']), 'Assistant messages only; interrupted: cut off (client gone, barge-in, server stopped mid-reply)'),
    ),
    created_at: time('When the message was stored'),
    safety: safetyCodes,
    usage,
  },
  'A message of a conversation',
);

const createdFields = {
  id: s.string({ description: 'conv_…' }),
  avatar_id: s.string(),
  status: s.enum(every<ConversationStatus>()(['active', 'escalated', 'ended']), 'escalated: handed to a person (messages are still accepted)'),
  created_at: time('When the conversation was created'),
  persona_id: s.nullable(s.string({ description: 'Persona preset the avatar plays, if any' })),
  config: s.object(
    { ai_provider: s.string(), ai_model: s.string(), tts_provider: s.string(), voice_id: s.string() },
    'The engines and voice the conversation uses, defaults resolved',
  ),
  safety: safetySchema,
};

const conversationFields = {
  ...createdFields,
  updated_at: time('Last change'),
  ended_at: nullableTime('When it ended; null while active'),
  end_reason: s.optional(s.string({ description: 'Present once ended: ended (by the client) or timeout (idle)' })),
  escalated_at: nullableTime('When it was handed to a person; null if never'),
  escalation_reason: s.optional(
    s.enum(every<EscalationReason>()(['requested', 'frustration', 'severe_content']), 'Present once escalated: why'),
  ),
  usage,
};

export const conversationCreatedSchema = s.object(createdFields, 'A new conversation');

export const conversationSchema = s.object(conversationFields, 'A conversation with its usage');

export const conversationWithMessagesSchema = s.object(
  { ...conversationFields, messages: s.array(messageSchema, { description: 'Oldest first' }) },
  'A conversation with its messages and usage',
);

export const messageListSchema = s.object(
  {
    messages: s.array(messageSchema, { description: 'Oldest first' }),
    has_more: s.boolean('More follow: ask again with starting_after set to the last id'),
  },
  "One page of a conversation's messages",
);

export const sessionSchema = s.object({
  token: s.string({ description: 'sess_… bearer token for this one conversation' }),
  expires_at: time('When the token stops working'),
  conversation_id: s.string({ description: 'The conversation the token is scoped to' }),
});

export const usageReportSchema = s.object({
  from: s.string({ format: 'date', description: 'First UTC day of the report' }),
  to: s.string({ format: 'date', description: 'Last UTC day of the report' }),
  total: usage,
  days: s.array(
    s.object({ date: s.string({ format: 'date' }), ai_tokens: count('AI tokens'), tts_characters: count('Characters synthesized') }),
    { description: 'Days with usage only, oldest first' },
  ),
});

// AI

const capabilities = s.array(
  s.enum(every<ModelCapability>()(['chat', 'streaming', 'system-prompt', 'vision', 'tools', 'offline'])),
);

const providerFields = {
  id: s.string({ description: 'What to pass as provider / ai_provider' }),
  name: s.string(),
  description: s.string(),
  kind: s.enum(every<AIProvider['kind']>()(['offline', 'vendor', 'custom'])),
  configured: s.boolean('Whether its key or URL is set here, so calls can succeed'),
  default: s.boolean('Whether it is used when no provider is given'),
  default_model: s.string(),
  capabilities,
};

export const aiProviderListSchema = s.object({ providers: s.array(s.object(providerFields)) });

export const modelListSchema = s.object({
  default_provider: s.string(),
  providers: s.array(
    s.object({
      ...providerFields,
      models: s.array(s.object({ id: s.string(), name: s.string(), context_window: count('In tokens'), capabilities })),
    }),
  ),
});

export const chatCompletionSchema = s.object({
  id: s.string({ description: 'chat_…' }),
  provider: s.string({ description: 'The provider that answered' }),
  model: s.string({ description: 'The model that answered' }),
  content: s.string(),
  finish_reason: s.enum(every<FinishReason>()(['stop', 'length', 'content-filter', 'aborted', 'error', 'other'])),
  usage: s.object({
    prompt_tokens: count('Input tokens'),
    completion_tokens: count('Output tokens'),
    ai_tokens: count('prompt_tokens + completion_tokens, as metered'),
  }),
});

// Speech

export const voiceListSchema = s.object({
  voices: s.array(
    s.object({
      id: s.string({ description: 'What to pass as voice_id, e.g. en-US-Neural2-F' }),
      name: s.string(),
      locale: s.string(),
      gender: s.enum(every<Voice['gender']>()(['female', 'male', 'neutral'])),
      provider: s.string({ description: 'The speech engine' }),
      engine_voice: s.string({ description: 'What the engine speaks this voice with' }),
      available: s.boolean('Whether the engine can synthesize here'),
    }),
  ),
});

export const ttsSynthesisSchema = s.object({
  audio_url: url('The MP3'),
  provider: s.string({ description: 'The engine that spoke (differs from the one asked for after a fallback)' }),
  voice_id: s.string(),
  engine_voice: s.string(),
  characters: count('Characters billed'),
  duration_ms: count('Length of the audio'),
});

// Accounts and keys

export const loginSchema = s.object({
  token: s.string({ description: 'Account token (JWT) for the key management routes' }),
  expires_at: time('When the token stops working'),
});

const apiKeyFields = {
  id: s.string({ description: 'key_…' }),
  name: s.string(),
  mode: s.enum(every<KeyMode>()(['live', 'test'])),
  redacted: s.string({ description: 'The key with all but its last 4 characters hidden, e.g. svc_test_…a1b2' }),
  allowed_origins: s.nullable(s.array(s.string(), { description: 'Browser origins allowed to use the key; null: any' })),
  created_at: time('When the key was created'),
  last_used_at: nullableTime('Last authenticated request; null if never used'),
  revoked_at: nullableTime('null while the key works'),
};

export const apiKeySchema = s.object(apiKeyFields, 'An API key (its value is never shown again)');

export const apiKeyListSchema = s.object({
  api_keys: s.array(apiKeySchema, { description: 'Oldest first' }),
  has_more: s.boolean('More keys follow: ask again with starting_after set to the last id'),
});

export const apiKeyCreatedSchema = s.object(
  { ...apiKeyFields, key: s.string({ description: 'The key itself: shown in this response only' }) },
  'A new API key with its value',
);

// Webhooks

export const webhookSchema = s.object(
  {
    id: s.string({ description: 'wh_…' }),
    url: url('Where events are POSTed'),
    events: s.array(s.enum(WebhookEventTypes), { description: 'Event types sent to it' }),
    status: s.enum(every<WebhookStatus>()(['active', 'failing', 'disabled']), 'failing: deliveries keep failing (the owner was e-mailed); disabled: nothing is sent'),
    status_reason: s.nullable(s.string({ description: 'Why it is failing or disabled' })),
    status_since: nullableTime('When the status began'),
    mode: s.enum(every<KeyMode>()(['live', 'test']), 'Events of this mode reach it (that of the key that registered it)'),
    created_at: time('When it was registered'),
    updated_at: time('Last change'),
  },
  'A webhook registration (its secret is never shown)',
);

export const webhookListSchema = s.object({
  webhooks: s.array(webhookSchema, { description: 'Oldest first' }),
  has_more: s.boolean('More follow: ask again with starting_after set to the last id'),
});

export const deliverySchema = s.object(
  {
    id: s.string({ description: 'dlv_…' }),
    event_id: s.string({ description: 'evt_…, the same on every attempt' }),
    event_type: s.enum(WebhookEventTypes),
    status: s.enum(every<DeliveryStatus>()(['pending', 'succeeded', 'failed', 'cancelled']), 'pending: an attempt is due; failed: every attempt failed; cancelled: the webhook was disabled first'),
    attempts: count('Attempts made'),
    response_status: s.nullable(s.integer({ description: "The receiver's HTTP status at the last attempt" })),
    error: s.nullable(s.string({ description: 'Why the last attempt failed' })),
    created_at: time('When the event happened'),
    last_attempt_at: nullableTime('Start of the last attempt'),
    duration_ms: s.nullable(count('Length of the last attempt')),
    next_attempt_at: nullableTime('When the next attempt is due'),
  },
  'One event on its way to one webhook',
);

export const deliveryListSchema = s.object({
  deliveries: s.array(deliverySchema, { description: 'Newest first' }),
  has_more: s.boolean('More follow: ask again with starting_after set to the last id'),
});

export const webhookTestSchema = s.object({ event_id: s.string({ description: 'evt_… of the sample event' }) });

/** The body of every webhook delivery (the same in both response styles); `data` is open. */
export const webhookEventSchema: JsonSchema = {
  type: 'object',
  description: 'A webhook event, POSTed to the receiver and signed in the x-service-signature header (docs/webhooks.md)',
  properties: {
    id: { type: 'string', description: 'evt_…: the same on every attempt; deduplicate by it' },
    type: { type: 'string', enum: [...WebhookEventTypes] },
    timestamp: { type: 'string', format: 'date-time', description: 'When the change happened' },
    data: { type: 'object', description: 'Depends on the type; carries conversationId and avatarId where they apply' },
  },
  required: ['id', 'type', 'timestamp', 'data'],
};
