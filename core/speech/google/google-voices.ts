import { ValidationError } from '../../errors.js';
import { avatarVoices } from '../avatar-voices.js';
import type { Voice } from '../speech-provider.js';

/** What Google's `voice` selection receives for one request. */
export interface GoogleVoiceSelection {
  /** Google's voice name, e.g. `en-US-Neural2-F`; also `SpeechResult.engineVoice`. */
  name: string;
  /** BCP-47 code Google requires next to the name, taken from the name's first two parts. */
  languageCode: string;
}

/** Google voice names: `<language>-<REGION>-<family>-<variant>` (`en-US-Neural2-F`, `en-US-Chirp3-HD-Aoede`). */
const googleVoiceName = /^([a-z]{2,3}-[A-Z]{2})-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+$/;

/**
 * Avatar voices are Google's own Neural2 names, so the mapping is the identity:
 * `en-US-Neural2-F` → `{ name: 'en-US-Neural2-F', languageCode: 'en-US' }`. Any other Google voice
 * name (WaveNet, Studio, Chirp 3 HD) passes through too; Google answers 400 for names it does not
 * know, and that message reaches the caller. Anything not shaped like a voice name is a
 * `ValidationError('voice_id')`.
 */
export function resolveGoogleVoice(voiceId: string): GoogleVoiceSelection {
  const match = googleVoiceName.exec(voiceId);
  if (!match) {
    throw new ValidationError(
      'voice_id',
      `voice_id '${voiceId}' is not supported: Google Text-to-Speech takes voice names <locale>-<family>-<variant> such as en-US-Neural2-F (see the voice list)`,
    );
  }
  return { name: voiceId, languageCode: match[1]! };
}

/**
 * The Neural2 voices avatars use, as Google lists them (the avatar voice table is Google's own
 * naming), named in English by `Intl.DisplayNames`.
 */
export function googleVoices(): Voice[] {
  const languages = new Intl.DisplayNames(['en'], { type: 'language' });
  return avatarVoices().map((voice) => {
    const family = voice.id.slice(voice.locale.length + 1);
    return {
      id: voice.id,
      name: `${languages.of(voice.locale) ?? voice.locale} ${family} (${voice.gender})`,
      locale: voice.locale,
      gender: voice.gender,
      provider: 'google',
    };
  });
}

/** Every avatar voice and the Google voice it maps to (itself), for showing the mapping. */
export function googleVoiceMap(): { voiceId: string; engineVoice: string }[] {
  return avatarVoices().map((v) => ({ voiceId: v.id, engineVoice: resolveGoogleVoice(v.id).name }));
}
