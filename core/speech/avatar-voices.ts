import { ValidationError } from '../errors.js';

/**
 * Avatar voices: the voices avatars and conversations name, in Google's Neural2 form
 * `<locale>-Neural2-<letter>` (`en-US-Neural2-F`). Every speech engine maps from this one table —
 * locale, the letter's gender, and the letter's rank among the locale's letters of that gender —
 * to a voice of its own, so `en-US-Neural2-F` is a woman's American voice on every engine and
 * letters stay distinct while an engine's voices last.
 */
export type VoiceGender = 'female' | 'male';

export interface AvatarVoice {
  /** `en-US-Neural2-F`. */
  id: string;
  locale: string;
  /** The locale in English, e.g. `English (US)`. */
  localeName: string;
  letter: string;
  gender: VoiceGender;
  /** Position among the locale's voices of the same gender, from 0 (letters in order). */
  rank: number;
}

interface LocaleEntry {
  name: string;
  /** Google's documented gender of each Neural2 letter of the locale. */
  letters: Readonly<Record<string, VoiceGender>>;
}

/**
 * Google's Neural2 letters and their genders. en-US and en-GB were checked against a published
 * copy of Google's voice list (en-US A/D/I/J male, C/E/F/G/H female; en-GB A/C/F/N female, B/D/O
 * male); the other locales follow Google's voice list as remembered and partly confirmed (fr-FR A
 * female, B/D male; de-DE B male; ja-JP B female).
 */
const locales: Readonly<Record<string, LocaleEntry>> = {
  'en-US': { name: 'English (US)', letters: { A: 'male', C: 'female', D: 'male', E: 'female', F: 'female', G: 'female', H: 'female', I: 'male', J: 'male' } },
  'en-GB': { name: 'English (UK)', letters: { A: 'female', B: 'male', C: 'female', D: 'male', F: 'female', N: 'female', O: 'male' } },
  'es-ES': { name: 'Spanish (Spain)', letters: { A: 'female', B: 'male', C: 'female', D: 'female', E: 'female', F: 'male' } },
  'fr-FR': { name: 'French (France)', letters: { A: 'female', B: 'male', C: 'female', D: 'male', E: 'female' } },
  'de-DE': { name: 'German (Germany)', letters: { A: 'female', B: 'male', C: 'female', D: 'male', F: 'female' } },
  'it-IT': { name: 'Italian (Italy)', letters: { A: 'female', C: 'male' } },
  'pt-BR': { name: 'Portuguese (Brazil)', letters: { A: 'female', B: 'male', C: 'female' } },
  'ja-JP': { name: 'Japanese (Japan)', letters: { B: 'female', C: 'male', D: 'male' } },
};

const NEURAL2 = /^([a-z]{2,3}-[A-Z]{2})-Neural2-([A-Z])$/;

/** `en-US-Neural2-F` → `{locale: 'en-US', letter: 'F'}`; null for any other shape (whether or not the voice exists). */
export function parseAvatarVoiceId(id: string): { locale: string; letter: string } | null {
  const match = NEURAL2.exec(id);
  return match ? { locale: match[1]!, letter: match[2]! } : null;
}

/** The locales that have avatar voices. */
export function avatarVoiceLocales(): string[] {
  return Object.keys(locales);
}

/** Every avatar voice, locale by locale, letters in order. */
export function avatarVoices(): AvatarVoice[] {
  return Object.keys(locales).flatMap((locale) => Object.keys(locales[locale]!.letters).sort().map((letter) => voiceOf(locale, letter)!));
}

/**
 * The avatar voice `id` names; undefined when it is not in the avatar voice form at all (an
 * engine's own voice id, say). An id in the form but naming no known voice is a
 * `ValidationError('voice_id')` that lists the locale's voices.
 */
export function findAvatarVoice(id: string): AvatarVoice | undefined {
  const parsed = parseAvatarVoiceId(id);
  if (!parsed) return undefined;
  const voice = voiceOf(parsed.locale, parsed.letter);
  if (voice) return voice;
  const entry = locales[parsed.locale];
  throw new ValidationError(
    'voice_id',
    entry
      ? `voice_id ${id} is not a known avatar voice; ${parsed.locale} has ${Object.keys(entry.letters).sort().map((l) => `${parsed.locale}-Neural2-${l}`).join(', ')}`
      : `voice_id ${id}: there are no avatar voices for locale ${parsed.locale}; locales: ${Object.keys(locales).join(', ')}`,
  );
}

function voiceOf(locale: string, letter: string): AvatarVoice | undefined {
  const entry = locales[locale];
  const gender = entry?.letters[letter];
  if (!entry || !gender) return undefined;
  const rank = Object.keys(entry.letters).sort().filter((l) => entry.letters[l] === gender).indexOf(letter);
  return { id: `${locale}-Neural2-${letter}`, locale, localeName: entry.name, letter, gender, rank };
}

/**
 * Remembers an engine's resolution of voice ids (at most 256 at a time), so the sentences of a
 * reply — and later conversations with the same voice — resolve a voice once. Failures are not
 * remembered: they throw every time.
 */
export function rememberVoices<T>(resolve: (voiceId: string) => T): (voiceId: string) => T {
  const known = new Map<string, T>();
  return (voiceId) => {
    let voice = known.get(voiceId);
    if (voice === undefined) {
      voice = resolve(voiceId);
      if (known.size >= 256) known.clear();
      known.set(voiceId, voice);
    }
    return voice;
  };
}
