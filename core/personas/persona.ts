import type { SafetySettings } from '../ports/store.js';

export const Verticals = [
  'education',
  'support',
  'sales',
  'healthcare',
  'hospitality',
  'entertainment',
] as const;
export type Vertical = (typeof Verticals)[number];

/** A role an avatar can play: its instructions, its opening line and how it comes across. */
export interface Persona {
  id: string;
  name: string;
  vertical: Vertical;
  description: string;
  systemPrompt: string;
  greeting: string;
  traits: readonly string[];
  suggestedAvatarId: string;
  /** The safety settings conversations with this persona start from (the service defaults when absent). */
  safety?: SafetySettings;
}
