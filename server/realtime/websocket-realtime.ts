import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import type { AvatarService } from '../../core/index.js';
import { ServiceError, UnauthorizedError, ValidationError, isServiceError } from '../../core/index.js';
import type { ConnectionGate, ReconnectHint } from '../edge/connection-gate.js';
import { realtimeMessage } from '../edge/message-schema.js';
import type { Serializer } from '../edge/serializer.js';
import { errorPayload } from '../edge/reply-wire.js';
import { QUERY_CREDENTIAL_REFUSED, admitRealtimeClient } from './realtime-auth.js';
import type { RealtimeClient } from './realtime-auth.js';
import { parseBearer } from '../edge/credentials.js';

const PATH = /^\/v1\/conversations\/([A-Za-z0-9_-]{1,64})\/ws$/;
const HEARTBEAT_MS = 30_000;
/** Bytes queued for a client that does not read; past this the connection is dropped. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/** Close codes of this endpoint (4000–4999 are the application's). */
export const WsCloseCode = {
  /** The credential was revoked or the session expired. */
  unauthorized: 4401,
  /** The server is stopping (after a `reconnect` frame): the standard "service restart" code. */
  restarting: 1012,
} as const;

/**
 * `GET /v1/conversations/:id/ws`: a plain WebSocket carrying the same events as socket.io as JSON
 * frames `{type, data}`. Credentials: `Authorization: Bearer …`, or for browsers (which cannot set
 * headers on a WebSocket) a `token` query parameter holding a session token. Failed handshakes
 * are answered with a plain HTTP error before the upgrade; the handshake and every frame pass the
 * connection gate like REST requests.
 */
export class WebSocketRealtime {
  readonly #service: AvatarService;
  readonly #gate: ConnectionGate;
  readonly #serializer: Serializer;
  readonly #server = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  readonly #byConversation = new Map<string, Set<WebSocket>>();
  readonly #heartbeat: ReturnType<typeof setInterval>;
  readonly #alive = new WeakSet<WebSocket>();

  constructor(httpServer: HttpServer, service: AvatarService, gate: ConnectionGate, serializer: Serializer) {
    this.#service = service;
    this.#gate = gate;
    this.#serializer = serializer;
    httpServer.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (path.startsWith('/v1/realtime')) return; // socket.io's
      const match = PATH.exec(path);
      if (!match) return this.#refuse(socket, new ServiceError('not_found', `No WebSocket endpoint at ${path}`));
      const malformed = malformedUpgrade(req);
      if (malformed) return this.#refuse(socket, new ValidationError('headers', malformed));
      void this.#upgrade(req, socket, head, match[1]!);
    });
    this.#heartbeat = setInterval(() => this.#ping(), HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  /** Sends a frame (JSON text) to this process's WebSockets of the conversation; one that stopped reading is dropped. */
  send(conversationId: string, text: string): void {
    const sockets = this.#byConversation.get(conversationId);
    if (!sockets) return;
    for (const ws of sockets) {
      if (ws.readyState !== ws.OPEN) continue;
      if (ws.bufferedAmount > MAX_BUFFERED_BYTES) ws.terminate();
      else ws.send(text);
    }
  }

  close(): void {
    clearInterval(this.#heartbeat);
    for (const sockets of this.#byConversation.values()) for (const ws of sockets) ws.terminate();
    this.#server.close();
  }

  async #upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, conversationId: string): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const header = parseBearer(req.headers.authorization ?? '');
    let client: RealtimeClient | undefined;
    let ws: WebSocket | undefined;
    try {
      client = await admitRealtimeClient(
        this.#gate,
        { token: header ?? queryToken(url), origin: req.headers.origin, conversationId },
        { transport: 'websocket', end: (error) => endWith(ws, error), reconnect: (hint) => reconnectWith(ws, hint) },
      );
      // The slot is the TCP connection's: released when it closes, whichever way (a refused or
      // failed upgrade, a close frame, a reset, a client gone while the handshake was checked).
      const release = client.connection.release;
      if (socket.destroyed) release();
      socket.once('close', release);
      await this.#service.conversations.get(client.owner, conversationId);
    } catch (error) {
      client?.connection.release();
      return this.#refuse(socket, error);
    }
    const admitted = client;
    this.#server.handleUpgrade(req, socket, head, (opened) => {
      ws = opened;
      let sockets = this.#byConversation.get(conversationId);
      if (!sockets) this.#byConversation.set(conversationId, (sockets = new Set()));
      sockets.add(opened);
      this.#alive.add(opened);
      opened.on('pong', () => this.#alive.add(opened));
      opened.on('close', () => {
        admitted.connection.release();
        sockets.delete(opened);
        if (sockets.size === 0) this.#byConversation.delete(conversationId);
      });
      opened.on('error', () => opened.terminate());
      opened.on('message', (raw) => void this.#onFrame(opened, admitted, conversationId, raw.toString()));
    });
  }

  async #onFrame(ws: WebSocket, client: RealtimeClient, conversationId: string, text: string): Promise<void> {
    try {
      await client.connection.admitMessage();
      const frame = parseFrame(text);
      if (frame.type === 'interrupt') {
        await this.#service.conversations.interrupt(client.owner, conversationId);
      } else {
        const { content } = realtimeMessage.parse(frame.data, 'data');
        const started = await this.#service.conversations.startReply(client.owner, conversationId, content, { whenBusy: 'interrupt', signal: client.signal });
        for await (const _ of started.events); // relayed by the conversation listener
      }
    } catch (error) {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'error', data: errorPayload(error) }));
    }
  }

  /** Answers a refused upgrade with a plain HTTP error in the API's style (as REST would). */
  #refuse(socket: Duplex, error: unknown): void {
    if (socket.destroyed) return;
    const failure = isServiceError(error) ? error : new ServiceError('internal_error', 'Something went wrong on our side');
    const requestId = this.#service.ids.next('req');
    const text = JSON.stringify(this.#serializer.error(failure.code, failure.message, requestId));
    socket.end(
      `HTTP/1.1 ${failure.status} ${REASONS[failure.status] ?? 'Error'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nX-Request-Id: ${requestId}\r\n` +
        (failure.retryAfterS !== undefined ? `Retry-After: ${Math.max(1, Math.ceil(failure.retryAfterS))}\r\n` : '') +
        `Connection: close\r\n\r\n${text}`,
    );
  }

  #ping(): void {
    for (const sockets of this.#byConversation.values()) {
      for (const ws of sockets) {
        // No pong since the last ping: the peer is gone without a close frame; `close` follows.
        if (!this.#alive.has(ws)) ws.terminate();
        else {
          this.#alive.delete(ws);
          ws.ping();
        }
      }
    }
  }
}

/**
 * The `token` query parameter, for browsers (which cannot set headers on a WebSocket): session
 * tokens only. Anything else there — an API key, an account token — would end up in proxy and
 * browser logs, so it is refused (401) with a pointer to the header.
 */
function queryToken(url: URL): string | null {
  const token = url.searchParams.get('token');
  if (token !== null && token !== '' && !token.startsWith('sess_')) throw new UnauthorizedError(QUERY_CREDENTIAL_REFUSED);
  return token;
}

/** A revoked or expired credential: an `error` frame saying why, then a close with code 4401. */
function endWith(ws: WebSocket | undefined, error: ServiceError): void {
  if (!ws || ws.readyState !== ws.OPEN) return;
  ws.send(JSON.stringify({ type: 'error', data: errorPayload(error) }));
  ws.close(WsCloseCode.unauthorized, error.message.slice(0, 120));
}

/** The server is stopping: a `reconnect` frame, then a close with 1012 (service restart). */
function reconnectWith(ws: WebSocket | undefined, hint: ReconnectHint): void {
  if (!ws || ws.readyState !== ws.OPEN) return;
  ws.send(JSON.stringify({ type: 'reconnect', data: hint }));
  ws.close(WsCloseCode.restarting, 'The server is restarting; connect again');
}

const FRAME_HINT = 'Frames are JSON: {"type":"message","data":{"content":"…"}} or {"type":"interrupt"}';

function parseFrame(text: string): { type: 'message'; data: unknown } | { type: 'interrupt' } {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    throw new ValidationError('frame', `Not JSON. ${FRAME_HINT}`);
  }
  const type = (frame as { type?: unknown } | null)?.type;
  if (type === 'interrupt') return { type };
  if (type === 'message') return { type, data: (frame as { data?: unknown }).data };
  throw new ValidationError('type', `Unknown frame type. ${FRAME_HINT}`);
}

/**
 * What is wrong with an upgrade request, checked before credentials so a request that can never
 * become a WebSocket costs nothing and holds nothing (RFC 6455 §4.2.1).
 */
function malformedUpgrade(req: IncomingMessage): string | undefined {
  if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return 'Upgrade must be websocket';
  if (req.headers['sec-websocket-version'] !== '13') return 'Sec-WebSocket-Version must be 13';
  const key = req.headers['sec-websocket-key'] ?? '';
  if (!/^[A-Za-z0-9+/]{22}==$/.test(key)) return 'Sec-WebSocket-Key must be 16 random bytes in base64';
  return undefined;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};
