import type { Character } from '../chat-model.js';
import { sanitizeSpokenText } from './spoken-text.js';

/** How the avatar comes across; picks the tone-specific phrasings of every reply. */
export const Tones = ['cheerful', 'calm', 'formal', 'playful', 'warm', 'neutral'] as const;
export type Tone = (typeof Tones)[number];

/** The domains the engine has specific help for; `general` when the persona names none. */
export const VerticalKeys = ['education', 'support', 'sales', 'healthcare', 'hospitality', 'entertainment', 'general'] as const;
export type VerticalKey = (typeof VerticalKeys)[number];

/**
 * The avatar as the offline engine plays it, distilled from {@link Character}: the engine cannot
 * follow prose instructions, so it reads the structured fields and keywords in them instead.
 */
export interface Voice {
  /** The avatar's name, or `undefined` for the neutral assistant voice. */
  readonly name: string | undefined;
  /** The role it plays, e.g. "math tutor"; from the persona name or the vertical. */
  readonly role: string | undefined;
  readonly vertical: VerticalKey;
  readonly tone: Tone;
  /** Short replies when the speaking style asks for brevity. */
  readonly concise: boolean;
  /** The persona's opening line, spoken on the first turn. */
  readonly greeting: string | undefined;
  /** The personality as a short spoken phrase ("patient and encouraging"), when it is short enough to say. */
  readonly traits: string | undefined;
}

const TONE_WORDS: Readonly<Record<Exclude<Tone, 'neutral'>, readonly string[]>> = {
  cheerful: ['cheerful', 'upbeat', 'enthusiastic', 'energetic', 'bubbly', 'excited', 'lively', 'positive', 'sunny', 'bright', 'encouraging', 'peppy'],
  calm: ['calm', 'patient', 'reassuring', 'gentle', 'soothing', 'composed', 'steady', 'measured', 'relaxed', 'serene', 'quiet'],
  formal: ['formal', 'professional', 'polite', 'courteous', 'precise', 'businesslike', 'efficient', 'respectful', 'concise', 'direct', 'crisp'],
  playful: ['playful', 'witty', 'humorous', 'funny', 'cheeky', 'quirky', 'silly', 'jokey', 'mischievous', 'irreverent', 'fun'],
  warm: ['warm', 'caring', 'empathetic', 'kind', 'compassionate', 'supportive', 'friendly', 'nurturing', 'thoughtful'],
};

const VERTICAL_WORDS: Readonly<Record<Exclude<VerticalKey, 'general'>, readonly string[]>> = {
  education: ['tutor', 'teacher', 'teach', 'lesson', 'learn', 'student', 'school', 'study', 'homework', 'math', 'language coach'],
  support: ['support', 'help desk', 'helpdesk', 'troubleshoot', 'technical', 'customer service', 'account', 'it desk'],
  sales: ['sales', 'shop', 'store', 'buy', 'pricing', 'advisor', 'retail', 'deal'],
  healthcare: ['health', 'nurse', 'clinic', 'wellness', 'medical', 'patient', 'care coordinator', 'pharmacy'],
  hospitality: ['hotel', 'concierge', 'restaurant', 'travel', 'guest', 'reception', 'booking', 'resort', 'host'],
  entertainment: ['game', 'story', 'storyteller', 'quiz', 'trivia', 'entertain', 'comedian', 'fun', 'adventure'],
};

function countMatches(text: string, words: readonly string[]): number {
  let count = 0;
  for (const word of words) if (new RegExp(`\\b${word}`).test(text)) count++;
  return count;
}

function best<K extends string>(text: string, table: Readonly<Record<K, readonly string[]>>): K | undefined {
  let winner: K | undefined;
  let top = 0;
  for (const key of Object.keys(table) as K[]) {
    const score = countMatches(text, table[key]);
    if (score > top) {
      top = score;
      winner = key;
    }
  }
  return winner;
}

function isVerticalKey(value: string): value is VerticalKey {
  return (VerticalKeys as readonly string[]).includes(value);
}

/** The neutral voice used when a request carries no character. */
export const NEUTRAL_VOICE: Voice = Object.freeze({
  name: undefined,
  role: undefined,
  vertical: 'general',
  tone: 'neutral',
  concise: false,
  greeting: undefined,
  traits: undefined,
});

/** "Patient, encouraging." → "patient, encouraging"; `undefined` for long or first-person text. */
function spokenTraits(personality: string): string | undefined {
  const clean = sanitizeSpokenText(personality).replace(/[.!?]+$/, '');
  const words = clean.split(' ').filter((w) => w.length > 0);
  if (words.length === 0 || words.length > 8 || /[.!?;:]/.test(clean)) return undefined;
  if (/\b(?:i|me|my|you|your|he|she|they|is|are|be|should|always|never)\b/i.test(clean)) return undefined;
  return clean.toLowerCase();
}

/**
 * Reads a {@link Voice} from a character. Tone comes from the personality and speaking style
 * (the speaking style weighs double: it is literally how the avatar talks); the vertical from the
 * persona, or from keywords in the descriptions when the persona names an unknown one.
 */
export function readVoice(character: Character | undefined): Voice {
  if (character === undefined) return NEUTRAL_VOICE;
  const persona = character.persona;
  const style = character.speakingStyle.toLowerCase();
  const traits = `${character.personality} ${style} ${style} ${character.description ?? ''} ${persona?.description ?? ''}`.toLowerCase();
  const declared = persona?.vertical.toLowerCase().trim() ?? '';
  const vertical: VerticalKey = isVerticalKey(declared)
    ? declared
    : (best(`${persona?.name ?? ''} ${persona?.description ?? ''} ${character.description ?? ''} ${character.personality}`.toLowerCase(), VERTICAL_WORDS) ?? 'general');
  const name = sanitizeSpokenText(character.name);
  const role = persona ? sanitizeSpokenText(persona.name) : undefined;
  const greeting = persona ? sanitizeSpokenText(persona.greeting) : undefined;
  return Object.freeze({
    name: name.length > 0 ? name : undefined,
    role: role !== undefined && role.length > 0 ? role : undefined,
    vertical,
    tone: best(traits, TONE_WORDS) ?? 'neutral',
    concise: /\b(?:concise|brief|short|terse|to the point|succinct|few words)\b/.test(style),
    greeting: greeting !== undefined && greeting.length > 0 ? greeting : undefined,
    traits: spokenTraits(character.personality),
  });
}
