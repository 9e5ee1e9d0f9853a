import type { Server as HttpServer } from 'node:http';
import type { AvatarService, ServerFrame } from '../../core/index.js';
import type { ConnectionGate } from '../edge/connection-gate.js';
import type { Serializer } from '../edge/serializer.js';
import type { UrlBuilder } from '../edge/urls.js';
import { toWire } from '../edge/reply-wire.js';
import { createSocketIoRealtime, emitToConversation } from './socket-io-realtime.js';
import type { RealtimeServer } from './socket-io-realtime.js';
import { WebSocketRealtime } from './websocket-realtime.js';

export interface Realtime {
  io: RealtimeServer;
  close(): Promise<void>;
}

/**
 * Attaches both realtime transports to the HTTP server and relays every conversation event —
 * whichever transport or REST call started the reply — to the clients of that conversation.
 */
export function attachRealtime(httpServer: HttpServer, service: AvatarService, gate: ConnectionGate, serializer: Serializer, urls: UrlBuilder): Realtime {
  const io = createSocketIoRealtime(httpServer, service, gate);
  const ws = new WebSocketRealtime(httpServer, service, gate, serializer);
  const unsubscribe = service.conversations.onEvent((conversationId, event) => {
    const frame: ServerFrame =
      event.type === 'ended'
        ? { type: 'conversation.ended', data: { conversation_id: conversationId, reason: event.reason } }
        : toWire(event, urls);
    emitToConversation(io, conversationId, frame);
    ws.send(conversationId, frame);
  });
  return {
    io,
    async close() {
      unsubscribe();
      ws.close();
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
}
