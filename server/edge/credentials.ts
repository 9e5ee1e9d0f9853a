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

