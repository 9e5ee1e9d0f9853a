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
import { ServiceError, isServiceError } from '../../core/index.js';
import { presentConversationCreated } from '../http/present.js';
import { admitRealtimeClient, checkScope } from './realtime-auth.js';
import type { RealtimeClient } from './realtime-auth.js';

interface SocketData {
  client: RealtimeClient;
  conversationId: string | undefined;
}

type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export const roomOf = (conversationId: string) => `conversation:${conversationId}`;

/**
 * socket.io at `/v1/realtime` (DESIGN.md §7): a handshake with `auth: {token}`, `join` /
 * `message` / `interrupt` from clients, and every event of the joined conversation — including
 * replies started over REST — relayed to its room. With a Redis adapter, rooms span processes.
 */
export function createSocketIoRealtime(httpServer: HttpServer, service: AvatarService): RealtimeServer {
  const io: RealtimeServer = new Server(httpServer, {
    path: '/v1/realtime',
    serveClient: false,
    cors: { origin: true },
    destroyUpgrade: false,
  });

  io.use((socket, next) => {
    const auth = socket.handshake.auth as { token?: unknown };
    const header = /^Bearer\s+(\S+)$/i.exec(socket.handshake.headers.authorization ?? '')?.[1];
    admitRealtimeClient(service, auth.token ?? header, socket.handshake.headers.origin).then(
      (client) => {
        socket.data = { client, conversationId: undefined };
        socket.once('disconnect', () => client.lease.release());
        next();
      },
      (error: unknown) => next(connectError(error)),
    );
  });

  io.on('connection', (socket: RealtimeSocket) => {
    const { client } = socket.data;

    socket.on('join', async (data, ack) => {
      try {
        const conversationId = String(data?.conversation_id ?? '');
        checkScope(client, conversationId);
        const conversation = await service.conversations.get(client.owner, conversationId);
        if (socket.data.conversationId) await socket.leave(roomOf(socket.data.conversationId));
        await socket.join(roomOf(conversationId));
        socket.data.conversationId = conversationId;
        reply(ack, { conversation: presentConversationCreated(conversation) });
      } catch (error) {
        fail(ack, error);
      }
    });

    socket.on('message', async (data, ack) => {
      try {
        const conversationId = joined(socket);
        const content = typeof data?.content === 'string' ? data.content : '';
        // A new message while the avatar talks interrupts it (barge-in).
        const started = await service.conversations.startReply(client.owner, conversationId, content, { whenBusy: 'interrupt' });
        reply(ack, { user_message_id: started.userMessage.id });
        for await (const _ of started.events); // relayed to the room by the conversation listener
      } catch (error) {
        if (typeof ack === 'function') fail(ack, error);
        else socket.emit('error', errorPayload(error));
      }
    });

    socket.on('interrupt', async (ack) => {
      try {
        const conversationId = joined(socket);
        const wasReplying = service.conversations.isReplying(conversationId);
        await service.conversations.interrupt(client.owner, conversationId);
        reply(ack, { interrupted: wasReplying });
      } catch (error) {
        fail(ack, error);
      }
    });
  });

  return io;
}

/** Sends one wire event to every socket in the conversation's room. */
export function emitToConversation(io: RealtimeServer, conversationId: string, frame: ServerFrame): void {
  (io.to(roomOf(conversationId)).emit as (event: string, data: unknown) => boolean)(frame.type, frame.data);
}

function joined(socket: RealtimeSocket): string {
  const id = socket.data.conversationId;
  if (!id) throw new ServiceError('invalid_request', 'Join a conversation first: emit join {conversation_id}');
  return id;
}

function reply<T>(ack: ((result: { ok: true; data: T }) => void) | undefined, data: T): void {
  if (typeof ack === 'function') ack({ ok: true, data });
}

function fail(ack: unknown, error: unknown): void {
  if (typeof ack === 'function') (ack as (r: unknown) => void)({ ok: false, ...errorPayload(error) });
}

export function errorPayload(error: unknown): WireError {
  return isServiceError(error)
    ? { error: { code: error.code, message: error.message } }
    : { error: { code: 'internal_error', message: 'Something went wrong on our side' } };
}

function connectError(error: unknown): Error & { data: WireError } {
  const payload = errorPayload(error);
  return Object.assign(new Error(payload.error.message), { data: payload });
}
