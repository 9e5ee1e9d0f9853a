import type { Socket } from 'socket.io-client';
import type { Ack, ClientToServerEvents, ServerToClientEvents } from '../../core/protocol/realtime-protocol.js';
import type { SessionCredentials } from './session-credentials.js';
import { TransportEvents } from './transport-events.js';
import type {
  ConnectionState,
  ServerEventName,
  ServerEventPayloads,
  Transport,
  TransportListener,
  WireConversation,
  WireError,
} from './transport.js';
import { WidgetError } from './transport.js';

type RealtimeSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const SERVER_EVENTS: readonly ServerEventName[] = ['message', 'audio', 'state', 'safety', 'done', 'error', 'conversation.ended'];
const JOIN_TIMEOUT_MS = 15_000;
/**
 * Reconnection after a drop: socket.io's backoff (1 s doubling to 5 s, with jitter) for this many
 * attempts — about half a minute — before the element says the connection is lost and offers a retry.
 */
const RECONNECT_ATTEMPTS = 8;
/** Wait before reopening a socket the server closed (it is probably restarting). */
const SERVER_CLOSE_RETRY_MS = 1_000;

/**
 * socket.io at `<server>/realtime` (`/v1/realtime`), `auth: {token}` with the session token.
 * Each instance owns its own connection (`forceNew`: no manager shared between elements on one
 * page). After a reconnect it joins its conversation again; a refused token is refreshed once.
 */
export class SocketIoTransport implements Transport {
  private readonly events = new TransportEvents();
  private readonly connectionListeners = new Set<(state: ConnectionState) => void>();
  private socket: RealtimeSocket | undefined;
  private conversationId: string | undefined;
  private closed = false;
  /**
   * socket.io-client is a chunk of its own (a twentieth of the bundle), fetched when a transport
   * is made — while the conversation and the avatar load — not with the element, so pages using
   * `transport="sse"` never download it and the avatar's first frame does not wait for it.
   */
  private readonly client: Promise<typeof import('socket.io-client')>;

  constructor(
    private readonly server: string,
    private readonly credentials: SessionCredentials,
  ) {
    this.client = import('socket.io-client');
    this.client.catch(() => undefined); // reported by connect(), if it is called
  }

  async connect(conversationId: string): Promise<WireConversation | undefined> {
    this.conversationId = conversationId;
    const { io } = await this.client.catch((error: unknown) => {
      throw new WidgetError('network_error', `Could not load the realtime client: ${error instanceof Error ? error.message : String(error)}`);
    });
    if (this.closed) throw new WidgetError('aborted', 'Closed while connecting');
    const url = new URL(this.server);
    const socket: RealtimeSocket = io(url.origin, {
      path: `${url.pathname.replace(/\/$/, '')}/realtime`,
      forceNew: true,
      transports: ['websocket', 'polling'],
      // Networks that block WebSockets still get a connection (HTTP long-polling).
      tryAllTransports: true,
      reconnectionAttempts: RECONNECT_ATTEMPTS,
      auth: (cb) => {
        this.credentials.current().then(
          (grant) => cb({ token: grant.token }),
          () => cb({ token: '' }),
        );
      },
    });
    this.socket = socket;
    for (const name of SERVER_EVENTS) {
      (socket.on as (event: string, listener: (data: unknown) => void) => void)(name, (data) =>
        this.events.emit(name, data as ServerEventPayloads[typeof name]),
      );
    }
    await this.open(socket);
    const conversation = await this.join(socket, conversationId);
    // Later reconnects (network loss, server restart) join again by themselves.
    socket.on('connect', () => {
      if (!this.conversationId) return;
      this.join(socket, this.conversationId).then(
        () => this.tell('connected'),
        (error: unknown) => this.fail(error),
      );
    });
    socket.on('disconnect', (reason) => {
      if (reason === 'io client disconnect') return;
      this.tell('reconnecting');
      // socket.io leaves a socket the server closed (a restart, a deploy) for the app to reopen;
      // one ended for a revoked key or an expired session is refused again, with its reason.
      if (reason === 'io server disconnect') setTimeout(() => this.socket === socket && socket.connect(), SERVER_CLOSE_RETRY_MS);
    });
    socket.on('connect_error', (error: Error & { data?: WireError }) => {
      // A refusal with a reason (unauthorized, rate limited) is final for this connection; network
      // failures are retried by socket.io's backoff.
      if (!error.data?.error || this.socket !== socket) return;
      socket.disconnect();
      this.events.emit('error', error.data);
      // An expired session is its own state on the element; anything else leaves the connection lost.
      if (error.data.error.code !== 'unauthorized') this.tell('lost');
    });
    socket.io.on('reconnect_failed', this.onReconnectFailed);
    return conversation;
  }

  /** Resolves on the first connection; one refused token is refreshed and retried. */
  private open(socket: RealtimeSocket): Promise<void> {
    return new Promise((resolve, reject) => {
      let refreshed = false;
      const onConnect = () => {
        socket.off('connect_error', onError);
        resolve();
      };
      const onError = (error: Error & { data?: WireError }) => {
        const code = error.data?.error?.code;
        if (code === 'unauthorized' && !refreshed) {
          refreshed = true;
          this.credentials.refresh().then(
            () => socket.connect(),
            (refreshError: unknown) => stop(WidgetError.from(refreshError, 'unauthorized')),
          );
          return;
        }
        if (code) stop(new WidgetError(code, error.message));
        // Other failures (server down): socket.io keeps retrying; we wait.
      };
      const stop = (error: WidgetError) => {
        socket.off('connect', onConnect);
        socket.off('connect_error', onError);
        socket.disconnect();
        reject(error);
      };
      socket.once('connect', onConnect);
      socket.on('connect_error', onError);
    });
  }

  private async join(socket: RealtimeSocket, conversationId: string): Promise<WireConversation> {
    const result = (await socket.timeout(JOIN_TIMEOUT_MS).emitWithAck('join', { conversation_id: conversationId })) as Parameters<
      Ack<{ conversation: WireConversation }>
    >[0];
    if (!result.ok) throw new WidgetError(result.error.code, result.error.message);
    return result.data.conversation;
  }

  async send(content: string): Promise<void> {
    const socket = this.requireSocket();
    socket.emit('message', { content }, (result) => {
      if (!result.ok) this.events.emit('error', { error: result.error });
    });
  }

  async interrupt(): Promise<void> {
    this.socket?.emit('interrupt');
  }

  on<K extends ServerEventName>(event: K, listener: TransportListener<K>): () => void {
    return this.events.on(event, listener);
  }

  onConnection(listener: (state: ConnectionState) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  private readonly onReconnectFailed = () => this.tell('lost');

  private tell(state: ConnectionState): void {
    if (!this.closed) for (const listener of [...this.connectionListeners]) listener(state);
  }

  close(): void {
    this.closed = true;
    this.connectionListeners.clear();
    this.socket?.io.off('reconnect_failed', this.onReconnectFailed);
    this.socket?.removeAllListeners();
    this.socket?.disconnect();
    this.socket = undefined;
    this.events.clear();
  }

  private requireSocket(): RealtimeSocket {
    if (!this.socket?.connected) throw new WidgetError('network_error', 'The realtime connection is not open');
    return this.socket;
  }

  private fail(error: unknown): void {
    this.events.emit('error', WidgetError.from(error).toWire());
  }
}
