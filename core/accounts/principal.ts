import type { Owner } from '../ports/store.js';
import type { SessionPrincipal } from '../sessions/session-service.js';

/** Who is calling, as established by a credential. */
export type Principal =
  /** An API key: may use every resource of its account in the key's mode. */
  | { type: 'api_key'; owner: Owner; keyId: string; allowedOrigins: readonly string[] | null }
  /** An account token (JWT) of an account holder: manages keys; reads the account's conversation list and daily usage (both modes). */
  | { type: 'account'; accountId: string }
  /** A browser session token: one conversation only. */
  | SessionPrincipal;
