import type { AnimationFactory } from './avatar-animation.js';
import { createIdleBreathing } from './idle-breathing.js';
import { createIdleSway } from './idle-sway.js';
import { createTalkingCalm } from './talking-calm.js';
import { createTalkingGestures } from './talking-gestures.js';
import { createThinkingChin } from './thinking-chin.js';
import { createThinkingLookUp } from './thinking-look-up.js';

/** Animation states of the avatar. */
export const AnimationStates = ['idle', 'thinking', 'talking'] as const;
export type AnimationState = (typeof AnimationStates)[number];

/**
 * The animations the widget implements, per state; the first of each is the fallback for a name
 * it does not know. Mirrors the names avatars declare (`AvatarAnimations` in core).
 */
export const AnimationRegistry = {
  idle: { idle_breathing: createIdleBreathing, idle_sway: createIdleSway },
  talking: { talking_gestures: createTalkingGestures, talking_calm: createTalkingCalm },
  thinking: { thinking_chin: createThinkingChin, thinking_look_up: createThinkingLookUp },
} as const satisfies Record<AnimationState, Record<string, AnimationFactory>>;

export type AnimationNames = { [S in AnimationState]: string };

export const DefaultAnimations = {
  idle: 'idle_breathing',
  talking: 'talking_gestures',
  thinking: 'thinking_chin',
} as const satisfies AnimationNames;

/** The factory for `name` in `state`, or the state's default when the name is unknown. */
export function resolveAnimation(state: AnimationState, name: string): AnimationFactory {
  const table: Record<string, AnimationFactory> = AnimationRegistry[state];
  return table[name] ?? table[DefaultAnimations[state]]!;
}
