import type { Clock } from '../clock.js';
import type { AccountRecord, Store } from '../ports/store.js';
import { ServiceError } from '../errors.js';
import type { ConnectionCounter, ConnectionLease } from './connection-counter.js';
import type { RateDecision, RateLimiter } from './rate-limiter.js';
import type { AccountLimits } from './tier-limits.js';
import { limitsOf } from './tier-limits.js';

export interface AccessLimitsDeps {
  store: Store;
  clock: Clock;
  rates: RateLimiter;
  connections: ConnectionCounter;
  /** Requests per minute of one anonymous client (public reads). */
  anonymousPerMinute: number;
}

const MINUTE = 60_000;
const ACCOUNT_CACHE_MS = 30_000;
/**
 * Password attempts: each one costs an scrypt hash (tens of milliseconds of CPU), and guessing is
 * the threat, so they are limited per e-mail (one account) and per client address (spraying).
 */
const LOGIN_WINDOW_MS = 15 * MINUTE;
const LOGINS_PER_EMAIL = 10;
const LOGINS_PER_ADDRESS = 30;

/**
 * The limits of docs/api.md, Limits: requests per minute per account (across its keys) or per client
 * address for anonymous reads, and concurrent connections per account.
 */
export class AccessLimits {
  readonly #deps: AccessLimitsDeps;
  /** Tier lookups are cached briefly so limiting adds no database read to most requests. */
  readonly #accounts = new Map<string, { at: number; limits: AccountLimits }>();

  constructor(deps: AccessLimitsDeps) {
    this.#deps = deps;
  }

  async limitsFor(accountId: string): Promise<AccountLimits> {
    const now = this.#deps.clock.now();
    const cached = this.#accounts.get(accountId);
    if (cached && now - cached.at < ACCOUNT_CACHE_MS) return cached.limits;
    const account: AccountRecord | undefined = await this.#deps.store.accounts.findById(accountId);
    const limits = account ? limitsOf(account) : { requestsPerMinute: 0, connections: 0 };
    if (this.#accounts.size > 10_000) this.#accounts.clear();
    this.#accounts.set(accountId, { at: now, limits });
    return limits;
  }

  /** Counts one request; the decision carries the numbers for `X-RateLimit-*` headers. */
  async request(subject: { accountId: string } | { address: string }): Promise<RateDecision> {
    if ('accountId' in subject) {
      const { requestsPerMinute } = await this.limitsFor(subject.accountId);
      return this.#deps.rates.consume(`acct:${subject.accountId}`, { limit: requestsPerMinute, windowMs: MINUTE });
    }
    return this.#deps.rates.consume(`ip:${subject.address}`, { limit: this.#deps.anonymousPerMinute, windowMs: MINUTE });
  }

  /** Counts one password attempt; over either limit it throws 429 `rate_limited` with the wait. */
  async loginAttempt(subject: { email: string; address: string }): Promise<void> {
    const rule = { windowMs: LOGIN_WINDOW_MS };
    const decisions = await Promise.all([
      this.#deps.rates.consume(`login-email:${subject.email.trim().toLowerCase()}`, { ...rule, limit: LOGINS_PER_EMAIL }),
      this.#deps.rates.consume(`login-ip:${subject.address}`, { ...rule, limit: LOGINS_PER_ADDRESS }),
    ]);
    const refused = decisions.filter((decision) => !decision.allowed);
    if (refused.length > 0) {
      const retryAfterS = Math.max(1, Math.ceil(Math.max(...refused.map((d) => d.resetMs)) / 1000));
      throw new ServiceError('rate_limited', `Too many sign-in attempts; try again in ${retryAfterS} s`, { retryAfterS });
    }
  }

  /** Holds a connection slot of the account, or throws 429 `too_many_connections`. */
  async openConnection(accountId: string): Promise<ConnectionLease> {
    const { connections } = await this.limitsFor(accountId);
    const lease = await this.#deps.connections.acquire(`conn:${accountId}`, connections);
    if (!lease) {
      throw new ServiceError('too_many_connections', `This account already has ${connections} open streaming connections, the most its tier allows`, {
        retryAfterS: 5,
      });
    }
    return lease;
  }

  openConnections(accountId: string): Promise<number> {
    return this.#deps.connections.count(`conn:${accountId}`);
  }
}
