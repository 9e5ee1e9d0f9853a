import type { AvatarService } from '../../core/index.js';
import { Limits, ServiceError } from '../../core/index.js';
import { s } from '../schema/schema.js';
import { defineRoute } from '../http/route.js';
import type { Route } from '../http/route.js';
import { ownerOf } from '../http/owner.js';
import { presentConversation, presentConversationCreated, presentMessage } from '../edge/present.js';
import { requestSignal } from '../http/request-signal.js';
import { streamReplyAsSse } from '../http/sse-reply.js';
import type { SseReply } from '../http/sse-reply.js';
import { credentialOf } from '../http/authenticate.js';
import type { ConnectionPrincipal } from '../edge/connection-gate.js';
import { errorPayload } from '../edge/reply-wire.js';
import { conversationChoiceFields } from './conversation-choices.js';
import { conversationParams, messageId } from './id-schemas.js';
import { messageContent } from '../edge/message-schema.js';
import type { UrlBuilder } from '../edge/urls.js';
import type { Serializer } from '../edge/serializer.js';
import { JsonRepresentation } from '../edge/representation.js';
import type { ConversationReadCache } from '../edge/representation.js';
import { safetyInputSchema, conversationCreatedSchema, conversationSchema, conversationWithMessagesSchema, deletedSchema, messageListSchema, messageSchema } from '../http/resource-schemas.js';

/** How conversation reads are answered: serialized once (with an ETag), and cached when `cache` is given. */
export interface ConversationReads {
  serializer: Serializer;
  cache?: ConversationReadCache;
}

/**
 * Conversations: create, read (whole, or the messages a page at a time), end, delete, and send
 * messages (JSON or SSE). Both reads answer with an ETag and honour If-None-Match (304).
 */
export function conversationRoutes(service: AvatarService, urls: UrlBuilder, reads: ConversationReads): Route[] {
  const choices = conversationChoiceFields(service);
  const createBody = s.object({
    avatar_id: choices.avatar_id,
    persona_id: choices.persona_id,
    ai_provider: s.optional(s.enum(service.providers.ids(), `Default: ${service.providers.defaultId}`)),
    ai_model: s.optional(s.string({ min: 1, max: 128, description: "Default: the provider's default model" })),
    tts_provider: choices.tts_provider,
    voice_id: s.optional(s.string({ min: 1, max: 64, description: "Default: the avatar's default voice" })),
    system_prompt: s.optional(s.string({ max: Limits.systemPromptMaxChars, description: 'Extra instructions for this conversation' })),
    safety: s.optional(safetyInputSchema),
  });
  const messageBody = s.object({
    content: messageContent,
    stream: s.optional(s.boolean('true: answer with a text/event-stream of the reply')),
  });

  return [
    defineRoute({
      method: 'post',
      path: '/conversations',
      summary: 'Create a conversation',
      tag: 'conversations',
      auth: 'api_key',
      body: createBody,
      status: 201,
      response: conversationCreatedSchema.json,
      async handle({ body, principal }) {
        const conversation = await service.conversations.create(ownerOf(principal), {
          avatarId: body.avatar_id,
          ...(body.persona_id !== undefined && { personaId: body.persona_id }),
          ...(body.ai_provider !== undefined && { aiProvider: body.ai_provider }),
          ...(body.ai_model !== undefined && { aiModel: body.ai_model }),
          ...(body.tts_provider !== undefined && { ttsProvider: body.tts_provider }),
          ...(body.voice_id !== undefined && { voiceId: body.voice_id }),
          ...(body.system_prompt !== undefined && { systemPrompt: body.system_prompt }),
          ...(body.safety !== undefined && { safety: body.safety }),
        });
        return presentConversationCreated(conversation);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/conversations/:id',
      summary: 'Get a conversation with its messages and usage',
      tag: 'conversations',
      auth: 'conversation',
      params: conversationParams,
      conditional: true,
      response: conversationWithMessagesSchema.json,
      async handle({ params, principal }) {
        const owner = ownerOf(principal);
        const load = async () => {
          const { conversation, messages } = await service.conversations.getWithMessages(owner, params.id);
          return presentConversation(conversation, messages, urls);
        };
        return reads.cache ? reads.cache.read(owner, params.id, load) : JsonRepresentation.of(reads.serializer, await load());
      },

    }),
    defineRoute({
      method: 'delete',
      path: '/conversations/:id',
      summary: 'Delete a conversation, its messages and its audio',
      tag: 'conversations',
      auth: 'api_key',
      params: conversationParams,
      response: deletedSchema.json,
      async handle({ params, principal }) {
        await service.conversations.delete(ownerOf(principal), params.id);
        return { deleted: true };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/conversations/:id/end',
      summary: 'End a conversation (idempotent)',
      errors: [409],
      tag: 'conversations',
      auth: 'conversation',
      params: conversationParams,
      response: conversationSchema.json,
      async handle({ params, principal }) {
        return presentConversation(await service.conversations.end(ownerOf(principal), params.id));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/conversations/:id/messages',
      summary: "A conversation's messages, oldest first, a page at a time",
      tag: 'conversations',
      auth: 'conversation',
      params: conversationParams,
      query: s.object({
        limit: s.optional(s.integer({ min: 1, max: 100, text: true, description: 'Messages per page, 1 to 100; default 20' })),
        starting_after: s.optional(messageId('Cursor: the last id of the previous page (400 if it is not a message of this conversation)')),
      }),
      conditional: true,
      response: messageListSchema.json,
      async handle({ params, query, principal }) {
        const page = await service.conversations.pageMessages(ownerOf(principal), params.id, {
          limit: query.limit ?? 20,
          ...(query.starting_after !== undefined && { startingAfter: query.starting_after }),
        });
        return JsonRepresentation.of(reads.serializer, { messages: page.items.map((m) => presentMessage(m, urls)), has_more: page.hasMore });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/conversations/:id/messages',
      summary: 'Send a message and get the reply (JSON, or SSE with stream: true)',
      errors: [409],
      tag: 'conversations',
      auth: 'conversation',
      params: conversationParams,
      body: messageBody,
      response: messageSchema.json,
      produces: ['text/event-stream'],
      async handle({ params, body, principal, ctx, connections }) {
        const owner = ownerOf(principal);
        const signal = requestSignal(ctx);
        if (body.stream) {
          // An open stream is a connection of the account (docs/api.md, Limits), watched like a socket:
          // a revoked key or an expired session ends it with an `error` event and stops the reply.
          const stop = new AbortController();
          let sse: SseReply | undefined;
          const connection = await connections.open(principal as ConnectionPrincipal, credentialOf(ctx, params.id), {
            transport: 'sse',
            end: (error) => {
              stop.abort(error);
              sse?.fail(errorPayload(error));
            },
            // The server is stopping: the hint first, then the reply stops (kept as interrupted).
            reconnect: (hint) => {
              sse?.reconnect(hint);
              stop.abort(new ServiceError('unavailable', 'The server is shutting down'));
            },
          });
          try {
            const started = await service.conversations.startReply(owner, params.id, body.content, { signal: AbortSignal.any([signal, stop.signal]) });
            sse = streamReplyAsSse(ctx, started.events, urls, () => connection.release());
          } catch (error) {
            connection.release();
            throw error;
          }
          return undefined;
        }
        const message = await service.conversations.sendMessage(owner, params.id, body.content, { signal });
        return presentMessage(message, urls);
      },
    }),
  ];
}
