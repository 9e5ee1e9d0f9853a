import type { WireConversation } from './transport.js';
import { WidgetError } from './transport.js';
import { readJson } from './session-credentials.js';
import type { SessionCredentials } from './session-credentials.js';

/** `GET /v1/avatars/:id` as the widget uses it. */
export interface AvatarDetail {
  id: string;
  name: string;
  description?: string;
  model_url: string;
  /** Null for a custom avatar uploaded without a preview. */
  preview_url: string | null;
  default_voice?: string;
  animations: { idle: string; talking: string; thinking: string };
}

/** `GET /v1/avatars` items. */
export interface AvatarSummary {
  id: string;
  name: string;
  description?: string;
  preview_url: string | null;
  model_url: string;
  default_voice?: string;
  tags?: string[];
}

/** A stored message of `GET /v1/conversations/:id`. */
export interface ConversationMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  audio_url?: string | null;
}

export interface ConversationDetail extends WireConversation {
  messages?: ConversationMessage[];
}

/**
 * The REST calls of the widget, authenticated with the session token. A 401 fetches a new token
 * once and retries, so an expired session heals without the page noticing.
 */
export class ApiClient {
  private readonly fetch: typeof fetch;

  constructor(
    private readonly server: string,
    private readonly credentials: SessionCredentials,
    fetchImpl?: typeof fetch,
  ) {
    this.fetch = fetchImpl ?? globalThis.fetch.bind(globalThis);
  }

  /** Performs a request and returns the raw response (callers that stream read it themselves). */
  async raw(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
    const attempt = async (token: string) =>
      this.fetch(this.server + path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: body !== undefined && (body as { stream?: boolean }).stream ? 'text/event-stream' : 'application/json',
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        ...(signal && { signal }),
      });
    let res = await attempt((await this.credentials.current()).token);
    if (res.status === 401) {
      await res.body?.cancel();
      res = await attempt((await this.credentials.refresh()).token);
    }
    return res;
  }

  async json<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    return (await readJson(await this.raw(method, path, body, signal), `${method} ${path}`)) as T;
  }

  getConversation(id: string, signal?: AbortSignal): Promise<ConversationDetail> {
    return this.json('GET', `/conversations/${encodeURIComponent(id)}`, undefined, signal);
  }

  getAvatar(id: string, signal?: AbortSignal): Promise<AvatarDetail> {
    return this.json('GET', `/avatars/${encodeURIComponent(id)}`, undefined, signal);
  }

  async listAvatars(signal?: AbortSignal): Promise<AvatarSummary[]> {
    return (await this.json<{ avatars: AvatarSummary[] }>('GET', '/avatars', undefined, signal)).avatars;
  }

  endConversation(id: string): Promise<ConversationDetail> {
    return this.json('POST', `/conversations/${encodeURIComponent(id)}/end`);
  }

  /** `POST …/messages {content, stream: true}`: the SSE response, checked for success. */
  async streamMessage(id: string, content: string, signal: AbortSignal): Promise<Response> {
    const res = await this.raw('POST', `/conversations/${encodeURIComponent(id)}/messages`, { content, stream: true }, signal);
    if (!res.ok) await readJson(res, 'send');
    if (!res.body) throw new WidgetError('network_error', 'The reply stream has no body');
    return res;
  }
}
