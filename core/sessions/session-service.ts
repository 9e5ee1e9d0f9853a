import type { Clock } from '../clock.js';
import type { ConversationService, CreateConversationInput } from '../conversations/conversation-service.js';
import type { Owner, Store } from '../ports/store.js';
import { UnauthorizedError, ValidationError } from '../errors.js';
import { randomString } from '../ids.js';
import type { ApiKeyCache } from '../access/api-key-cache.js';
import { looksLikeSessionToken, signSessionToken, verifySessionToken } from './session-token.js';

export const SESSION_TTL_DEFAULT_S = 3600;
export const SESSION_TTL_MAX_S = 86_400;

/**
 * What a browser may choose about the conversation a session creates: its avatar (default
 * `luna-001`), persona and speech engine — no more, because a host forwards the widget's body as
 * it comes (README, The widget). The AI vendor and model, the system prompt and the safety
 * settings cost the host money or set its rules, so they stay with `conversations.create`.
 * `ConversationService.create` checks them, exactly as for `POST /v1/conversations`.
 */
export type SessionConversationChoices = Partial<Pick<CreateConversationInput, 'avatarId' | 'personaId' | 'ttsProvider'>>;

export interface CreateSessionInput extends SessionConversationChoices {
  /** An existing conversation; without it, a new one is created from the choices. */
  conversationId?: string;
  ttlS?: number;
}

/** Who mints a session: the API key (its id and allowed origins), or null when the server mints it itself (demo). */
export interface SessionMinter {
  keyId: string;
  allowedOrigins: readonly string[] | null;
}

export interface IssuedSession {
  token: string;
  expiresAt: number;
  conversationId: string;
}

/** A caller holding a session token: one conversation of one account, in one mode. */
export interface SessionPrincipal {
  type: 'session';
  owner: Owner;
  conversationId: string;
  expiresAt: number;
  allowedOrigins: readonly string[] | null;
  /** The API key that minted the session; a session dies with its key. */
  keyId: string | null;
}

/**
 * Browser session tokens (docs/api.md, Credentials): a host site's backend trades its API key for a token
 * scoped to one conversation, and gives that to the browser, so no secret key reaches a page.
 */
export class SessionService {
  readonly #conversations: ConversationService;
  readonly #store: Store;
  readonly #secret: string;
  readonly #clock: Clock;
  readonly #keyCache: ApiKeyCache | undefined;

  constructor(deps: { conversations: ConversationService; store: Store; secret: string; clock: Clock; keyCache?: ApiKeyCache }) {
    this.#keyCache = deps.keyCache;
    this.#conversations = deps.conversations;
    this.#store = deps.store;
    this.#secret = deps.secret;
    this.#clock = deps.clock;
  }

  async create(owner: Owner, input: CreateSessionInput, minter: SessionMinter | null = null): Promise<IssuedSession> {
    const ttlS = input.ttlS ?? SESSION_TTL_DEFAULT_S;
    if (!Number.isInteger(ttlS) || ttlS < 60 || ttlS > SESSION_TTL_MAX_S) {
      throw new ValidationError('ttl_s', `ttl_s must be an integer from 60 to ${SESSION_TTL_MAX_S}`);
    }
    const { avatarId, personaId, ttsProvider } = input;
    if (input.conversationId !== undefined && (avatarId !== undefined || personaId !== undefined || ttsProvider !== undefined)) {
      throw new ValidationError('conversation_id', 'Give conversation_id (an existing conversation) or avatar_id, persona_id and tts_provider (a new one), not both');
    }
    if (input.conversationId === '') throw new ValidationError('conversation_id', 'conversation_id must not be empty');
    const conversationId = input.conversationId !== undefined
      ? (await this.#conversations.get(owner, input.conversationId)).id
      : (
          await this.#conversations.create(owner, {
            avatarId: avatarId ?? 'luna-001',
            ...(personaId !== undefined && { personaId }),
            ...(ttsProvider !== undefined && { ttsProvider }),
          })
        ).id;
    const exp = Math.floor(this.#clock.now() / 1000) + ttlS;
    const token = signSessionToken(
      {
        a: owner.accountId,
        m: owner.mode,
        c: conversationId,
        e: exp,
        n: randomString(8),
        ...(minter?.allowedOrigins && { o: [...minter.allowedOrigins] }),
        ...(minter && { k: minter.keyId }),
      },
      this.#secret,
    );
    return { token, expiresAt: exp * 1000, conversationId };
  }

  /**
   * Resolves a session token; 401 when it is forged, malformed or expired, or when the API key
   * that minted it has been revoked since (one point read, or the principal cache: a revocation
   * through this process reaches sessions at once, one through another within the cache's time to live).
   */
  async authenticate(token: string): Promise<SessionPrincipal> {
    if (!looksLikeSessionToken(token)) throw new UnauthorizedError('Malformed session token');
    const claims = verifySessionToken(token, this.#secret, this.#clock.now());
    if (!claims) throw new UnauthorizedError('Invalid or expired session token');
    if (claims.k !== undefined) {
      let key = this.#keyCache?.byId(claims.k);
      if (!key) {
        key = await this.#store.apiKeys.findByIdAnyAccount(claims.k);
        if (key) this.#keyCache?.remember(key);
      }
      if (!key || key.revokedAt !== null) throw new UnauthorizedError('The API key that created this session token has been revoked');
    }
    return {
      type: 'session',
      owner: { accountId: claims.a, mode: claims.m },
      conversationId: claims.c,
      expiresAt: claims.e * 1000,
      allowedOrigins: claims.o ?? null,
      keyId: claims.k ?? null,
    };
  }
}
