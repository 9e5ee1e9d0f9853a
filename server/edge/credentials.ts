import type { AvatarService, Principal } from '../../core/index.js';
import { UnauthorizedError } from '../../core/index.js';

/** The credential of an `Authorization: Bearer <credential>` header; undefined for any other shape. */
export function parseBearer(header: string): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
}

/** What a long-lived connection presented when it opened, kept so it can be checked again. */
export interface Credential {
  token: string;
  origin: string | undefined;
  /** The one conversation the connection serves (WebSocket, SSE); absent: any of the credential's (socket.io). */
  conversationId?: string;
}

/**
 * Which credentials a door takes besides API keys and (scoped) session tokens:
 * - `none`: API keys and session tokens only (conversation routes, realtime doors);
 * - `also`: an account token (JWT) as well — the account's own reads across both modes;
 * - `only`: an account token and nothing else (key management).
 */
export type AccountTokenUse = 'none' | 'also' | 'only';

/**
 * The one credential decision of every door (REST, SSE, socket.io, WebSocket): an API key, a
 * session token, or an account token (JWT) where `accountToken` allows one. A session token is
 * accepted only where `conversationId` is its conversation (or on public reads); everywhere else,
 * and any credential a door does not take, is refused with 401.
 */
export async function authenticateCredential(
  service: AvatarService,
  token: string,
  scope: { conversationId?: string; allowAnySession?: boolean; origin?: string | undefined; accountToken?: AccountTokenUse },
): Promise<Principal> {
  const accountToken = scope.accountToken ?? 'none';
  if (token.startsWith('svc_') || token.startsWith('sess_')) {
    if (accountToken === 'only') {
      throw new UnauthorizedError('Key management needs an account token (JWT) from POST /v1/auth/login, not an API key');
    }
  } else if (accountToken !== 'none') {
    return service.accounts.authenticateToken(token);
  } else if (token.split('.').length === 3) {
    throw new UnauthorizedError('Account tokens (JWT) work on /v1/api-keys, GET /v1/conversations and /v1/usage/daily only; this needs an API key or a session token');
  }
  if (!token.startsWith('sess_')) return checkOrigin(await service.accounts.authenticateApiKey(token), scope.origin);
  const session = checkOrigin(await service.sessions.authenticate(token), scope.origin);
  if (scope.allowAnySession || (scope.conversationId !== undefined && scope.conversationId === session.conversationId)) {
    return session;
  }
  throw new UnauthorizedError(
    scope.conversationId === undefined
      ? accountToken === 'none'
        ? 'Session tokens work only on their own conversation; this route needs an API key'
        : 'Session tokens work only on their own conversation; this route needs an API key or an account token (JWT)'
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

