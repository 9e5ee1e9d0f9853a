import type { Context } from 'koa';
import type { AvatarService, Principal } from '../../core/index.js';
import { UnauthorizedError } from '../../core/index.js';
import type { ServerConfig } from '../config.js';

/** The credential of `Authorization: Bearer <credential>`, if any. */
export function bearerToken(ctx: Context): string | undefined {
  const header = ctx.get('authorization');
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new UnauthorizedError('Malformed Authorization header: use "Authorization: Bearer <key>"');
  return match[1];
}

/**
 * Who may call a route:
 * - `none`: anyone, always (health checks);
 * - `public`: anyone, unless REQUIRE_KEY_FOR_READS is on (then an API key);
 * - `api_key`: a live or test API key;
 * - `account`: an account token (JWT), for key management;
 * - `conversation`: an API key, or a browser session token scoped to the `:id` conversation.
 */
export type AuthRequirement = 'none' | 'public' | 'api_key' | 'account' | 'conversation';

/** What a long-lived connection presented when it opened, kept so it can be checked again. */
export interface Credential {
  token: string;
  origin: string | undefined;
  /** The one conversation the connection serves (WebSocket, SSE); absent: any of the credential's (socket.io). */
  conversationId?: string;
}

/** The credential of a request, kept by streams that outlive it so it can be checked again. */
export function credentialOf(ctx: Context, conversationId: string): Credential {
  return { token: bearerToken(ctx) ?? '', origin: ctx.get('origin') || undefined, conversationId };
}

/**
 * Resolves an API key or a session token. A session token is accepted only where `conversationId`
 * is its conversation (or on public reads); everywhere else it is refused with 401.
 */
export async function authenticateCredential(
  service: AvatarService,
  token: string,
  scope: { conversationId?: string; allowAnySession?: boolean; origin?: string | undefined },
): Promise<Principal> {
  if (!token.startsWith('sess_')) return checkOrigin(await service.accounts.authenticateApiKey(token), scope.origin);
  const session = checkOrigin(await service.sessions.authenticate(token), scope.origin);
  if (scope.allowAnySession || (scope.conversationId !== undefined && scope.conversationId === session.conversationId)) {
    return session;
  }
  throw new UnauthorizedError(
    scope.conversationId === undefined
      ? 'Session tokens work only on their own conversation; this route needs an API key'
      : 'This session token belongs to another conversation',
  );
}

/**
 * A key (or a session minted with it) that lists allowed origins may be used from those browser
 * origins only. Requests without an Origin header (servers, curl) are not browsers and pass.
 */
function checkOrigin<P extends { allowedOrigins: readonly string[] | null }>(principal: P, origin: string | undefined): P {
  if (origin && principal.allowedOrigins && !principal.allowedOrigins.includes(origin)) {
    throw new UnauthorizedError(`Origin ${origin} is not allowed for this key`);
  }
  return principal;
}

/** Establishes the caller of a route according to its requirement; throws 401 when it is not met. */
export async function authenticate(
  ctx: Context,
  requirement: AuthRequirement,
  service: AvatarService,
  config: ServerConfig,
): Promise<Principal | undefined> {
  if (requirement === 'none') return undefined;
  const token = bearerToken(ctx);
  const origin = ctx.get('origin') || undefined;
  switch (requirement) {
    case 'public':
      if (token === undefined && !config.requireKeyForReads) return undefined;
      return authenticateCredential(service, requireToken(token), { allowAnySession: true, origin });
    case 'api_key':
      return authenticateCredential(service, requireToken(token), { origin });
    case 'conversation':
      return authenticateCredential(service, requireToken(token), { conversationId: String(ctx.params.id ?? ''), origin });
    case 'account': {
      const value = requireToken(token, 'an account token: POST /v1/auth/login or `avatar-service token`');
      if (value.startsWith('svc_') || value.startsWith('sess_')) {
        throw new UnauthorizedError('Key management needs an account token (JWT) from POST /v1/auth/login, not an API key');
      }
      return service.accounts.authenticateToken(value);
    }
  }
}

function requireToken(token: string | undefined, what = 'an API key: "Authorization: Bearer svc_…"'): string {
  if (token === undefined) throw new UnauthorizedError(`This route needs ${what}`);
  return token;
}
