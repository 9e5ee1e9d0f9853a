import type { Server as HttpServer } from 'node:http';
import type { AvatarService, ServerFrame } from '../../core/index.js';
import type { ConnectionGate } from '../edge/connection-gate.js';
import type { Serializer } from '../edge/serializer.js';
import type { UrlBuilder } from '../edge/urls.js';
import { toWire } from '../edge/reply-wire.js';
import { createSocketIoRealtime, emitToConversation } from './socket-io-realtime.js';
import type { RealtimeServer } from './socket-io-realtime.js';
import type { SocketIoAdapter } from './redis-adapter.js';
import { WebSocketRealtime } from './websocket-realtime.js';

export interface Realtime {
  io: RealtimeServer;
  /** Resolves once frames published by any process reach this one's WebSockets. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** The message-bus channel of plain-WebSocket frames: `<conversation id>\n<frame JSON>`. */
export const WEBSOCKET_FRAMES_CHANNEL = 'realtime.websocket-frames';

/**
 * Attaches both realtime transports to the HTTP server and relays every conversation event —
 * whichever transport or REST call started the reply — to the clients of that conversation on
 * every process: socket.io rooms through `adapter` (the Redis one when several processes run),
 * plain WebSockets through the service's message bus (in memory for one process, Redis pub/sub
 * for several), each process sending to the WebSockets it holds.
 */
export function attachRealtime(
  httpServer: HttpServer,
  service: AvatarService,
  gate: ConnectionGate,
  serializer: Serializer,
  urls: UrlBuilder,
  adapter?: SocketIoAdapter,
): Realtime {
  const io = createSocketIoRealtime(httpServer, service, gate, adapter);
  const ws = new WebSocketRealtime(httpServer, service, gate, serializer);
  const frames = service.bus.subscribe(WEBSOCKET_FRAMES_CHANNEL, (message) => {
    const split = message.indexOf('\n');
    if (split > 0) ws.send(message.slice(0, split), message.slice(split + 1));
  });
  const unsubscribe = service.conversations.onEvent((conversationId, event) => {
    const frame: ServerFrame =
      event.type === 'ended'
        ? { type: 'conversation.ended', data: { conversation_id: conversationId, reason: event.reason } }
        : toWire(event, urls);
    emitToConversation(io, conversationId, frame);
    // A frame the bus fails to carry is lost for WebSocket clients (as socket.io's adapter loses it); the reply is stored whole.
    service.bus.publish(WEBSOCKET_FRAMES_CHANNEL, `${conversationId}\n${JSON.stringify(frame)}`).catch(() => undefined);
  });
  return {
    io,
    ready: frames.ready,
    async close() {
      unsubscribe();
      await frames.close().catch(() => undefined);
      ws.close();
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
}
