import type { ConversationScope, Owner, Principal } from '../../core/index.js';
import { UnauthorizedError } from '../../core/index.js';

/** The data scope of a caller acting for an account in one mode (API key or session token). */
export function ownerOf(principal: Principal | undefined): Owner {
  if (principal?.type === 'api_key' || principal?.type === 'session') return principal.owner;
  throw new UnauthorizedError();
}

/** The caller's data scope on a public read: set when it sent an API key or a session token, else undefined. */
export function optionalOwnerOf(principal: Principal | undefined): Owner | undefined {
  return principal?.type === 'api_key' || principal?.type === 'session' ? principal.owner : undefined;
}

/** The account-wide scope of an `account_or_key` route: an account token sees both modes, an API key its own. */
export function accountScopeOf(principal: Principal | undefined): ConversationScope {
  if (principal?.type === 'account') return { accountId: principal.accountId };
  if (principal?.type === 'api_key') return principal.owner;
  throw new UnauthorizedError('This route needs an account token (JWT) or an API key');
}
