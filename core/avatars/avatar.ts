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
}
