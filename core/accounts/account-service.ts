import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { AccountRecord, ApiKeyRecord, KeyMode, Store, Tier } from '../ports/store.js';
import { NotFoundError, ServiceError, UnauthorizedError, ValidationError } from '../errors.js';
import { digestsEqual, generateApiKey, hashApiKey, looksLikeApiKey, modeOfApiKey } from './api-key-secret.js';
import { algorithmOf, signJwt, verifyJwt } from './jwt.js';
import type { ExternalTokenVerifier } from './jwt.js';
import { hashPassword, verifyPassword } from './password.js';
import type { Principal } from './principal.js';

export const Tiers = ['free', 'creator', 'pro', 'enterprise'] as const satisfies readonly Tier[];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const TOKEN_TTL_S = 3600;
/** `last_used_at` is refreshed at most this often, so authentication stays a read. */
const TOUCH_INTERVAL_MS = 60_000;

export interface AccountServiceDeps {
  store: Store;
  /** Also accept tokens of an external identity provider (asymmetric algorithms, its key set). */
  externalTokens?: ExternalTokenVerifier;
  clock: Clock;
  ids: IdGenerator;
  jwtSecret: string;
}

export interface CreateAccountInput {
  email: string;
  password: string;
  tier?: Tier;
}

export interface IssuedToken {
  token: string;
  expiresAt: number;
}

/** Accounts, their API keys and account tokens (JWT). */
export class AccountService {
  readonly #deps: AccountServiceDeps;
  readonly #revocationListeners = new Set<(key: ApiKeyRecord) => void>();

  constructor(deps: AccountServiceDeps) {
    this.#deps = deps;
  }

  async createAccount(input: CreateAccountInput): Promise<AccountRecord> {
    const email = input.email.trim().toLowerCase();
    if (!EMAIL.test(email)) throw new ValidationError('email', 'email must be an e-mail address');
    if (input.password.length < 8) throw new ValidationError('password', 'password must be at least 8 characters');
    const tier = input.tier ?? 'free';
    if (!Tiers.includes(tier)) throw new ValidationError('tier', `tier must be one of ${Tiers.join(', ')}`);
    const { store, clock, ids } = this.#deps;
    if (await store.accounts.findByEmail(email)) {
      throw new ValidationError('email', `an account with email ${email} already exists`);
    }
    const account: AccountRecord = {
      id: ids.next('acct'),
      email,
      passwordHash: await hashPassword(input.password),
      tier,
      rpmOverride: null,
      connectionsOverride: null,
      createdAt: clock.now(),
    };
    try {
      await store.accounts.create(account);
    } catch (error) {
      // Another sign-up with this e-mail won the race while the password was hashed.
      if (await store.accounts.findByEmail(email)) throw new ValidationError('email', `an account with email ${email} already exists`);
      throw error;
    }
    return account;
  }

  async findAccountByEmail(email: string): Promise<AccountRecord> {
    const account = await this.#deps.store.accounts.findByEmail(email.trim().toLowerCase());
    if (!account) throw new ServiceError('not_found', `No account with email ${email}`);
    return account;
  }

  async getAccount(id: string): Promise<AccountRecord> {
    const account = await this.#deps.store.accounts.findById(id);
    if (!account) throw new NotFoundError('account', id);
    return account;
  }

  /**
   * Changes an account's tier and, for enterprise agreements, its own limits (null: the tier's).
   * Takes effect within 30 s (limits are cached that long).
   */
  async setPlan(
    accountId: string,
    plan: { tier: Tier; requestsPerMinute?: number | null; connections?: number | null },
  ): Promise<AccountRecord> {
    if (!Tiers.includes(plan.tier)) throw new ValidationError('tier', `tier must be one of ${Tiers.join(', ')}`);
    for (const [field, value] of [['requests_per_minute', plan.requestsPerMinute], ['connections', plan.connections]] as const) {
      if (value !== undefined && value !== null && (!Number.isInteger(value) || value < 1)) {
        throw new ValidationError(field, `${field} must be a positive integer`);
      }
    }
    await this.getAccount(accountId);
    await this.#deps.store.accounts.update(accountId, {
      tier: plan.tier,
      ...(plan.requestsPerMinute !== undefined && { rpmOverride: plan.requestsPerMinute }),
      ...(plan.connections !== undefined && { connectionsOverride: plan.connections }),
    });
    return this.getAccount(accountId);
  }

  /** Creates a key; the value is returned once, only its hash and last 4 characters are kept. */
  async createApiKey(
    accountId: string,
    input: { name: string; mode: KeyMode; allowedOrigins?: readonly string[] },
  ): Promise<{ record: ApiKeyRecord; key: string }> {
    const name = input.name.trim();
    if (!name || name.length > 200) throw new ValidationError('name', 'name must be 1 to 200 characters');
    const allowedOrigins = input.allowedOrigins === undefined ? null : input.allowedOrigins.map(normalizeOrigin);
    await this.getAccount(accountId);
    const key = generateApiKey(input.mode);
    const record: ApiKeyRecord = {
      id: this.#deps.ids.next('key'),
      accountId,
      name,
      mode: input.mode,
      hash: hashApiKey(key),
      last4: key.slice(-4),
      allowedOrigins,
      createdAt: this.#deps.clock.now(),
      lastUsedAt: null,
      revokedAt: null,
    };
    await this.#deps.store.apiKeys.create(record);
    return { record, key };
  }

  /** A key by id across accounts, for operators (the CLI); API callers use the account-scoped methods. */
  async findApiKeyById(id: string): Promise<ApiKeyRecord> {
    const key = await this.#deps.store.apiKeys.findByIdAnyAccount(id);
    if (!key) throw new NotFoundError('API key', id);
    return key;
  }

  listApiKeys(accountId: string): Promise<ApiKeyRecord[]> {
    return this.#deps.store.apiKeys.listByAccount(accountId);
  }

  /** One page of the account's keys, oldest first, after the key `startingAfter` (a cursor). */
  async pageApiKeys(accountId: string, page: { limit: number; startingAfter?: string }): Promise<{ keys: ApiKeyRecord[]; hasMore: boolean }> {
    const keys = await this.#deps.store.apiKeys.listByAccount(accountId, {
      limit: page.limit + 1,
      ...(page.startingAfter !== undefined && { after: page.startingAfter }),
    });
    return { keys: keys.slice(0, page.limit), hasMore: keys.length > page.limit };
  }

  /**
   * Revokes a key of `accountId`; another account's key is "not found". Idempotent. Listeners
   * of {@link onKeyRevoked} hear of it at once, so open connections made with the key can end.
   */
  async revokeApiKey(accountId: string, keyId: string): Promise<ApiKeyRecord> {
    const { store, clock } = this.#deps;
    const key = await store.apiKeys.findById(accountId, keyId);
    if (!key) throw new NotFoundError('API key', keyId);
    if (key.revokedAt !== null) return key;
    await store.apiKeys.revoke(key.id, clock.now());
    const revoked = (await store.apiKeys.findById(accountId, keyId))!;
    for (const listener of this.#revocationListeners) listener(revoked);
    return revoked;
  }

  /** Observes key revocations made through this service (other processes learn of theirs from the store). */
  onKeyRevoked(listener: (key: ApiKeyRecord) => void): () => void {
    this.#revocationListeners.add(listener);
    return () => this.#revocationListeners.delete(listener);
  }

  /**
   * Resolves an API key value to its principal. The lookup is by SHA-256 digest (an attacker
   * cannot steer a digest's prefix, so index timing reveals nothing), and the digests are then
   * compared in constant time as a second line.
   */
  async authenticateApiKey(value: string): Promise<Principal & { type: 'api_key' }> {
    if (!looksLikeApiKey(value)) throw new UnauthorizedError('Malformed API key: expected svc_live_… or svc_test_…');
    const hash = hashApiKey(value);
    const { store, clock } = this.#deps;
    const key = await store.apiKeys.findByHash(hash);
    if (!key || !digestsEqual(key.hash, hash) || key.mode !== modeOfApiKey(value)) {
      throw new UnauthorizedError('Unknown API key');
    }
    if (key.revokedAt !== null) throw new UnauthorizedError('This API key has been revoked');
    const now = clock.now();
    if (key.lastUsedAt === null || now - key.lastUsedAt > TOUCH_INTERVAL_MS) await store.apiKeys.touch(key.id, now);
    return { type: 'api_key', owner: { accountId: key.accountId, mode: key.mode }, keyId: key.id, allowedOrigins: key.allowedOrigins };
  }

  /** Email + password → a one-hour account token. Wrong email and wrong password look alike. */
  async login(email: string, password: string): Promise<IssuedToken> {
    const account = await this.#deps.store.accounts.findByEmail(email.trim().toLowerCase());
    const ok = account ? await verifyPassword(password, account.passwordHash) : false;
    if (!account || !ok) throw new UnauthorizedError('Email or password is incorrect');
    return this.issueToken(account.id);
  }

  /** Self-service sign-up: a free account (the CLI's rules) and its first account token. */
  async signUp(email: string, password: string): Promise<IssuedToken> {
    const account = await this.createAccount({ email, password });
    return this.issueToken(account.id);
  }

  /** A one-hour account token (HS256, the service's own secret). */
  async issueToken(accountId: string): Promise<IssuedToken> {
    const iat = Math.floor(this.#deps.clock.now() / 1000);
    const exp = iat + TOKEN_TTL_S;
    return { token: await signJwt({ sub: accountId, iat, exp }, this.#deps.jwtSecret), expiresAt: exp * 1000 };
  }

  /**
   * An account token to its account: HS256 tokens are the service's own (subject: the account id);
   * with an identity provider configured, tokens of its public-key algorithms are checked against
   * its key set and name an existing account by e-mail (accounts are not created for them).
   */
  async authenticateToken(token: string): Promise<Principal & { type: 'account' }> {
    const { store, clock, jwtSecret, externalTokens } = this.#deps;
    const alg = algorithmOf(token);
    if (alg === 'HS256') {
      const accountId = await verifyJwt(token, jwtSecret, clock.now());
      if (!(await store.accounts.findById(accountId))) throw new UnauthorizedError('The account of this token no longer exists');
      return { type: 'account', accountId };
    }
    if (alg.toLowerCase() === 'none') throw new UnauthorizedError('Unsigned tokens (alg: none) are not accepted');
    if (!externalTokens) throw new UnauthorizedError(`Tokens signed with ${alg} are not accepted: account tokens come from POST /v1/auth/login`);
    const email = await externalTokens(token, clock.now());
    const account = await store.accounts.findByEmail(email.trim().toLowerCase());
    if (!account) throw new UnauthorizedError(`No account has the e-mail address ${email}; an operator creates it with \`avatar-service account create\``);
    return { type: 'account', accountId: account.id };
  }
}

/** `https://Example.com/` → `https://example.com`; anything but an http(s) origin is refused. */
export function normalizeOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ValidationError('allowed_origins', `allowed_origins: '${value}' is not an origin like https://example.com`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname !== '/' || url.search || url.hash || url.username) {
    throw new ValidationError('allowed_origins', `allowed_origins: '${value}' is not an origin like https://example.com`);
  }
  return url.origin;
}
