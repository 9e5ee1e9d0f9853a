/**
 * The wire protocol of streamed replies, shared by every transport (SSE, socket.io, plain
 * WebSocket) and by clients: the server imports these types, and the widget imports them with
 * `import type` (erased at build time, so the widget bundle carries no core code).
 *
 * SSE:        `event: <name>` + `data: <json>` for message, audio, done, error, reconnect.
 * socket.io:  path `/v1/realtime`, `auth: { token }`; events below, typed by the two maps.
 * WebSocket:  `GET /v1/conversations/:id/ws`; JSON frames `{ type: <name>, data }` both ways.
 */

export type AvatarStateName = 'idle' | 'thinking' | 'talking';

export interface WireUsage {
  ai_tokens: number;
  tts_characters: number;
}

export interface WireViseme {
  viseme: 'aa' | 'ih' | 'ou' | 'ee' | 'oh' | 'sil';
  /** Milliseconds from the start of this audio clip. */
  start_ms: number;
  end_ms: number;
  /** Mouth openness 0…1. */
  weight: number;
}

/** An emotion a sentence conveys: a VRM 1.0 expression preset name. */
export type WireEmotion = 'happy' | 'sad' | 'surprised' | 'relaxed' | 'angry';

export interface WireError {
  /** `retry_after_s`: with `rate_limited` and `too_many_connections`, seconds after which a retry can succeed. */
  error: { code: string; message: string; retry_after_s?: number };
}

/** Payloads of server → client events, by event name. */
export interface ServerEventPayloads {
  /**
   * A text chunk of the reply (one sentence when sent by a conversation). `emotion`, when the
   * sentence conveys one, is the VRM expression the avatar shows while saying it.
   */
  message: { delta: string; emotion?: WireEmotion };
  /** One synthesized sentence, in order (`seq` from 0), with the emotion of its text. */
  audio: { url: string; seq: number; text: string; duration_ms: number; visemes?: WireViseme[]; emotion?: WireEmotion };
  /** What the avatar is doing; realtime transports only. */
  state: { state: AvatarStateName };
  /** The reply is stored. */
  done: { id: string; usage: WireUsage };
  error: WireError;
  /**
   * Safety checks fired on the user's message (`side: user`) or on a sentence of the reply
   * (`side: reply`), before anything of it reached the AI, the screen or the speaker. With
   * `escalation` the conversation was handed to a person: show a hand-off notice.
   */
  safety: {
    side: 'user' | 'reply';
    codes: string[];
    action: 'mask' | 'replace' | 'block' | 'escalate';
    topic?: string;
    escalation?: { reason: string; message: string; escalated_at: string };
  };
  /** The conversation ended (by request, idle time-out or hand-off); realtime transports only. */
  'conversation.ended': { conversation_id: string; reason: string };
  /**
   * The server is stopping (a restart, a deploy): the stream or socket closes right after this.
   * Connect again after `retry_after_ms` (a load balancer sends the client to another node); a
   * reply cut off by it is stored as interrupted.
   */
  reconnect: { reason: 'shutdown'; retry_after_ms: number };
}

export type ServerEventName = keyof ServerEventPayloads;

/** A server event as a discriminated union (plain WebSocket frames use `type`). */
export type ServerFrame = { [K in ServerEventName]: { type: K; data: ServerEventPayloads[K] } }[ServerEventName];

/** The conversation as returned by `join`. */
export interface WireConversation {
  id: string;
  avatar_id: string;
  status: 'active' | 'escalated' | 'ended';
  /** ISO 8601. */
  created_at: string;
  persona_id: string | null;
  config: { ai_provider: string; ai_model: string; tts_provider: string; voice_id: string };
}

export type Ack<T> = (result: { ok: true; data: T } | ({ ok: false } & WireError)) => void;

/** socket.io: events the server emits. */
export type ServerToClientEvents = { [K in ServerEventName]: (data: ServerEventPayloads[K]) => void };

/** socket.io: events clients emit (acknowledgements optional except for `join`). */
export interface ClientToServerEvents {
  join: (data: { conversation_id: string }, ack: Ack<{ conversation: WireConversation }>) => void;
  message: (data: { content: string }, ack?: Ack<{ user_message_id: string }>) => void;
  interrupt: (ack?: Ack<{ interrupted: boolean }>) => void;
}

/** Plain WebSocket: frames clients send. */
export type ClientFrame = { type: 'message'; data: { content: string } } | { type: 'interrupt' };
