import type { DashboardApi } from './api.js';

/** Loads the `<avatar-chat>` element (with three.js) the first time an area shows one. */
export function loadWidget(): Promise<unknown> {
  return import('../index.js');
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
