/**
 * avatar-service/widget: the `<avatar-chat>` web component. Importing this module defines the
 * element (once; a second copy on the page keeps the first definition).
 *
 * ```html
 * <script type="module" src="https://your-server/widget/avatar-chat.js"></script>
 * <avatar-chat server="https://your-server/v1" session-url="/api/avatar-session"></avatar-chat>
 * ```
 */
import { AvatarChat } from './avatar-chat.js';

export { AvatarChat };
export type { AvatarReadyDetail, AvatarStateDetail, AvatarMessageDetail, AvatarErrorDetail, AvatarSafetyDetail, AvatarStatusDetail } from './avatar-chat.js';
export type { AvatarDetail, AvatarSummary } from './transport/api-client.js';
export type { Transport, TransportKind, AvatarStateName } from './transport/transport.js';
export { WidgetError } from './transport/transport.js';

if (!customElements.get('avatar-chat')) customElements.define('avatar-chat', AvatarChat);
