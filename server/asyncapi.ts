import type { JsonSchema } from './schema/schema.js';
import { SchemaComponents } from './schema/schema-components.js';
import { conversationCreatedSchema } from './http/resource-schemas.js';
import {
  clientMessageSchema,
  failedAckSchema,
  interruptAckSchema,
  joinAckSchema,
  joinSchema,
  messageAckSchema,
  serverEvents,
  wireErrorSchema,
} from './http/wire-schemas.js';

const pascal = (name: string) => name.split(/[.\-_]/).map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');

/**
 * The AsyncAPI 3.0 document of the realtime transports (docs/realtime.md), built from the same
 * schemas that check client events and describe server events (`server/http/wire-schemas.ts`):
 *
 * - socket.io at `/v1/realtime`: the event name is the message name, the payload its data;
 *   `join`, `message` and `interrupt` are acknowledged (socket.io acks) with `{ok, data}` or
 *   `{ok: false, error}`.
 * - the plain WebSocket at `/v1/conversations/{conversationId}/ws`: JSON frames `{type, data}`
 *   both ways, no acknowledgements.
 *
 * The document describes the server: `receive` operations are what clients send, `send` what
 * the server pushes.
 */
export function buildAsyncApi(info: { version: string; serverUrl: string }) {
  const url = new URL(info.serverUrl);
  const protocol = url.protocol === 'https:' ? 'wss' : 'ws';
  const components = new SchemaComponents();
  components.name(wireErrorSchema.json, 'WireError');
  components.name(conversationCreatedSchema.json, 'ConversationCreated');
  for (const event of serverEvents) components.name(event.schema.json, `${pascal(event.name)}Event`);

  const messages: Record<string, unknown> = {};
  const message = (key: string, name: string, summary: string, payload: JsonSchema) => {
    messages[key] = { name, title: name, summary, contentType: 'application/json', payload: components.ref(payload) };
    return { $ref: `#/components/messages/${key}` };
  };
  const frame = (type: string, data?: JsonSchema): JsonSchema => ({
    type: 'object',
    properties: { type: { const: type }, ...(data && { data: components.ref(data) }) },
    required: data ? ['type', 'data'] : ['type'],
    additionalProperties: false,
  });

  // socket.io: client → server, with acknowledgements
  const sioJoin = message('SocketIoJoin', 'join', 'Join a conversation (required before message and interrupt); acknowledged with the conversation', joinSchema.json);
  const sioMessage = message('SocketIoMessage', 'message', "Send the user's message; the reply arrives as events; acknowledged with the stored message id", clientMessageSchema.json);
  const sioInterrupt = message('SocketIoInterrupt', 'interrupt', 'Stop the running reply; no payload; acknowledged with whether a reply was running', { type: 'null', description: 'No payload' });
  const joinAck = message('SocketIoJoinAck', 'join acknowledgement', 'ok: true with the conversation', joinAckSchema.json);
  const messageAck = message('SocketIoMessageAck', 'message acknowledgement', 'ok: true with the user message id', messageAckSchema.json);
  const interruptAck = message('SocketIoInterruptAck', 'interrupt acknowledgement', 'ok: true with whether a reply was running', interruptAckSchema.json);
  const failedAck = message('SocketIoFailedAck', 'refusal', 'ok: false with the error (bad payload, not joined, rate limited…)', failedAckSchema.json);
  // server → client events, the same names on socket.io (payload = data) and the WebSocket (frames)
  const sioEvents = Object.fromEntries(serverEvents.map((event) => [event.name, message(`SocketIo${pascal(event.name)}Event`, event.name, event.schema.json.description as string, event.schema.json)]));
  const wsEvents = Object.fromEntries(
    serverEvents.map((event) => [event.name, message(`WebSocket${pascal(event.name)}Frame`, event.name, event.schema.json.description as string, frame(event.name, event.schema.json))]),
  );
  const wsMessage = message('WebSocketMessageFrame', 'message', "The user's message; the reply arrives as frames", frame('message', clientMessageSchema.json));
  const wsInterrupt = message('WebSocketInterruptFrame', 'interrupt', 'Stop the running reply', frame('interrupt'));

  const sioMessages = { join: sioJoin, message: sioMessage, interrupt: sioInterrupt, joinAck, messageAck, interruptAck, failedAck, ...prefixed('event', sioEvents) };
  const wsMessages = { message: wsMessage, interrupt: wsInterrupt, ...prefixed('event', wsEvents) };
  const ref = (channel: string, key: string) => ({ $ref: `#/channels/${channel}/messages/${key}` });
  const eventKeys = serverEvents.map((event) => `event${pascal(event.name)}`);

  return {
    asyncapi: '3.0.0',
    info: {
      title: 'avatar-service realtime',
      version: info.version,
      description:
        'The realtime transports of avatar-service: socket.io and a plain WebSocket. Both carry the same server events as the SSE stream of POST /v1/conversations/{id}/messages (described in /v1/openapi.json). API keys go in headers only; a URL carries session tokens (sess_…) at most.',
      license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
    },
    defaultContentType: 'application/json',
    servers: {
      socketIo: {
        host: url.host,
        protocol,
        pathname: '/v1/realtime',
        title: 'socket.io',
        description: 'socket.io 4 (Engine.IO 4), path /v1/realtime: io(origin, { path: "/v1/realtime", auth: { token } }).',
        security: [{ $ref: '#/components/securitySchemes/socketIoAuth' }],
      },
      webSocket: {
        host: url.host,
        protocol,
        title: 'plain WebSocket',
        description: 'RFC 6455 WebSocket, one conversation per connection, JSON text frames {type, data}.',
        security: [{ $ref: '#/components/securitySchemes/bearer' }, { $ref: '#/components/securitySchemes/sessionTokenQuery' }],
      },
    },
    channels: {
      socketIo: {
        address: '/v1/realtime',
        title: 'socket.io events',
        description: 'Every event of the joined conversation, including replies started over REST, is sent to the socket.',
        servers: [{ $ref: '#/servers/socketIo' }],
        messages: sioMessages,
      },
      webSocket: {
        address: '/v1/conversations/{conversationId}/ws',
        title: 'WebSocket frames',
        description: 'Frames of one conversation. Close codes: 4401 credential refused or revoked, 4400 bad frame, 4404 no such conversation, 4429 limits.',
        servers: [{ $ref: '#/servers/webSocket' }],
        parameters: { conversationId: { description: 'conv_… of the conversation' } },
        messages: wsMessages,
      },
    },
    operations: {
      receiveSocketIoJoin: {
        action: 'receive',
        title: 'join',
        summary: 'A client joins a conversation',
        channel: { $ref: '#/channels/socketIo' },
        messages: [ref('socketIo', 'join')],
        reply: { channel: { $ref: '#/channels/socketIo' }, messages: [ref('socketIo', 'joinAck'), ref('socketIo', 'failedAck')] },
      },
      receiveSocketIoMessage: {
        action: 'receive',
        title: 'message',
        summary: "A client sends the user's message (a new one while the avatar talks interrupts it)",
        channel: { $ref: '#/channels/socketIo' },
        messages: [ref('socketIo', 'message')],
        reply: { channel: { $ref: '#/channels/socketIo' }, messages: [ref('socketIo', 'messageAck'), ref('socketIo', 'failedAck')] },
      },
      receiveSocketIoInterrupt: {
        action: 'receive',
        title: 'interrupt',
        summary: 'A client stops the running reply',
        channel: { $ref: '#/channels/socketIo' },
        messages: [ref('socketIo', 'interrupt')],
        reply: { channel: { $ref: '#/channels/socketIo' }, messages: [ref('socketIo', 'interruptAck'), ref('socketIo', 'failedAck')] },
      },
      sendSocketIoEvents: {
        action: 'send',
        title: 'reply events',
        summary: 'The server streams the events of the joined conversation',
        channel: { $ref: '#/channels/socketIo' },
        messages: eventKeys.map((key) => ref('socketIo', key)),
      },
      receiveWebSocketFrames: {
        action: 'receive',
        title: 'client frames',
        summary: "A client sends the user's message or an interrupt",
        channel: { $ref: '#/channels/webSocket' },
        messages: [ref('webSocket', 'message'), ref('webSocket', 'interrupt')],
      },
      sendWebSocketFrames: {
        action: 'send',
        title: 'reply frames',
        summary: 'The server streams the events of the conversation',
        channel: { $ref: '#/channels/webSocket' },
        messages: eventKeys.map((key) => ref('webSocket', key)),
      },
    },
    components: {
      schemas: components.schemas(),
      messages,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer svc_… (API key) or sess_… (session token), where the client can set headers' },
        socketIoAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'The socket.io handshake: io(origin, { path: "/v1/realtime", auth: { token: "svc_…" or "sess_…" } }), or an Authorization: Bearer header; never in the URL (refused with connect_error 401)',
        },
        sessionTokenQuery: {
          type: 'httpApiKey',
          in: 'query',
          name: 'token',
          description: 'Browsers (which cannot set WebSocket headers): ?token=sess_… only. An API key (or any other credential) in the URL is refused with 401.',
        },
      },
    },
  };
}

function prefixed<T>(prefix: string, entries: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(entries).map(([key, value]) => [`${prefix}${pascal(key)}`, value]));
}
