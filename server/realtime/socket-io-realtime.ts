import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import type { Socket } from 'socket.io';
import type {
  AvatarService,
  ClientToServerEvents,
  ServerFrame,
  ServerToClientEvents,
  WireError,
} from '../../core/index.js';
import { ServiceError } from '../../core/index.js';
import type { ConnectionGate } from '../http/connection-gate.js';
import { realtimeMessage } from '../http/message-schema.js';
import { presentConversationCreated } from '../http/present.js';
import { errorPayload } from '../http/reply-wire.js';
import { admitRealtimeClient, checkScope } from './realtime-auth.js';
import type { RealtimeClient } from './realtime-auth.js';

interface SocketData {
  client: RealtimeClient;
  conversationId: string | undefined;
}

type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export const roomOf = (conversationId: string) => `conversation:${conversationId}`;

/** Packets queued for a socket that does not read; past this the socket is disconnected. */
const MAX_QUEUED_PACKETS = 20_000;

/**
 * socket.io at `/v1/realtime` (DESIGN.md §7): a handshake with `auth: {token}`, `join` /
 * `message` / `interrupt` from clients, and every event of the joined conversation — including
 * replies started over REST — relayed to its room. With a Redis adapter, rooms span processes.
 * Handshakes and events pass the connection gate like REST requests: counted, re-authenticated.
 */
export function createSocketIoRealtime(httpServer: HttpServer, service: AvatarService, gate: ConnectionGate): RealtimeServer {
  const io: RealtimeServer = new Server(httpServer, {
    path: '/v1/realtime',
    serveClient: false,
    cors: { origin: true },
    destroyUpgrade: false,
    maxHttpBufferSize: 64 * 1024,
  });

  io.use((socket, next) => {
    const auth = socket.handshake.auth as { token?: unknown };
    const header = /^Bearer\s+(\S+)$/i.exec(socket.handshake.headers.authorization ?? '')?.[1];
    const handshake = { token: auth.token ?? header, origin: socket.handshake.headers.origin, address: socket.handshake.address };
    admitRealtimeClient(gate, handshake, (error) => {
      // The credential was revoked or expired: say why, then hang up.
      socket.emit('error', errorPayload(error));
      socket.disconnect(true);
    }).then(
      (client) => {
        socket.data = { client, conversationId: undefined };
        // The engine connection closes on every exit path (disconnect, transport error, a client
        // gone while this handshake was checked), so the slot is released there.
        const release = () => client.connection.release();
        if (socket.conn.readyState !== 'open') release();
        socket.conn.once('close', release);
        socket.once('disconnect', release);
        next();
      },
      (error: unknown) => next(connectError(error)),
    );
  });

  io.on('connection', (socket: RealtimeSocket) => {
    const { client } = socket.data;
    const admit = () => client.connection.admitMessage(socket.handshake.address);

    socket.on('join', async (data, ack) => {
      try {
        await admit();
        const conversationId = String(data?.conversation_id ?? '');
        checkScope(client, conversationId);
        const conversation = await service.conversations.get(client.owner, conversationId);
        if (socket.data.conversationId) await socket.leave(roomOf(socket.data.conversationId));
        await socket.join(roomOf(conversationId));
        socket.data.conversationId = conversationId;
        reply(ack, { conversation: presentConversationCreated(conversation) });
      } catch (error) {
        fail(socket, ack, error);
      }
    });

    socket.on('message', async (data, ack) => {
      try {
        await admit();
        const conversationId = joined(socket);
        const { content } = realtimeMessage.parse(data, '');
        // A new message while the avatar talks interrupts it (barge-in).
        const started = await service.conversations.startReply(client.owner, conversationId, content, { whenBusy: 'interrupt' });
        reply(ack, { user_message_id: started.userMessage.id });
        for await (const _ of started.events); // relayed to the room by the conversation listener
      } catch (error) {
        fail(socket, ack, error);
      }
    });

    socket.on('interrupt', async (ack) => {
      try {
        await admit();
        const conversationId = joined(socket);
        const wasReplying = service.conversations.isReplying(conversationId);
        await service.conversations.interrupt(client.owner, conversationId);
        reply(ack, { interrupted: wasReplying });
      } catch (error) {
        fail(socket, ack, error);
      }
    });
  });

  return io;
}

/**
 * Sends one wire event to every socket in the conversation's room. A socket of this process that
 * has stopped reading (its queue past the cap) is disconnected instead of buffered without bound.
 */
export function emitToConversation(io: RealtimeServer, conversationId: string, frame: ServerFrame): void {
  const room = roomOf(conversationId);
  for (const id of io.sockets.adapter.rooms.get(room) ?? []) {
    const socket = io.sockets.sockets.get(id);
    if (socket && (socket.conn as unknown as { writeBuffer: unknown[] }).writeBuffer.length > MAX_QUEUED_PACKETS) socket.disconnect(true);
  }
  (io.to(room).emit as (event: string, data: unknown) => boolean)(frame.type, frame.data);
}

function joined(socket: RealtimeSocket): string {
  const id = socket.data.conversationId;
  if (!id) throw new ServiceError('invalid_request', 'Join a conversation first: emit join {conversation_id}');
  return id;
}

function reply<T>(ack: ((result: { ok: true; data: T }) => void) | undefined, data: T): void {
  if (typeof ack === 'function') ack({ ok: true, data });
}

/** An acknowledgement carries the error; without one, the client gets an `error` event. */
function fail(socket: RealtimeSocket, ack: unknown, error: unknown): void {
  if (typeof ack === 'function') (ack as (r: unknown) => void)({ ok: false, ...errorPayload(error) });
  else socket.emit('error', errorPayload(error));
}

function connectError(error: unknown): Error & { data: WireError } {
  const payload = errorPayload(error);
  return Object.assign(new Error(payload.error.message), { data: payload });
}
