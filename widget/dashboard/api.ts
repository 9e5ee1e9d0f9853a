/**
 * The dashboard's HTTP client. It holds two credentials, in memory only (a reload signs out):
 * the account token (JWT from `POST /v1/auth/login`) for the account routes — keys, the
 * conversation list, daily usage — and, for the routes that act in one key's mode (webhooks,
 * avatars, transcripts, the playground), the API key the account holder chose for this session.
 */

export interface ApiErrorBody {
  error?: { code?: string; message?: string };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Credential = 'account' | 'key' | 'none';

export interface RequestOptions {
  method?: string;
  json?: unknown;
  form?: FormData;
  auth?: Credential;
}

export class DashboardApi extends EventTarget {
  token: string | undefined;
  expiresAt: number | undefined;
  /** The API key used for the areas that act in a key's mode (`svc_test_…` or `svc_live_…`). */
  key: string | undefined;
  /** The id of the key the dashboard created for this sign-in, if any (sign-out revokes it). */
  keyId: string | undefined;

  constructor(readonly base: string) {
    super();
  }

  get signedIn(): boolean {
    return this.token !== undefined;
  }

  async request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const auth = options.auth ?? 'account';
    const headers: Record<string, string> = {};
    const credential = auth === 'account' ? this.token : auth === 'key' ? this.key : undefined;
    if (auth !== 'none' && credential === undefined) {
      throw new ApiError(401, auth === 'key' ? 'no_key' : 'signed_out', auth === 'key' ? 'Choose an API key for this area first.' : 'Sign in first.');
    }
    if (credential !== undefined) headers.authorization = `Bearer ${credential}`;
    let body: BodyInit | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      body = options.form;
    }
    const response = await fetch(this.base + path, { method: options.method ?? 'GET', headers, ...(body !== undefined && { body }) });
    const text = await response.text();
    const data = text ? (JSON.parse(text) as unknown) : undefined;
    if (!response.ok) {
      const error = (data as ApiErrorBody | undefined)?.error;
      const failure = new ApiError(response.status, error?.code ?? 'http_error', error?.message ?? `${response.status} ${response.statusText}`);
      // An account token that the server no longer takes: expired (or the secret changed).
      if (response.status === 401 && auth === 'account') this.expire();
      throw failure;
    }
    return data as T;
  }

  async login(email: string, password: string): Promise<void> {
    const result = await this.request<{ token: string; expires_at?: string }>('/auth/login', { method: 'POST', json: { email, password }, auth: 'none' });
    this.adopt(result);
  }

  async signup(email: string, password: string, name: string | undefined): Promise<void> {
    const result = await this.request<{ token: string; expires_at?: string }>('/auth/signup', {
      method: 'POST',
      json: { email, password, ...(name ? { name } : {}) },
      auth: 'none',
    });
    this.adopt(result);
  }

  private adopt(result: { token: string; expires_at?: string }): void {
    this.token = result.token;
    this.expiresAt = result.expires_at ? Date.parse(result.expires_at) : undefined;
    this.dispatchEvent(new Event('change'));
  }

  /** Forgets everything; revokes the key the dashboard created for this session, if any. */
  async signOut(): Promise<void> {
    if (this.keyId && this.token) await this.request(`/api-keys/${this.keyId}`, { method: 'DELETE' }).catch(() => undefined);
    this.clear();
    this.dispatchEvent(new Event('change'));
  }

  /** The token was refused: forget it and tell the app to ask for the password again. */
  expire(): void {
    if (this.token === undefined) return;
    this.clear();
    this.dispatchEvent(new Event('expired'));
  }

  private clear(): void {
    this.token = undefined;
    this.expiresAt = undefined;
    this.key = undefined;
    this.keyId = undefined;
  }

  /** Acts with `key` from now on ('' forgets it); `createdId`: the dashboard made it (revoked on sign-out). */
  useKey(key: string, createdId?: string): void {
    this.key = key || undefined;
    if (createdId !== undefined) this.keyId = createdId;
    this.dispatchEvent(new Event('change'));
  }
}

/** Shapes of the responses the dashboard reads (docs/api.md). */
export interface ApiKey {
  id: string;
  name: string;
  mode: 'live' | 'test';
  redacted: string;
  allowed_origins: string[] | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  status: string;
  status_reason: string | null;
  mode: string;
  created_at: string;
}

export interface Delivery {
  id: string;
  event_type: string;
  status: string;
  attempts: number;
  response_status: number | null;
  error: string | null;
  created_at: string;
  last_attempt_at: string | null;
  duration_ms: number | null;
  next_attempt_at: string | null;
}

export interface ConversationSummary {
  id: string;
  avatar_id: string;
  persona_id: string | null;
  mode: 'live' | 'test';
  status: string;
  created_at: string;
  ended_at: string | null;
  message_count: number;
  escalated: boolean;
}

export interface Message {
  id: string;
  role: string;
  content: string;
  audio_url?: string | null;
  audio_error?: string;
  created_at: string;
  safety: string[];
}

export interface Avatar {
  id: string;
  name: string;
  description: string;
  preview_url: string | null;
  default_voice: string;
  tags: string[];
  preset: boolean;
  traits?: { personality: string; speaking_style: string };
}

export interface Persona {
  id: string;
  name: string;
  vertical: string;
}

export const formatTime = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '—');
