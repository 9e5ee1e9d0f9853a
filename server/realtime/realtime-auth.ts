import type { Owner, ServiceError } from '../../core/index.js';
import { UnauthorizedError } from '../../core/index.js';
import type { ConnectionEnds, ConnectionGate, OpenConnection } from '../edge/connection-gate.js';

/** Why a credential other than a session token is refused in a URL's query string. */
export const QUERY_CREDENTIAL_REFUSED =
  'API keys are refused in URLs (they end up in proxy and browser logs): send the key in the Authorization header (Bearer svc_…), or put a session token (sess_…) in ?token=';

/** A realtime client that passed the handshake: who it is and the connection it holds. */
export interface RealtimeClient {
  owner: Owner;
  /** Set for session tokens: the only conversation this client may join. */
  onlyConversation: string | undefined;
  connection: OpenConnection;
  /** Aborts when the credential is revoked or expires: replies this client started stop with it. */
  signal: AbortSignal;
}

export interface RealtimeHandshake {
  token: unknown;
  origin: string | undefined;
  /** The conversation of a WebSocket's path; socket.io clients join one later. */
  conversationId?: string;
}

/**
 * Admits a realtime handshake through the connection gate: an API key or a session token, counted
 * as one request, holding one connection slot (429 when all are in use), its credential watched
 * (`end` is called, and the client's `signal` aborts, when it is revoked or expires; `reconnect`
 * when the server stops). The caller
 * releases the connection when it closes, however it closes. A client that merely disconnects
 * does not stop its reply: the reply goes on to the conversation's other listeners and history.
 */
export async function admitRealtimeClient(
  gate: ConnectionGate,
  handshake: RealtimeHandshake,
  ends: ConnectionEnds,
): Promise<RealtimeClient> {
  const { token, origin, conversationId } = handshake;
  if (typeof token !== 'string' || token === '') {
    throw new UnauthorizedError('Realtime connections need a token: an API key or a session token (sess_…)');
  }
  const credential = { token, origin, ...(conversationId !== undefined && { conversationId }) };
  const principal = await gate.authenticate(credential);
  const stop = new AbortController();
  const connection = await gate.open(principal, credential, {
    ...ends,
    end: (error: ServiceError) => {
      stop.abort(error);
      ends.end(error);
    },
  });
  return {
    owner: principal.owner,
    onlyConversation: principal.type === 'session' ? principal.conversationId : undefined,
    connection,
    signal: stop.signal,
  };
}

/** Refuses a conversation outside a session token's scope. */
export function checkScope(client: RealtimeClient, conversationId: string): void {
  if (client.onlyConversation !== undefined && client.onlyConversation !== conversationId) {
    throw new UnauthorizedError('This session token belongs to another conversation');
  }
}
