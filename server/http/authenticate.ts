import type { Context } from 'koa';
import type { AvatarService, Principal } from '../../core/index.js';
import { UnauthorizedError } from '../../core/index.js';
import type { ServerConfig } from '../config.js';
import { authenticateCredential, parseBearer } from '../edge/credentials.js';
import type { Credential } from '../edge/credentials.js';

/** The credential of `Authorization: Bearer <credential>`, if any; 401 for another shape. */
export function bearerToken(ctx: Context): string | undefined {
  const header = ctx.get('authorization');
  if (!header) return undefined;
  const token = parseBearer(header);
  if (token === undefined) throw new UnauthorizedError('Malformed Authorization header: use "Authorization: Bearer <key>"');
  return token;
}

/**
 * Who may call a route:
 * - `none`: anyone, always (health checks);
 * - `public`: anyone, unless REQUIRE_KEY_FOR_READS is on (then an API key);
 * - `api_key`: a live or test API key;
 * - `account`: an account token (JWT), for key management;
 * - `account_or_key`: an account token (both modes of the account) or an API key (its mode);
 * - `conversation`: an API key, or a browser session token scoped to the `:id` conversation.
 */
export type AuthRequirement = 'none' | 'public' | 'api_key' | 'account' | 'account_or_key' | 'conversation';

/** The credential of a request, kept by streams that outlive it so it can be checked again. */
export function credentialOf(ctx: Context, conversationId?: string): Credential {
  return { token: bearerToken(ctx) ?? '', origin: ctx.get('origin') || undefined, ...(conversationId !== undefined && { conversationId }) };
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
    case 'account':
      return authenticateCredential(service, requireToken(token, 'an account token: POST /v1/auth/login or `avatar-service token`'), {
        origin,
        accountToken: 'only',
      });
    case 'account_or_key':
      return authenticateCredential(service, requireToken(token, 'an account token (JWT) or an API key'), { origin, accountToken: 'also' });
  }
}

function requireToken(token: string | undefined, what = 'an API key: "Authorization: Bearer svc_…"'): string {
  if (token === undefined) throw new UnauthorizedError(`This route needs ${what}`);
  return token;
}
