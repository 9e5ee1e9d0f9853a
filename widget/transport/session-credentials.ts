import { WidgetError } from './transport.js';

/** A browser session token and what it grants. */
export interface SessionGrant {
  token: string;
  /** Epoch ms; undefined when unknown (a token given as an attribute). */
  expiresAt: number | undefined;
  /** The conversation the token is scoped to, when the issuer said so. */
  conversationId: string | undefined;
}

export interface SessionCredentialsOptions {
  /** API base URL ending in `/v1`. */
  server: string;
  /** A session token the host page already has. */
  token?: string | undefined;
  /** The host site's endpoint that returns `{token, expires_at?, conversation_id?}`. */
  sessionUrl?: string | undefined;
  /** Development only: an API key that mints sessions directly. */
  apiKey?: string | undefined;
  avatarId?: string | undefined;
  ttsProvider?: string | undefined;
  conversationId?: string | undefined;
  fetch?: typeof fetch;
  /** Clock (epoch ms), injected for tests. */
  now?: () => number;
}

/** Tokens this close to expiry are replaced before use. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * Where the widget's session token comes from, in order of preference: a `token` the page holds,
 * the host's `session-url` (the production path: the host backend trades its key for a session),
 * or a development `api-key`. Tokens are cached and fetched again when they expire or the server
 * refuses them (`refresh`).
 */
export class SessionCredentials {
  private readonly options: Readonly<SessionCredentialsOptions>;
  private readonly fetch: typeof fetch;
  private readonly now: () => number;
  private grant: Promise<SessionGrant> | undefined;
  private conversationId: string | undefined;

  constructor(options: SessionCredentialsOptions) {
    this.options = Object.freeze({ ...options });
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.now = options.now ?? Date.now;
    this.conversationId = options.conversationId;
    if (!options.token && !options.sessionUrl && !options.apiKey) {
      throw new WidgetError('invalid_request', '<avatar-chat> needs a token, session-url or api-key attribute');
    }
  }

  /** A valid grant: the cached one unless it is about to expire. */
  async current(): Promise<SessionGrant> {
    if (this.grant) {
      const grant = await this.grant.catch(() => undefined);
      if (grant && (grant.expiresAt === undefined || grant.expiresAt - EXPIRY_MARGIN_MS > this.now())) return grant;
    }
    return this.refresh();
  }

  /** Fetches a new grant (after expiry or a 401). */
  refresh(): Promise<SessionGrant> {
    const next = this.obtain();
    this.grant = next;
    return next.then((grant) => {
      if (grant.conversationId) this.conversationId = grant.conversationId;
      return grant;
    });
  }

  private async obtain(): Promise<SessionGrant> {
    const { token, sessionUrl, apiKey } = this.options;
    if (token) {
      if (this.grant) throw new WidgetError('unauthorized', 'The session token was refused or expired; give the element a new token');
      return { token, expiresAt: undefined, conversationId: this.conversationId };
    }
    if (sessionUrl) return this.fromHost(sessionUrl);
    return this.fromApiKey(apiKey!);
  }

  /**
   * POSTs `{avatar_id?, tts_provider?}` for a new conversation, and only `{conversation_id}` once
   * one exists (a refresh). Both are bodies `POST /v1/sessions` takes as they are, so a host
   * forwards them unchanged with its key (README, The widget); that route takes a conversation or
   * the choices of a new one, not both.
   */
  private async fromHost(url: string): Promise<SessionGrant> {
    const body: Record<string, string> = {};
    if (this.conversationId) body.conversation_id = this.conversationId;
    else {
      if (this.options.avatarId) body.avatar_id = this.options.avatarId;
      if (this.options.ttsProvider) body.tts_provider = this.options.ttsProvider;
    }
    const res = await this.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
    return toGrant(await readJson(res, 'session-url'));
  }

  /** Development: create the conversation with the key (so `tts-provider` applies), then a session for it. */
  private async fromApiKey(key: string): Promise<SessionGrant> {
    const api = (path: string, body: unknown) =>
      this.fetch(this.options.server + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((res) => readJson(res, path));
    if (!this.conversationId) {
      if (!this.options.avatarId) throw new WidgetError('invalid_request', 'avatar-id is required with api-key');
      const created = (await api('/conversations', {
        avatar_id: this.options.avatarId,
        ...(this.options.ttsProvider && { tts_provider: this.options.ttsProvider }),
      })) as { id?: unknown };
      this.conversationId = String(created.id);
    }
    return toGrant(await api('/sessions', { conversation_id: this.conversationId }));
  }
}

function toGrant(json: unknown): SessionGrant {
  const body = json as { token?: unknown; expires_at?: unknown; conversation_id?: unknown };
  if (typeof body.token !== 'string' || body.token === '') throw new WidgetError('unauthorized', 'The session endpoint returned no token');
  const expires = typeof body.expires_at === 'string' ? Date.parse(body.expires_at) : NaN;
  return {
    token: body.token,
    expiresAt: Number.isFinite(expires) ? expires : undefined,
    conversationId: typeof body.conversation_id === 'string' ? body.conversation_id : undefined,
  };
}

/** Reads a JSON body; a non-2xx answer becomes a WidgetError with the server's code. */
export async function readJson(res: Response, what: string): Promise<unknown> {
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    const error = (json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    throw new WidgetError(
      typeof error?.code === 'string' ? error.code.toLowerCase() : res.status === 401 ? 'unauthorized' : 'http_error',
      typeof error?.message === 'string' ? error.message : `${what}: HTTP ${res.status}`,
      res.status,
    );
  }
  return fromEnvelope(json);
}

/**
 * A server run with `API_STYLE=envelope` answers `{data, meta}` with camelCase names; the widget
 * reads the flat snake_case shape, so unwrap and rename.
 */
function fromEnvelope(json: unknown): unknown {
  if (typeof json !== 'object' || json === null || !('data' in json) || !('meta' in json)) return json;
  const snake = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(snake);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snake(v)]));
  };
  return snake((json as { data: unknown }).data);
}
