import type {
  AvatarStateName,
  ServerEventName,
  ServerEventPayloads,
  WireConversation,
  WireEmotion,
  WireError,
} from '../../core/protocol/realtime-protocol.js';

export type { AvatarStateName, ServerEventName, ServerEventPayloads, WireConversation, WireEmotion, WireError };

/** Listener of one server event. */
export type TransportListener<K extends ServerEventName> = (data: ServerEventPayloads[K]) => void;

/**
 * How the widget talks to a conversation. Each implementation (socket.io, SSE) emits the same
 * server events (`message`, `audio`, `state`, `done`, `error`, `conversation.ended`), so the
 * element never knows which one it uses. Failures of a turn arrive as an `error` event, not as a
 * rejected `send`, the way the server reports them.
 */
export interface Transport {
  /** Joins the conversation; resolves when messages can be sent. */
  connect(conversationId: string): Promise<WireConversation | undefined>;
  /** Sends a user message; the reply streams back as events. */
  send(content: string): Promise<void>;
  /** Stops the reply in progress (if any). */
  interrupt(): Promise<void>;
  /**
   * Follows the live connection after `connect` resolved: `reconnecting` when it dropped and
   * retries run, `lost` when the retries gave up, `connected` when it is back (and joined).
   * Transports without a lasting connection (SSE) never call it.
   */
  onConnection(listener: (state: ConnectionState) => void): () => void;
  /** Subscribes to a server event; returns the unsubscribe function. */
  on<K extends ServerEventName>(event: K, listener: TransportListener<K>): () => void;
  /** Closes the connection and drops every listener. */
  close(): void;
}

export type ConnectionState = 'connected' | 'reconnecting' | 'lost';

/** The transports the `transport` attribute selects. */
export const TRANSPORT_KINDS = ['socket.io', 'sse'] as const;
export type TransportKind = (typeof TRANSPORT_KINDS)[number];

/** An error with the server's `code` (`unauthorized`, `conversation_busy`, `network_error`, …). */
export class WidgetError extends Error {
  readonly code: string;
  readonly status: number | undefined;
  constructor(code: string, message: string, status?: number) {
    super(message);
    this.name = 'WidgetError';
    this.code = code;
    this.status = status;
  }

  /** The wire form used by `error` events. */
  toWire(): WireError {
    return { error: { code: this.code, message: this.message } };
  }

  static from(error: unknown, fallbackCode = 'network_error'): WidgetError {
    if (error instanceof WidgetError) return error;
    if (error instanceof DOMException && error.name === 'AbortError') return new WidgetError('aborted', 'The request was cancelled');
    return new WidgetError(fallbackCode, error instanceof Error ? error.message : String(error));
  }
}
