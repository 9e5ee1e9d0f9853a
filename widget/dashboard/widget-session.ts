import type { DashboardApi } from './api.js';

/**
 * Loads the `<avatar-chat>` element (with three.js) the first time an area shows one: the very
 * bundle the server serves to websites at `/widget/avatar-chat.js`, not a second copy of it in the
 * dashboard's own files (the URL is computed, so rollup leaves it out of the dashboard's build).
 */
export function loadWidget(): Promise<unknown> {
  const widget = new URL('../widget/avatar-chat.js', import.meta.url).href;
  return import(/* the server's widget bundle */ widget);
}

export interface WidgetSession {
  token: string;
  conversation_id: string;
  expires_at: string;
}

/** A session token for a new conversation of the chosen key (POST /v1/sessions). */
export function createSession(client: DashboardApi, body: Record<string, string>): Promise<WidgetSession> {
  return client.request<WidgetSession>('/sessions', { method: 'POST', auth: 'key', json: body });
}

/** The API base as an absolute URL, for `<avatar-chat server>` and embed snippets. */
export const apiUrl = (client: DashboardApi): string => new URL(client.base, location.href).href.replace(/\/$/, '');

/** Ends a conversation the dashboard started for a preview (idempotent; failures do not matter). */
export async function endConversation(client: DashboardApi, id: string | undefined): Promise<void> {
  if (id === undefined || !client.key) return;
  await client.request(`/conversations/${id}/end`, { method: 'POST', auth: 'key' }).catch(() => undefined);
}
