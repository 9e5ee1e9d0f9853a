import { s } from '../schema/schema.js';

/** What a conversation id looks like, for path parameters and cursors. */
export const conversationIdRules = { pattern: /^(conv_[0-9a-z]{16,40}|[0-9a-f-]{36})$/, patternHint: 'be a conversation id (conv_… or, in the envelope style, a UUID)' };

/** What an avatar id looks like. */
export const avatarIdRules = { pattern: /^[a-z0-9-]{1,64}$/, patternHint: 'be an avatar id such as luna-001' };

/** Path parameters shared by several routes. */
export const conversationParams = s.object({ id: s.string(conversationIdRules) });

export const avatarParams = s.object({ id: s.string(avatarIdRules) });

/** A message id as a cursor (`msg_…`, or a UUID in the envelope style). */
export const messageId = (description: string) =>
  s.string({ pattern: /^(msg_[0-9a-z]{16,40}|[0-9a-f-]{36})$/, patternHint: 'be a message id (msg_… or, in the envelope style, a UUID)', description });
