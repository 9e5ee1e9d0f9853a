import type { AvatarService, ConnectionLease, Principal, ServerEventPayloads } from '../../core/index.js';
import { ServiceError, UnauthorizedError, isServiceError } from '../../core/index.js';
import { authenticateCredential } from './credentials.js';
import type { Credential } from './credentials.js';
import { countRequest, refuseOverLimit } from './rate-decision.js';

/** Callers that may hold connections: API keys and session tokens (account tokens manage keys only). */
export type ConnectionPrincipal = Exclude<Principal, { type: 'account' }>;

/** A connection admitted by the gate. */
export interface OpenConnection {
  readonly principal: ConnectionPrincipal;
  /**
   * Before each client message: the credential must still hold (a revoked key or an expired
   * session ends the connection) and the message counts as one request of the account.
   */
  admitMessage(): Promise<void>;
  /** Releases the connection slot and stops watching; idempotent, so every exit path calls it. */
  release(): void;
}

/** How often open connections' credentials are checked again (revocations made by other processes, e.g. the CLI). */
const RECHECK_MS = 15_000;

/** The transports that hold long-lived connections. */
export const Transports = ['sse', 'socket.io', 'websocket'] as const;
export type Transport = (typeof Transports)[number];

/** What the server tells a client whose connection it closes because it is stopping (`reconnect` on every transport). */
export type ReconnectHint = ServerEventPayloads['reconnect'];

/** How one connection is ended, by the transport that holds it. */
export interface ConnectionEnds {
  transport: Transport;
  /** The credential stopped being valid: say why and close. */
  end(error: ServiceError): void;
  /** The server is stopping: send the reconnect hint and close, so the client reconnects (to another node). */
  reconnect(hint: ReconnectHint): void;
}

interface Watched {
  credential: Credential;
  transport: Transport;
  end(error: ServiceError): void;
  reconnect(hint: ReconnectHint): void;
  release(): void;
}

/**
 * The one door of every long-lived connection — SSE replies, socket.io sockets, WebSockets:
 * handshakes are authenticated and counted like REST requests, each connection holds one slot of
 * its account, and its credential is checked again on every message, every 15 s and at once when
 * a key is revoked here, so revocation and session expiry end open connections.
 */
export class ConnectionGate {
  readonly #service: AvatarService;
  readonly #open = new Set<Watched>();
  readonly #timer: ReturnType<typeof setInterval>;
  readonly #unsubscribe: () => void;
  #rechecking: Promise<void> | undefined;
  #recheckAgain = false;
  #stopping = false;

  constructor(service: AvatarService, options: { recheckMs?: number } = {}) {
    this.#service = service;
    this.#timer = setInterval(() => void this.recheck(), options.recheckMs ?? RECHECK_MS);
    this.#timer.unref();
    this.#unsubscribe = service.accounts.onKeyRevoked(() => void this.recheck());
  }

  /** Number of connections the gate holds open (all accounts). */
  get size(): number {
    return this.#open.size;
  }

  /** Open connections by transport (for metrics). */
  countByTransport(): Record<Transport, number> {
    const counts: Record<Transport, number> = { sse: 0, 'socket.io': 0, websocket: 0 };
    for (const watched of this.#open) counts[watched.transport]++;
    return counts;
  }

  /**
   * The server is stopping: new connections are refused (503) and every open one is sent the
   * reconnect hint and closed by its transport.
   */
  shutdown(hint: ReconnectHint): void {
    this.#stopping = true;
    for (const watched of [...this.#open]) watched.reconnect(hint);
  }

  /** A handshake: the credential must be an API key or a session token in scope, and counts as one request. */
  async authenticate(credential: Credential): Promise<ConnectionPrincipal> {
    const principal = await this.#authenticate(credential);
    refuseOverLimit(await countRequest(this.#service, principal));
    return principal;
  }

  /**
   * Takes a connection slot of the principal's account (429 `too_many_connections` when all are
   * in use) and watches the credential: `end` is called once, with the reason, when it stops
   * being valid. The caller releases the connection when it closes, however it closes.
   */
  async open(principal: ConnectionPrincipal, credential: Credential, ends: ConnectionEnds): Promise<OpenConnection> {
    if (this.#stopping) throw new ServiceError('unavailable', 'The server is shutting down; connect again', { retryAfterS: 1 });
    const lease: ConnectionLease = await this.#service.limits.openConnection(principal.owner.accountId);
    let expiry: ReturnType<typeof setTimeout> | undefined;
    let ended = false;
    const watched: Watched = {
      credential,
      transport: ends.transport,
      end: (error) => {
        if (ended) return;
        ended = true;
        watched.release();
        ends.end(error);
      },
      reconnect: (hint) => {
        if (ended) return;
        ended = true;
        watched.release();
        ends.reconnect(hint);
      },
      release: () => {
        clearTimeout(expiry);
        this.#open.delete(watched);
        lease.release();
      },
    };
    this.#open.add(watched);
    if (principal.type === 'session') {
      // Ends the connection the moment its session expires, not at the next periodic check.
      const untilExpiry = principal.expiresAt - this.#service.clock.now();
      expiry = setTimeout(() => void this.#check(watched), Math.max(0, untilExpiry) + 50);
      expiry.unref();
    }
    return {
      principal,
      admitMessage: async () => {
        await this.#check(watched, true);
        refuseOverLimit(await countRequest(this.#service, principal));
      },
      release: () => watched.release(),
    };
  }

  /** Checks every open connection's credential again; those no longer valid are ended. */
  recheck(): Promise<void> {
    if (this.#rechecking) {
      this.#recheckAgain = true;
      return this.#rechecking;
    }
    this.#rechecking = (async () => {
      do {
        this.#recheckAgain = false;
        await Promise.all([...this.#open].map((watched) => this.#check(watched)));
      } while (this.#recheckAgain);
    })().finally(() => (this.#rechecking = undefined));
    return this.#rechecking;
  }

  close(): void {
    clearInterval(this.#timer);
    this.#unsubscribe();
    for (const watched of [...this.#open]) watched.release();
  }

  /** Ends the connection when its credential fails; other failures (a database hiccup) leave it open unless `rethrow`. */
  async #check(watched: Watched, rethrow = false): Promise<void> {
    try {
      await this.#authenticate(watched.credential);
    } catch (error) {
      if (isServiceError(error) && error.code === 'unauthorized') watched.end(error);
      if (rethrow) throw error;
    }
  }

  async #authenticate({ token, origin, conversationId }: Credential): Promise<ConnectionPrincipal> {
    const principal = await authenticateCredential(this.#service, token, {
      ...(conversationId !== undefined ? { conversationId } : { allowAnySession: true }),
      origin,
    });
    if (principal.type === 'account') throw new UnauthorizedError('Account tokens cannot open streaming connections');
    return principal;
  }
}
