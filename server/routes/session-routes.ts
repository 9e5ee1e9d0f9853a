import type { AvatarService, CreateSessionInput } from '../../core/index.js';
import { SESSION_TTL_MAX_S } from '../../core/index.js';
import { s } from '../schema/schema.js';
import type { Infer } from '../schema/schema.js';
import { defineRoute } from '../http/route.js';
import type { Route } from '../http/route.js';
import { ownerOf } from '../http/owner.js';
import { DEMO_EMAIL } from '../dev-bootstrap.js';
import { sessionSchema } from '../http/resource-schemas.js';
import { conversationChoiceFields } from './conversation-choices.js';

/**
 * The body `<avatar-chat session-url>` POSTs to its host — `{avatar_id?, persona_id?,
 * tts_provider?}` for a new conversation, `{conversation_id}` to renew — as both session routes
 * take it, so a host forwards it unchanged (README, The widget).
 */
function widgetSessionFields(service: AvatarService) {
  const choices = conversationChoiceFields(service);
  return {
    avatar_id: s.optional(choices.avatar_id),
    persona_id: choices.persona_id,
    tts_provider: choices.tts_provider,
    conversation_id: s.optional(s.string({ min: 1, max: 64, description: 'An existing conversation; omit to create one' })),
  };
}

type WidgetSessionBody = Infer<ReturnType<typeof s.object<ReturnType<typeof widgetSessionFields>>>>;

function toSessionInput(body: WidgetSessionBody): CreateSessionInput {
  return {
    ...(body.conversation_id !== undefined && { conversationId: body.conversation_id }),
    ...(body.avatar_id !== undefined && { avatarId: body.avatar_id }),
    ...(body.persona_id !== undefined && { personaId: body.persona_id }),
    ...(body.tts_provider !== undefined && { ttsProvider: body.tts_provider }),
  };
}

/**
 * `POST /v1/sessions`: trade an API key for a browser session token scoped to one conversation,
 * an existing one or one created from the widget's choices.
 */
export function sessionRoutes(service: AvatarService): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/sessions',
      summary: 'Create a browser session token for one conversation',
      tag: 'sessions',
      auth: 'api_key',
      status: 201,
      response: sessionSchema.json,
      body: s.object({
        ...widgetSessionFields(service),
        ttl_s: s.optional(s.integer({ min: 60, max: SESSION_TTL_MAX_S, description: 'Lifetime in seconds; default 3600' })),
      }),
      async handle({ body, principal }) {
        const session = await service.sessions.create(
          ownerOf(principal),
          { ...toSessionInput(body), ...(body.ttl_s !== undefined && { ttlS: body.ttl_s }) },
          principal?.type === 'api_key' ? { keyId: principal.keyId, allowedOrigins: principal.allowedOrigins } : null,
        );
        return { token: session.token, expires_at: new Date(session.expiresAt).toISOString(), conversation_id: session.conversationId };
      },
    }),
  ];
}

/**
 * `POST /demo/session` (DEV_BOOTSTRAP only): the server stands in for a host site's backend and
 * mints a one-hour session for the demo account from the widget's body, so the demo page holds
 * no key (docs/api.md, Demo).
 */
export function demoSessionRoute(service: AvatarService): Route {
  return defineRoute({
    method: 'post',
    path: '/demo/session',
    summary: 'Demo: a session token for the demo account',
    tag: 'demo',
    auth: 'none',
    // Each call creates a conversation: limited like anonymous reads, per client address.
    limitAnonymous: true,
    status: 201,
    response: sessionSchema.json,
    body: s.object(widgetSessionFields(service)),
    async handle({ body }) {
      const account = await service.accounts.findAccountByEmail(DEMO_EMAIL);
      const session = await service.sessions.create({ accountId: account.id, mode: 'test' }, { ...toSessionInput(body), ttlS: 3600 });
      return { token: session.token, expires_at: new Date(session.expiresAt).toISOString(), conversation_id: session.conversationId };
    },
  });
}
