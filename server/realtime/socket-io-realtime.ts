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
import { ServiceError, UnauthorizedError } from '../../core/index.js';
import type { ConnectionGate } from '../edge/connection-gate.js';
import { realtimeJoin, realtimeMessage } from '../edge/message-schema.js';
import { presentConversationCreated } from '../edge/present.js';
import { errorPayload } from '../edge/reply-wire.js';
import { admitRealtimeClient, checkScope } from './realtime-auth.js';
import type { RealtimeClient } from './realtime-auth.js';
import { parseBearer } from '../edge/credentials.js';
import type { SocketIoAdapter } from './redis-adapter.js';

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
 * socket.io at `/v1/realtime` (docs/realtime.md): a handshake with `auth: {token}`, `join` /
 * `message` / `interrupt` from clients, and every event of the joined conversation — including
 * replies started over REST — relayed to its room.
 * Handshakes and events pass the connection gate like REST requests: counted, re-authenticated.
 * With `adapter` (the Redis one) rooms span every process of the deployment.
 */
export function createSocketIoRealtime(httpServer: HttpServer, service: AvatarService, gate: ConnectionGate, adapter?: SocketIoAdapter): RealtimeServer {
  const io: RealtimeServer = new Server(httpServer, {
    path: '/v1/realtime',
    serveClient: false,
    cors: { origin: true },
    destroyUpgrade: false,
    maxHttpBufferSize: 64 * 1024,
    ...(adapter && { adapter }),
  });

  io.use((socket, next) => {
    const auth = socket.handshake.auth as { token?: unknown };
    const header = parseBearer(socket.handshake.headers.authorization ?? '');
    // socket.io reads no credential from the URL; a key put there is refused by name, not ignored.
    if (typeof socket.handshake.query.token === 'string' && socket.handshake.query.token !== '') {
      return next(connectError(new UnauthorizedError('Credentials are refused in URLs (they end up in proxy and browser logs): pass io(url, { auth: { token } }) or an Authorization: Bearer header')));
    }
    const handshake = { token: auth.token ?? header, origin: socket.handshake.headers.origin };
    admitRealtimeClient(gate, handshake, {
      transport: 'socket.io',
      end: (error) => {
        // The credential was revoked or expired: say why, then hang up.
        socket.emit('error', errorPayload(error));
        socket.disconnect(true);
      },
      reconnect: (hint) => {
        // The server is stopping: say so, then close the transport (not a server-side disconnect),
        // so the client's own reconnection takes it to another node or to this one restarted.
        socket.emit('reconnect', hint);
        socket.conn.close();
      },
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
    const admit = () => client.connection.admitMessage();

    on(socket, 'join', async (data) => {
      await admit();
      const { conversation_id: conversationId } = realtimeJoin.parse(data, '');
      checkScope(client, conversationId);
      const conversation = await service.conversations.get(client.owner, conversationId);
      if (socket.data.conversationId) await socket.leave(roomOf(socket.data.conversationId));
      await socket.join(roomOf(conversationId));
      socket.data.conversationId = conversationId;
      return { conversation: presentConversationCreated(conversation) };
    });

    on(socket, 'message', async (data, ack) => {
      await admit();
      const conversationId = joined(socket);
      const { content } = realtimeMessage.parse(data, '');
      // A new message while the avatar talks interrupts it (barge-in).
      const started = await service.conversations.startReply(client.owner, conversationId, content, { whenBusy: 'interrupt', signal: client.signal });
      ack({ user_message_id: started.userMessage.id });
      for await (const _ of started.events); // relayed to the room by the conversation listener
      return undefined;
    });

    on(socket, 'interrupt', async () => {
      await admit();
      const conversationId = joined(socket);
      const wasReplying = service.conversations.isReplying(conversationId);
      await service.conversations.interrupt(client.owner, conversationId);
      return { interrupted: wasReplying };
    });
  });

  return io;
}

/**
 * Sends one wire event to every socket in the conversation's room — with the Redis adapter, on
 * every process of the deployment. A socket of this process that
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

/**
 * Listens to a client event whatever arguments come with it: the acknowledgement is the last
 * argument when it is a function (socket.io appends it), the data the first one otherwise. The
 * handler's result — or an early `ack` call — acknowledges success once; a failure goes to the
 * acknowledgement, or as an `error` event when the client asked for none.
 */
function on(
  socket: RealtimeSocket,
  event: string,
  handler: (data: unknown, ack: (data: unknown) => void) => Promise<unknown>,
): void {
  (socket.on as (event: string, listener: (...args: unknown[]) => void) => void)(event, (...args) => {
    const callback = typeof args.at(-1) === 'function' ? (args.pop() as (result: unknown) => void) : undefined;
    let acknowledged = false;
    const ack = (data: unknown) => {
      if (acknowledged) return;
      acknowledged = true;
      callback?.({ ok: true, data });
    };
    handler(args[0], ack).then(
      (data) => {
        if (data !== undefined) ack(data);
      },
      (error: unknown) => {
        if (acknowledged) return socket.emit('error', errorPayload(error));
        acknowledged = true;
        if (callback) callback({ ok: false, ...errorPayload(error) });
        else socket.emit('error', errorPayload(error));
      },
    );
  });
}

function connectError(error: unknown): Error & { data: WireError } {
  const payload = errorPayload(error);
  return Object.assign(new Error(payload.error.message), { data: payload });
}
