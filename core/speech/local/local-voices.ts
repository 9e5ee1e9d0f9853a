import { ValidationError } from '../../errors.js';
import type { Voice } from '../speech-provider.js';
import { avatarVoices, findAvatarVoice } from '../avatar-voices.js';
import type { VoiceGender } from '../avatar-voices.js';

/** An avatar voice resolved to the espeak-ng voice that speaks it. */
export interface LocalVoice {
  /** The id the caller passed. */
  id: string;
  locale: string;
  gender: VoiceGender;
  /** espeak-ng language (`en-us`, `fr`, …). */
  language: string;
  /** espeak-ng voice variant (`f3`, `m2`, …). */
  variant: string;
  /** What espeak-ng's `-v` receives and `SpeechResult.engineVoice` reports, e.g. `en-us+f3`. */
  engineVoice: string;
}

/** The espeak-ng language of each avatar voice locale. */
const languages: Readonly<Record<string, string>> = {
  'en-US': 'en-us',
  'en-GB': 'en-gb',
  'es-ES': 'es',
  'fr-FR': 'fr',
  'de-DE': 'de',
  'it-IT': 'it',
  'pt-BR': 'pt-br',
  'ja-JP': 'ja',
};

/** espeak-ng's built-in variants: five female, eight male. */
const variantCount: Record<VoiceGender, number> = { female: 5, male: 8 };

const supportedShapes =
  `voices of the form <locale>-Neural2-<letter> with locale one of ${Object.keys(languages).join(', ')} ` +
  `(see voices()), or an espeak-ng voice <language>+<variant> such as en-us+f3 (variants f1-f5, m1-m8)`;

/**
 * Maps an avatar voice id to an espeak-ng voice: the locale picks the language, the letter picks a
 * variant of Google's gender for that letter, distinct per letter within a locale
 * (`en-US-Neural2-F` → `en-us+f3`). Also accepts espeak-ng's own `<language>+<variant>` ids.
 * Throws `ValidationError('voice_id')` naming the supported shapes for anything else.
 */
export function resolveLocalVoice(voiceId: string): LocalVoice {
  const avatar = findAvatarVoice(voiceId);
  if (avatar) {
    const language = languages[avatar.locale];
    if (!language) {
      throw new ValidationError('voice_id', `voice_id ${voiceId}: the local speech engine has no voices for locale ${avatar.locale}; it supports ${supportedShapes}`);
    }
    // The n-th letter of a gender gets the n-th variant of that gender, so letters stay distinct.
    const variant = `${avatar.gender === 'female' ? 'f' : 'm'}${(avatar.rank % variantCount[avatar.gender]) + 1}`;
    return { id: voiceId, locale: avatar.locale, gender: avatar.gender, language, variant, engineVoice: `${language}+${variant}` };
  }

  const own = /^([a-z]{2,3}(?:-[a-z]{2})?)\+([fm])([1-8])$/.exec(voiceId);
  if (own) {
    const [, language, g, n] = own;
    const locale = Object.keys(languages).find((key) => languages[key] === language);
    const gender: VoiceGender = g === 'f' ? 'female' : 'male';
    if (locale && Number(n) <= variantCount[gender]) {
      return { id: voiceId, locale, gender, language: language!, variant: `${g}${n}`, engineVoice: voiceId };
    }
  }
  throw new ValidationError('voice_id', `voice_id '${voiceId}' is not supported: the local speech engine supports ${supportedShapes}`);
}

/** Every avatar voice the local engine speaks, provider `local`. */
export function localVoices(): Voice[] {
  return avatarVoices()
    .filter((voice) => languages[voice.locale] !== undefined)
    .map((voice): Voice => ({
      id: voice.id,
      name: `${voice.localeName} ${voice.letter} (espeak-ng ${resolveLocalVoice(voice.id).engineVoice})`,
      locale: voice.locale,
      gender: voice.gender,
      provider: 'local',
    }));
}
