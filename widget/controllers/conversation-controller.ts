import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { ApiClient } from '../transport/api-client.js';
import type { AvatarDetail, ConversationDetail } from '../transport/api-client.js';
import { SessionCredentials } from '../transport/session-credentials.js';
import { SocketIoTransport } from '../transport/socket-io-transport.js';
import { SseTransport } from '../transport/sse-transport.js';
import type { Transport, TransportKind } from '../transport/transport.js';
import { WidgetError } from '../transport/transport.js';

/** What the element's attributes say about where and how to talk. */
export interface ConversationSettings {
  server: string;
  token?: string | undefined;
  sessionUrl?: string | undefined;
  apiKey?: string | undefined;
  avatarId?: string | undefined;
  ttsProvider?: string | undefined;
  conversationId?: string | undefined;
  transport: TransportKind;
}

/** An open conversation: its REST client, live transport, stored state and avatar. */
export interface ConversationConnection {
  conversationId: string;
  conversation: ConversationDetail;
  avatar: AvatarDetail;
  api: ApiClient;
  transport: Transport;
}

/**
 * The conversation's lifecycle on the element: obtains a session token, reads the conversation
 * and its avatar, and opens the transport; closes the transport (socket, streams) when the
 * element leaves the page or its attributes change.
 */
export class ConversationController implements ReactiveController {
  connection: ConversationConnection | undefined;
  private opening: AbortController | undefined;

  constructor(host: ReactiveControllerHost) {
    host.addController(this);
  }

  /**
   * Opens a conversation. `wire` attaches event listeners before the transport connects, so no
   * event is missed. Rejects with a WidgetError; a newer `open` or `close` aborts an older one.
   */
  async open(settings: ConversationSettings, wire: (transport: Transport) => void): Promise<ConversationConnection> {
    this.close();
    const opening = new AbortController();
    this.opening = opening;
    const { signal } = opening;
    const server = new URL(settings.server || '/v1', document.baseURI).href.replace(/\/+$/, '');
    const credentials = new SessionCredentials({ ...settings, server });
    const grant = await credentials.current();
    const conversationId = grant.conversationId ?? settings.conversationId;
    if (!conversationId) {
      throw new WidgetError('invalid_request', 'The session names no conversation: set conversation-id together with token');
    }
    const api = new ApiClient(server, credentials);
    const transport = settings.transport === 'sse' ? new SseTransport(api) : new SocketIoTransport(server, credentials);
    const close = () => transport.close();
    signal.addEventListener('abort', close, { once: true });
    try {
      wire(transport);
      const conversation = await api.getConversation(conversationId, signal);
      const [avatar] = await Promise.all([
        api.getAvatar(conversation.avatar_id, signal),
        transport.connect(conversationId),
      ]);
      if (signal.aborted) throw new WidgetError('aborted', 'Superseded');
      this.connection = { conversationId, conversation, avatar, api, transport };
      return this.connection;
    } catch (error) {
      transport.close();
      throw WidgetError.from(error);
    } finally {
      signal.removeEventListener('abort', close);
      if (this.opening === opening) this.opening = undefined;
    }
  }

  close(): void {
    this.opening?.abort();
    this.opening = undefined;
    this.connection?.transport.close();
    this.connection = undefined;
  }

  hostDisconnected(): void {
    this.close();
  }
}
