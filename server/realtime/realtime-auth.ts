import type { AvatarService, ConnectionLease, Owner, Principal } from '../../core/index.js';
import { UnauthorizedError } from '../../core/index.js';
import { authenticateCredential } from '../http/authenticate.js';

/** A realtime client that passed the handshake: who it is and the connection slot it holds. */
export interface RealtimeClient {
  owner: Owner;
  /** Set for session tokens: the only conversation this client may join. */
  onlyConversation: string | undefined;
  lease: ConnectionLease;
}

/**
 * Authenticates a realtime handshake (API key or session token) and takes a connection slot of
 * the account (429 `too_many_connections` when all are in use). The caller must release the
 * lease when the connection closes, however it closes.
 */
export async function admitRealtimeClient(
  service: AvatarService,
  token: unknown,
  origin: string | undefined,
  conversationId?: string,
): Promise<RealtimeClient> {
  if (typeof token !== 'string' || token === '') {
    throw new UnauthorizedError('Realtime connections need a token: an API key or a session token (sess_…)');
  }
  const principal: Principal = await authenticateCredential(service, token, {
    ...(conversationId !== undefined ? { conversationId } : { allowAnySession: true }),
    origin,
  });
  if (principal.type === 'account') throw new UnauthorizedError('Account tokens cannot open realtime connections');
  const lease = await service.limits.openConnection(principal.owner.accountId);
  return {
    owner: principal.owner,
    onlyConversation: principal.type === 'session' ? principal.conversationId : undefined,
    lease,
  };
}

/** Refuses a conversation outside a session token's scope. */
export function checkScope(client: RealtimeClient, conversationId: string): void {
  if (client.onlyConversation !== undefined && client.onlyConversation !== conversationId) {
    throw new UnauthorizedError('This session token belongs to another conversation');
  }
}
