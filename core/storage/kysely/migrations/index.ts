import type { Migration, MigrationProvider } from 'kysely';
import { initial } from './0001-initial.js';
import { usage } from './0002-usage.js';
import { messageOrder } from './0003-message-order.js';
import { webhooks } from './0004-webhooks.js';
import { safety } from './0005-safety.js';
import { customAvatars } from './0006-custom-avatars.js';
import { conversationList } from './0007-conversation-list.js';

/** Versioned migrations, applied in name order. Never edit a shipped one: add the next. */
const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-usage': usage,
  '0003-message-order': messageOrder,
  '0004-webhooks': webhooks,
  '0005-safety': safety,
  '0006-custom-avatars': customAvatars,
  '0007-conversation-list': conversationList,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
