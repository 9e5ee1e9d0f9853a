import { ValidationError } from '../../errors.js';
import { parseNeural2VoiceId, type Voice } from '../speech-provider.js';

/** An avatar voice resolved to the espeak-ng voice that speaks it. */
export interface LocalVoice {
  /** The id the caller passed. */
  id: string;
  locale: string;
  gender: 'female' | 'male';
  /** espeak-ng language (`en-us`, `fr`, …). */
  language: string;
  /** espeak-ng voice variant (`f3`, `m2`, …). */
  variant: string;
  /** What espeak-ng's `-v` receives and `SpeechResult.engineVoice` reports, e.g. `en-us+f3`. */
  engineVoice: string;
}

type Gender = LocalVoice['gender'];

interface LocaleEntry {
  name: string;
  language: string;
  /** Google's documented gender of each Neural2 letter of the locale. */
  letters: Readonly<Record<string, Gender>>;
}

/**
 * Locales the local engine speaks, with Google's Neural2 letters and their genders. en-US and en-GB
 * were checked against a published copy of Google's voice list (en-US A/D/I/J male, C/E/F/G/H
 * female; en-GB A/C/F/N female, B/D/O male); the other locales follow Google's voice list as
 * remembered and partly confirmed (fr-FR A female, B/D male; de-DE B male; ja-JP B female).
 */
const locales: Readonly<Record<string, LocaleEntry>> = {
  'en-US': { name: 'English (US)', language: 'en-us', letters: { A: 'male', C: 'female', D: 'male', E: 'female', F: 'female', G: 'female', H: 'female', I: 'male', J: 'male' } },
  'en-GB': { name: 'English (UK)', language: 'en-gb', letters: { A: 'female', B: 'male', C: 'female', D: 'male', F: 'female', N: 'female', O: 'male' } },
  'es-ES': { name: 'Spanish (Spain)', language: 'es', letters: { A: 'female', B: 'male', C: 'female', D: 'female', E: 'female', F: 'male' } },
  'fr-FR': { name: 'French (France)', language: 'fr', letters: { A: 'female', B: 'male', C: 'female', D: 'male', E: 'female' } },
  'de-DE': { name: 'German (Germany)', language: 'de', letters: { A: 'female', B: 'male', C: 'female', D: 'male', F: 'female' } },
  'it-IT': { name: 'Italian (Italy)', language: 'it', letters: { A: 'female', C: 'male' } },
  'pt-BR': { name: 'Portuguese (Brazil)', language: 'pt-br', letters: { A: 'female', B: 'male', C: 'female' } },
  'ja-JP': { name: 'Japanese (Japan)', language: 'ja', letters: { B: 'female', C: 'male', D: 'male' } },
};

/** espeak-ng's built-in variants: five female, eight male. */
const variantCount: Record<Gender, number> = { female: 5, male: 8 };

function variantOf(entry: LocaleEntry, letter: string): string {
  const gender = entry.letters[letter]!;
  // The n-th letter of a gender gets the n-th variant of that gender, so letters stay distinct.
  const rank = Object.keys(entry.letters).sort().filter((l) => entry.letters[l] === gender).indexOf(letter);
  return `${gender === 'female' ? 'f' : 'm'}${(rank % variantCount[gender]) + 1}`;
}

const supportedShapes =
  `voices of the form <locale>-Neural2-<letter> with locale one of ${Object.keys(locales).join(', ')} ` +
  `(see voices()), or an espeak-ng voice <language>+<variant> such as en-us+f3 (variants f1-f5, m1-m8)`;

/**
 * Maps an avatar voice id to an espeak-ng voice: the locale picks the language, the letter picks a
 * variant of Google's gender for that letter, distinct per letter within a locale
 * (`en-US-Neural2-F` → `en-us+f3`). Also accepts espeak-ng's own `<language>+<variant>` ids.
 * Throws `ValidationError('voice_id')` naming the supported shapes for anything else.
 */
export function resolveLocalVoice(voiceId: string): LocalVoice {
  const neural2 = parseNeural2VoiceId(voiceId);
  if (neural2) {
    const entry = locales[neural2.locale];
    if (!entry) {
      throw new ValidationError('voice_id', `voice_id ${voiceId}: the local speech engine has no voices for locale ${neural2.locale}; it supports ${supportedShapes}`);
    }
    const gender = entry.letters[neural2.letter];
    if (!gender) {
      throw new ValidationError(
        'voice_id',
        `voice_id ${voiceId} is not a known voice; ${neural2.locale} has letters ${Object.keys(entry.letters).join(', ')}`,
      );
    }
    const variant = variantOf(entry, neural2.letter);
    return { id: voiceId, locale: neural2.locale, gender, language: entry.language, variant, engineVoice: `${entry.language}+${variant}` };
  }

  const own = /^([a-z]{2,3}(?:-[a-z]{2})?)\+([fm])([1-8])$/.exec(voiceId);
  if (own) {
    const [, language, g, n] = own;
    const locale = Object.keys(locales).find((key) => locales[key]!.language === language);
    const gender: Gender = g === 'f' ? 'female' : 'male';
    if (locale && Number(n) <= variantCount[gender]) {
      return { id: voiceId, locale, gender, language: language!, variant: `${g}${n}`, engineVoice: voiceId };
    }
  }
  throw new ValidationError('voice_id', `voice_id '${voiceId}' is not supported: the local speech engine supports ${supportedShapes}`);
}

/** Every Neural2-form voice the local engine speaks, provider `local`. */
export function localVoices(): Voice[] {
  return Object.entries(locales).flatMap(([locale, entry]) =>
    Object.keys(entry.letters)
      .sort()
      .map((letter): Voice => {
        const id = `${locale}-Neural2-${letter}`;
        const voice = resolveLocalVoice(id);
        return { id, name: `${entry.name} ${letter} (espeak-ng ${voice.engineVoice})`, locale, gender: voice.gender, provider: 'local' };
      }),
  );
}
