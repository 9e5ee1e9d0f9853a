import type { CustomAvatar } from './avatar.js';
import { isoTime } from '../clock.js';

/** The `data` of the avatar webhook events (docs/webhooks.md, Events). */

/** What changed: the avatar was uploaded, its fields were edited, or its model file was replaced. */
export type AvatarChange = 'created' | 'updated' | 'model_replaced';

/** The avatar as receivers see it: its fields, never the keys of its files (they work as URLs). */
function summary(avatar: CustomAvatar) {
  return {
    id: avatar.id,
    name: avatar.name,
    description: avatar.description,
    tags: [...avatar.tags],
    defaultVoice: avatar.defaultVoice,
    animations: { ...avatar.animations },
    traits: { personality: avatar.traits.personality, speakingStyle: avatar.traits.speakingStyle },
    vrmVersion: avatar.model.vrmVersion,
    modelBytes: avatar.model.bytes,
    hasPreview: avatar.previewKey !== null,
    createdAt: isoTime(avatar.createdAt),
    updatedAt: isoTime(avatar.updatedAt),
  };
}

/** `fields`: for `updated`, the fields the change set (camelCase, as in `avatar`). */
export function avatarUpdated(avatar: CustomAvatar, change: AvatarChange, fields?: readonly string[]) {
  return { avatarId: avatar.id, change, ...(fields && { fields: [...fields] }), avatar: summary(avatar) };
}

/** `avatar`: the avatar as it was. */
export function avatarDeleted(avatar: CustomAvatar) {
  return { avatarId: avatar.id, avatar: summary(avatar) };
}
