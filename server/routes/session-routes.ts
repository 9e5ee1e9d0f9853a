import { SESSION_TTL_MAX_S } from '../../core/index.js';
import { s } from '../schema/schema.js';
import { defineRoute } from '../http/route.js';
import type { Route } from '../http/route.js';
import { ownerOf } from '../http/owner.js';
import { DEMO_EMAIL } from '../dev-bootstrap.js';
import { sessionSchema } from '../http/resource-schemas.js';

/** `POST /v1/sessions`: trade an API key for a browser session token scoped to one conversation. */
export function sessionRoutes(): Route[] {
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
        avatar_id: s.optional(s.string({ min: 1, max: 64, description: 'Avatar of the new conversation when conversation_id is omitted' })),
        conversation_id: s.optional(s.string({ min: 1, max: 64, description: 'An existing conversation; omit to create one' })),
        ttl_s: s.optional(s.integer({ min: 60, max: SESSION_TTL_MAX_S, description: 'Lifetime in seconds; default 3600' })),
      }),
      async handle({ body, principal, service }) {
        const session = await service.sessions.create(
          ownerOf(principal),
          {
            ...(body.avatar_id !== undefined && { avatarId: body.avatar_id }),
            ...(body.conversation_id !== undefined && { conversationId: body.conversation_id }),
            ...(body.ttl_s !== undefined && { ttlS: body.ttl_s }),
          },
          principal?.type === 'api_key' ? { keyId: principal.keyId, allowedOrigins: principal.allowedOrigins } : null,
        );
        return { token: session.token, expires_at: new Date(session.expiresAt).toISOString(), conversation_id: session.conversationId };
      },
    }),
  ];
}

/**
 * `POST /demo/session` (DEV_BOOTSTRAP only): the server stands in for a host site's backend and
 * mints a session for the demo account, so the demo page holds no key (docs/api.md, Demo).
 */
export function demoSessionRoute(): Route {
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
    body: s.object({
      avatar_id: s.optional(s.string({ min: 1, max: 64 })),
      tts_provider: s.optional(s.string({ min: 1, max: 32 })),
      conversation_id: s.optional(s.string({ min: 1, max: 64, description: 'Renew the session of this demo conversation' })),
    }),
    async handle({ body, service }) {
      const account = await service.accounts.findAccountByEmail(DEMO_EMAIL);
      const session = await service.sessions.create(
        { accountId: account.id, mode: 'test' },
        body.conversation_id !== undefined
          ? { conversationId: body.conversation_id, ttlS: 3600 }
          : {
              avatarId: body.avatar_id ?? 'luna-001',
              ttlS: 3600,
              ...(body.tts_provider !== undefined && { ttsProvider: body.tts_provider }),
            },
      );
      return { token: session.token, expires_at: new Date(session.expiresAt).toISOString(), conversation_id: session.conversationId };
    },
  });
}
