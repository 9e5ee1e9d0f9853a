import type { AIProvider, AvatarService, ChatStreamPart } from '../../core/index.js';
import { Limits, ServiceError } from '../../core/index.js';
import { s } from '../schema/schema.js';
import { defineRoute } from '../http/route.js';
import type { Route } from '../http/route.js';
import { ownerOf } from '../http/owner.js';
import { requestSignal } from '../http/request-signal.js';
import { SseWriter } from '../http/sse-writer.js';
import { credentialOf } from '../http/authenticate.js';
import type { ConnectionPrincipal } from '../edge/connection-gate.js';
import { errorPayload } from '../edge/reply-wire.js';
import { aiProviderListSchema, chatCompletionSchema, modelListSchema } from '../http/resource-schemas.js';

const presentModels = (provider: AIProvider) =>
  provider.models.map((m) => ({ id: m.id, name: m.name, context_window: m.contextWindow, capabilities: m.capabilities }));

const presentProvider = (provider: AIProvider, defaultId: string) => ({
  id: provider.id,
  name: provider.name,
  description: provider.description,
  kind: provider.kind,
  configured: provider.configured,
  default: provider.id === defaultId,
  default_model: provider.defaultModel,
  capabilities: [...new Set(provider.models.flatMap((m) => m.capabilities))],
});

const usageOf = (part: Extract<ChatStreamPart, { type: 'finish' }>) => ({
  prompt_tokens: part.usage.inputTokens,
  completion_tokens: part.usage.outputTokens,
  ai_tokens: part.usage.inputTokens + part.usage.outputTokens,
});

/** `GET /v1/models`, `GET /v1/ai/providers`, `POST /v1/ai/chat` (JSON or SSE). */
export function aiRoutes(service: AvatarService): Route[] {
  const chatBody = s.object({
    provider: s.optional(s.enum(service.providers.ids(), `Default: ${service.providers.defaultId}`)),
    model: s.optional(s.string({ min: 1, max: 128, description: "Default: the provider's default model" })),
    messages: s.array(
      s.object({
        role: s.enum(['system', 'user', 'assistant'] as const),
        content: s.string({ min: 1, max: Limits.contentMaxChars }),
      }),
      { min: 1, max: 100, description: 'The conversation, oldest first; system messages go to the system slot' },
    ),
    temperature: s.optional(s.number({ min: 0, max: 2 })),
    max_tokens: s.optional(s.integer({ min: 1, max: 32_000 })),
    stream: s.optional(s.boolean('true: answer with a text/event-stream of deltas')),
  });

  return [
    defineRoute({
      method: 'get',
      path: '/models',
      summary: 'AI providers and their models, configured here or not',
      tag: 'ai',
      auth: 'public',
      response: modelListSchema.json,
      async handle({ service }) {
        const defaultId = service.providers.defaultId;
        return {
          default_provider: defaultId,
          providers: service.providers.list().map((p) => ({ ...presentProvider(p, defaultId), models: presentModels(p) })),
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/ai/providers',
      summary: 'AI providers with capabilities and whether each is configured',
      tag: 'ai',
      auth: 'api_key',
      response: aiProviderListSchema.json,
      async handle({ service }) {
        const defaultId = service.providers.defaultId;
        return { providers: service.providers.list().map((p) => presentProvider(p, defaultId)) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/ai/chat',
      summary: 'A raw chat completion (JSON, or SSE with stream: true)',
      tag: 'ai',
      auth: 'api_key',
      body: chatBody,
      response: chatCompletionSchema.json,
      produces: ['text/event-stream'],
      async handle({ body, principal, ctx, service, connections }) {
        const owner = ownerOf(principal);
        const stop = new AbortController();
        const input = {
          ...(body.provider !== undefined && { provider: body.provider }),
          ...(body.model !== undefined && { model: body.model }),
          messages: body.messages,
          ...(body.temperature !== undefined && { temperature: body.temperature }),
          ...(body.max_tokens !== undefined && { maxTokens: body.max_tokens }),
          signal: AbortSignal.any([requestSignal(ctx), stop.signal]),
        };
        if (!body.stream) {
          const completion = await service.chat.complete(owner, input);
          return {
            id: completion.id,
            provider: completion.provider,
            model: completion.model,
            content: completion.content,
            finish_reason: completion.finishReason,
            usage: usageOf({ type: 'finish', finishReason: completion.finishReason, usage: completion.usage }),
          };
        }
        // A stream is a connection of the account, through the one gate: a revoked key ends it.
        let sse: SseWriter | undefined;
        const connection = await connections.open(principal as ConnectionPrincipal, credentialOf(ctx), {
          transport: 'sse',
          end: (error) => {
            stop.abort(error);
            sse?.send('error', errorPayload(error));
            sse?.close();
          },
          reconnect: (hint) => {
            sse?.send('reconnect', hint);
            sse?.close();
            stop.abort(new ServiceError('unavailable', 'The server is shutting down'));
          },
        });
        let stream;
        try {
          stream = service.chat.stream(owner, input);
        } catch (error) {
          connection.release();
          throw error;
        }
        sse = new SseWriter(ctx, () => connection.release());
        const writer = sse;
        void (async () => {
          try {
            for await (const part of stream.parts) {
              if (part.type === 'text-delta') writer.send('message', { delta: part.delta });
              else if (part.type === 'error') writer.send('error', errorPayload(part.error));
              else {
                writer.send('done', {
                  id: stream.id,
                  provider: part.provider ?? stream.provider,
                  model: part.model ?? stream.model,
                  finish_reason: part.finishReason,
                  usage: usageOf(part),
                });
              }
            }
          } catch {
            writer.send('error', { error: { code: 'internal_error', message: 'The stream failed' } });
          } finally {
            writer.close();
          }
        })();
        return undefined;
      },
    }),
  ];
}
