import type { Owner, Principal } from '../../core/index.js';
import { UnauthorizedError } from '../../core/index.js';

/** The data scope of a caller that must act for an account in one mode (API key or session). */
export function ownerOf(principal: Principal | undefined): Owner {
  if (principal?.type === 'api_key') return principal.owner;
  throw new UnauthorizedError();
}
