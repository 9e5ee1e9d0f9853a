import type { Owner, SafetySettings } from '../ports/store.js';

/**
 * Animation names the widget implements. An avatar's `animations` picks one per state; the widget
 * falls back to the first of each list for a name it does not know.
 */
export const AvatarAnimations = {
  idle: ['idle_breathing', 'idle_sway'],
  talking: ['talking_gestures', 'talking_calm'],
  thinking: ['thinking_chin', 'thinking_look_up'],
} as const;

export type IdleAnimation = (typeof AvatarAnimations.idle)[number];
export type TalkingAnimation = (typeof AvatarAnimations.talking)[number];
export type ThinkingAnimation = (typeof AvatarAnimations.thinking)[number];

export interface Avatar {
  /** `<name>-<three digits>`, lower case, e.g. `luna-001`. */
  id: string;
  name: string;
  description: string;
  tags: readonly string[];
  /** `<locale>-Neural2-<letter>`. */
  defaultVoice: string;
  alternativeVoices: readonly string[];
  animations: { idle: IdleAnimation; talking: TalkingAnimation; thinking: ThinkingAnimation };
  traits: { personality: string; speakingStyle: string };
  /** Presets ship with the service and are read-only. */
  preset: boolean;
  /** The safety settings conversations with this avatar start from (custom avatars may set them). */
  safety?: SafetySettings;
}

/**
 * An avatar an owner uploaded (docs/api.md, Custom avatars): visible to that owner only, its
 * model and preview in the blob store under keys that change with every upload.
 */
export interface CustomAvatar extends Avatar {
  preset: false;
  owner: Owner;
  model: { key: string; bytes: number; vrmVersion: '1.0' | '0.x' };
  /** Blob key of the PNG preview; null when none was uploaded. */
  previewKey: string | null;
  createdAt: number;
  updatedAt: number;
}

export function isCustomAvatar(avatar: Avatar): avatar is CustomAvatar {
  return !avatar.preset;
}
