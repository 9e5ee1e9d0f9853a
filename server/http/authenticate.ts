import type { Context } from 'koa';
import type { AvatarService, Principal } from '../../core/index.js';
import { UnauthorizedError } from '../../core/index.js';
import type { ServerConfig } from '../config.js';
import type { AuthRequirement } from './route.js';

/** The credential of `Authorization: Bearer <credential>`, if any. */
export function bearerToken(ctx: Context): string | undefined {
  const header = ctx.get('authorization');
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new UnauthorizedError('Malformed Authorization header: use "Authorization: Bearer <key>"');
  return match[1];
}

/**
 * Resolves an API key or a session token. A session token is accepted only where `conversationId`
 * is its conversation (or on public reads); everywhere else it is refused with 401.
 */
export async function authenticateCredential(
  service: AvatarService,
  token: string,
  scope: { conversationId?: string; allowAnySession?: boolean },
): Promise<Principal> {
  if (!token.startsWith('sess_')) return service.accounts.authenticateApiKey(token);
  const session = service.sessions.authenticate(token);
  if (scope.allowAnySession || (scope.conversationId !== undefined && scope.conversationId === session.conversationId)) {
    return session;
  }
  throw new UnauthorizedError(
    scope.conversationId === undefined
      ? 'Session tokens work only on their own conversation; this route needs an API key'
      : 'This session token belongs to another conversation',
  );
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
  switch (requirement) {
    case 'public':
      if (token === undefined && !config.requireKeyForReads) return undefined;
      return authenticateCredential(service, requireToken(token), { allowAnySession: true });
    case 'api_key':
      return authenticateCredential(service, requireToken(token), {});
    case 'conversation':
      return authenticateCredential(service, requireToken(token), { conversationId: String(ctx.params.id ?? '') });
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
