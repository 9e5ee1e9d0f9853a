import { ReplyEmotions } from '../../core/index.js';
import { s } from '../schema/schema.js';
import { conversationCreatedSchema } from './resource-schemas.js';
import { realtimeJoin, realtimeMessage } from '../edge/message-schema.js';

/**
 * The payloads of the streamed-reply protocol (`core/protocol/realtime-protocol.ts`) in the schema
 * DSL, the same on SSE, socket.io and the plain WebSocket. They feed the SSE part of the OpenAPI
 * document and the AsyncAPI document, and test/server/wire-schemas.test.ts parses real frames
 * with them, so a field the server sends but the documents lack fails a test.
 */

const count = (description: string) => s.integer({ min: 0, description });

/** The sentence's tone (`inferReplyEmotion`), the VRM expression the widget blends in while it plays. */
const emotion = () =>
  s.optional(s.enum(ReplyEmotions, "The sentence's tone: the face the avatar shows while saying it (absent when neutral)"));

const errorFields = s.object({
  code: s.string({ description: 'Machine-readable code, e.g. invalid_request, unauthorized, rate_limited' }),
  message: s.string({ description: 'What went wrong and how to fix it' }),
  retry_after_s: s.optional(s.integer({ min: 1, description: 'With rate_limited and too_many_connections: seconds after which a retry can succeed' })),
});

export const wireErrorSchema = s.object({ error: errorFields }, 'An error, on every transport');

export const wireMessageDeltaSchema = s.object(
  { delta: s.string({ description: 'The next chunk of the reply text' }), emotion: emotion() },
  'A text chunk of the reply',
);

export const wireAudioSchema = s.object(
  {
    url: s.string({ format: 'uri', description: 'The sentence as MP3' }),
    seq: count('Order of the sentence in the reply, from 0'),
    text: s.string({ description: 'The sentence spoken' }),
    duration_ms: count('Length of the clip'),
    emotion: emotion(),
    visemes: s.optional(
      s.array(
        s.object({
          viseme: s.enum(['aa', 'ih', 'ou', 'ee', 'oh', 'sil'] as const),
          start_ms: count('From the start of this clip'),
          end_ms: count('From the start of this clip'),
          weight: s.number({ min: 0, max: 1, description: 'Mouth openness' }),
        }),
        { description: 'Mouth shapes over time, when the engine gives them' },
      ),
    ),
  },
  'One synthesized sentence, in order',
);

export const wireStateSchema = s.object({ state: s.enum(['idle', 'thinking', 'talking'] as const) }, 'What the avatar is doing (realtime transports only)');

export const wireDoneSchema = s.object(
  {
    id: s.string({ description: 'msg_… of the stored reply' }),
    usage: s.object({ ai_tokens: count('AI tokens, prompt and completion'), tts_characters: count('Characters synthesized to speech') }),
  },
  'The reply is stored',
);

export const wireSafetySchema = s.object(
  {
    side: s.enum(['user', 'reply'] as const, "user: the user's message; reply: a sentence of the reply"),
    codes: s.array(s.string(), { description: 'Checks that fired' }),
    action: s.enum(['mask', 'replace', 'block', 'escalate'] as const),
    topic: s.optional(s.string({ description: 'The blocked topic, when one matched' })),
    escalation: s.optional(
      s.object({ reason: s.string(), message: s.string({ description: 'A notice to show' }), escalated_at: s.string({ format: 'date-time' }) }, 'The conversation was handed to a person'),
    ),
  },
  'Safety checks fired on the message or on a sentence of the reply',
);

export const wireConversationEndedSchema = s.object(
  { conversation_id: s.string({ description: 'conv_…' }), reason: s.string({ description: 'ended, timeout, escalated, avatar_deleted…' }) },
  'The conversation ended (realtime transports only)',
);

export const wireReconnectSchema = s.object(
  {
    reason: s.enum(['shutdown'] as const, 'shutdown: the server is stopping (a restart or deploy)'),
    retry_after_ms: count('Connect again after this long; a load balancer sends the client to a node that is up'),
  },
  'The server is stopping: the stream or socket closes right after this; connect again (a reply cut off by it is stored as interrupted)',
);

/** Server → client events by name, with their payloads; `sse` marks the four SSE carries. */
export const serverEvents = [
  { name: 'message', schema: wireMessageDeltaSchema, sse: true },
  { name: 'audio', schema: wireAudioSchema, sse: true },
  { name: 'done', schema: wireDoneSchema, sse: true },
  { name: 'error', schema: wireErrorSchema, sse: true },
  { name: 'state', schema: wireStateSchema, sse: false },
  { name: 'safety', schema: wireSafetySchema, sse: false },
  { name: 'conversation.ended', schema: wireConversationEndedSchema, sse: false },
  { name: 'reconnect', schema: wireReconnectSchema, sse: true },
] as const;

/** socket.io: what `join` takes and acknowledges. */
export const joinSchema = realtimeJoin;
export const joinAckSchema = s.object({ ok: s.boolean('true on success'), data: s.object({ conversation: conversationCreatedSchema }) }, 'Acknowledgement of join');

/** socket.io `message` / WebSocket `message` frame data. */
export const clientMessageSchema = realtimeMessage;
export const messageAckSchema = s.object({ ok: s.boolean('true on success'), data: s.object({ user_message_id: s.string({ description: 'msg_… of the stored user message' }) }) }, 'Acknowledgement of message');
export const interruptAckSchema = s.object({ ok: s.boolean('true on success'), data: s.object({ interrupted: s.boolean('Whether a reply was running') }) }, 'Acknowledgement of interrupt');
/** A refused request's acknowledgement: `ok: false` beside the error. */
export const failedAckSchema = s.object({ ok: s.boolean('false'), error: errorFields }, 'Acknowledgement of a refused request');
