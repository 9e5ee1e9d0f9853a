import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import type { AvatarService, ClientFrame, ServerFrame } from '../../core/index.js';
import { ServiceError, isServiceError } from '../../core/index.js';
import { errorPayload } from './socket-io-realtime.js';
import { admitRealtimeClient } from './realtime-auth.js';

const PATH = /^\/v1\/conversations\/([A-Za-z0-9_-]{1,64})\/ws$/;
const HEARTBEAT_MS = 30_000;

/**
 * `GET /v1/conversations/:id/ws`: a plain WebSocket carrying the same events as socket.io as JSON
 * frames `{type, data}`. Credentials: `Authorization: Bearer …`, or for browsers (which cannot set
 * headers on a WebSocket) a `token` query parameter holding a session token. Failed handshakes
 * are answered with a plain HTTP error before the upgrade.
 */
export class WebSocketRealtime {
  readonly #service: AvatarService;
  readonly #server = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  readonly #byConversation = new Map<string, Set<WebSocket>>();
  readonly #heartbeat: ReturnType<typeof setInterval>;
  readonly #alive = new WeakSet<WebSocket>();

  constructor(httpServer: HttpServer, service: AvatarService) {
    this.#service = service;
    httpServer.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (path.startsWith('/v1/realtime')) return; // socket.io's
      const match = PATH.exec(path);
      if (!match) return refuse(socket, 404, { error: { code: 'not_found', message: `No WebSocket endpoint at ${path}` } });
      void this.#upgrade(req, socket, head, match[1]!);
    });
    this.#heartbeat = setInterval(() => this.#ping(), HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  /** Sends a frame to every WebSocket of the conversation. */
  send(conversationId: string, frame: ServerFrame): void {
    const sockets = this.#byConversation.get(conversationId);
    if (!sockets) return;
    const text = JSON.stringify(frame);
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(text);
  }

  close(): void {
    clearInterval(this.#heartbeat);
    for (const sockets of this.#byConversation.values()) for (const ws of sockets) ws.terminate();
    this.#server.close();
  }

  async #upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, conversationId: string): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const header = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    let client;
    try {
      client = await admitRealtimeClient(this.#service, header ?? url.searchParams.get('token'), req.headers.origin, conversationId);
      await this.#service.conversations.get(client.owner, conversationId);
    } catch (error) {
      client?.lease.release();
      return refuse(socket, isServiceError(error) ? error.status : 500, errorPayload(error));
    }
    const admitted = client;
    this.#server.handleUpgrade(req, socket, head, (ws) => {
      let sockets = this.#byConversation.get(conversationId);
      if (!sockets) this.#byConversation.set(conversationId, (sockets = new Set()));
      sockets.add(ws);
      this.#alive.add(ws);
      ws.on('pong', () => this.#alive.add(ws));
      ws.on('close', () => {
        admitted.lease.release();
        sockets.delete(ws);
        if (sockets.size === 0) this.#byConversation.delete(conversationId);
      });
      ws.on('error', () => ws.terminate());
      ws.on('message', (raw) => void this.#onFrame(ws, admitted.owner, conversationId, raw.toString()));
    });
  }

  async #onFrame(ws: WebSocket, owner: { accountId: string; mode: 'live' | 'test' }, conversationId: string, text: string): Promise<void> {
    try {
      const frame = parseFrame(text);
      if (frame.type === 'interrupt') {
        await this.#service.conversations.interrupt(owner, conversationId);
      } else {
        const content = typeof frame.data?.content === 'string' ? frame.data.content : '';
        const started = await this.#service.conversations.startReply(owner, conversationId, content, { whenBusy: 'interrupt' });
        for await (const _ of started.events); // relayed by the conversation listener
      }
    } catch (error) {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'error', data: errorPayload(error) }));
    }
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

const FRAME_HINT = 'Frames are JSON: {"type":"message","data":{"content":"…"}} or {"type":"interrupt"}';

function parseFrame(text: string): ClientFrame {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    throw new ServiceError('invalid_request', `Not JSON. ${FRAME_HINT}`);
  }
  const type = (frame as { type?: unknown } | null)?.type;
  if (type !== 'message' && type !== 'interrupt') throw new ServiceError('invalid_request', `Unknown frame type. ${FRAME_HINT}`);
  return frame as ClientFrame;
}

function refuse(socket: Duplex, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : status === 429 ? 'Too Many Requests' : 'Error'}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}
