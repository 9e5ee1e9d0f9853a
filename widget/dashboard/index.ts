/**
 * The account dashboard served at `/dashboard` (server/routes/dashboard-routes.ts): one element,
 * `<avatar-dashboard api="/v1">`, and its areas. The `<avatar-chat>` element (with three.js) is
 * a chunk loaded only by the areas that show it (avatars, playground).
 */
import { AvatarDashboard } from './dashboard-app.js';
import { KeysArea } from './keys-area.js';
import { WebhooksArea } from './webhooks-area.js';
import { UsageArea } from './usage-area.js';
import { ConversationsArea } from './conversations-area.js';
import { AvatarsArea } from './avatars-area.js';
import { PlaygroundArea } from './playground-area.js';

const elements: [string, CustomElementConstructor][] = [
  ['avatar-dashboard', AvatarDashboard],
  ['dash-keys', KeysArea],
  ['dash-webhooks', WebhooksArea],
  ['dash-usage', UsageArea],
  ['dash-conversations', ConversationsArea],
  ['dash-avatars', AvatarsArea],
  ['dash-playground', PlaygroundArea],
];
for (const [name, element] of elements) if (!customElements.get(name)) customElements.define(name, element);
