import { ValidationError } from '../../errors.js';
import type { Voice } from '../speech-provider.js';
import { avatarVoices, findAvatarVoice } from '../avatar-voices.js';
import type { VoiceGender } from '../avatar-voices.js';

/** One of ElevenLabs' premade voices (the default voice library every account has). */
export interface ElevenLabsPremadeVoice {
  /** ElevenLabs' `voice_id`. */
  id: string;
  name: string;
  gender: 'female' | 'male' | 'neutral';
  /** The accent, as a locale: `en-US` American, `en-GB` British, `en-AU` Australian. */
  locale: string;
}

/**
 * The premade voices, from ElevenLabs' voice library (`GET /v1/voices`, category `premade`). All
 * speak every language of the multilingual models with their own accent.
 */
export const elevenLabsPremadeVoices: readonly ElevenLabsPremadeVoice[] = Object.freeze([
  { id: 'EXAVITQu4vr4xnSDxMaL', name: 'Sarah', gender: 'female', locale: 'en-US' },
  { id: 'FGY2WhTYpPnrIDTdsKH5', name: 'Laura', gender: 'female', locale: 'en-US' },
  { id: 'cgSgspJ2msm6clMCkdW9', name: 'Jessica', gender: 'female', locale: 'en-US' },
  { id: 'XrExE9yKIg1WjnnlVkGX', name: 'Matilda', gender: 'female', locale: 'en-US' },
  { id: '9BWtsMINqrJLrRacOk9x', name: 'Aria', gender: 'female', locale: 'en-US' },
  { id: 'Xb7hH8MSUJpSbSDYk0k2', name: 'Alice', gender: 'female', locale: 'en-GB' },
  { id: 'pFZP5JQG7iQjIQuC4Bku', name: 'Lily', gender: 'female', locale: 'en-GB' },
  { id: 'CwhRBWXzGAHq8TQ4Fs17', name: 'Roger', gender: 'male', locale: 'en-US' },
  { id: 'TX3LPaxmHKxFdv7VOQHJ', name: 'Liam', gender: 'male', locale: 'en-US' },
  { id: 'nPczCjzI2devNBz1zQrb', name: 'Brian', gender: 'male', locale: 'en-US' },
  { id: 'iP95p4xoKVk53GoZ742B', name: 'Chris', gender: 'male', locale: 'en-US' },
  { id: 'cjVigY5qzO86Huf0OWal', name: 'Eric', gender: 'male', locale: 'en-US' },
  { id: 'bIHbv24MWmeRgasZH58o', name: 'Will', gender: 'male', locale: 'en-US' },
  { id: 'pqHfZKP75CvOlQylNhV4', name: 'Bill', gender: 'male', locale: 'en-US' },
  { id: 'N2lVS1w4EtoT3dr4eOWO', name: 'Callum', gender: 'male', locale: 'en-US' },
  { id: 'JBFqnCBsd6RMkjVDRZzb', name: 'George', gender: 'male', locale: 'en-GB' },
  { id: 'onwK4e9ZLuTAKqWW03F9', name: 'Daniel', gender: 'male', locale: 'en-GB' },
  { id: 'IKne3meq5aSn9XLyUdCD', name: 'Charlie', gender: 'male', locale: 'en-AU' },
  { id: 'SAz9YHcvj6GT2YYXdXww', name: 'River', gender: 'neutral', locale: 'en-US' },
].map((voice) => Object.freeze(voice as ElevenLabsPremadeVoice)));

/** An avatar or ElevenLabs voice resolved to the `voice_id` sent to ElevenLabs. */
export interface ElevenLabsVoiceChoice {
  voiceId: string;
  /** `Sarah (EXAVITQu4vr4xnSDxMaL)` for premade voices, the bare id for others. */
  engineVoice: string;
}

/** Voice ids are 20 base62 characters; custom and cloned voices of the account pass through. */
const voiceIdShape = /^[A-Za-z0-9]{20}$/;

/**
 * The voices an avatar locale draws from, best first: the voices with that accent (British for
 * en-GB), then the American ones, which the multilingual model makes speak any language. Voices
 * of other accents (Charlie, Australian) are left to explicit requests.
 */
function poolOf(locale: string, gender: VoiceGender): ElevenLabsPremadeVoice[] {
  const same = elevenLabsPremadeVoices.filter((v) => v.gender === gender);
  const accent = locale === 'en-US' ? [] : same.filter((v) => v.locale === locale);
  return [...accent, ...same.filter((v) => v.locale === 'en-US')];
}

/**
 * Maps an avatar voice `<locale>-Neural2-<letter>` to the premade voice of the same gender and,
 * where one exists, the same accent; the n-th letter of a gender in a locale gets the n-th voice of
 * that pool, so letters stay distinct (`en-US-Neural2-F` → Jessica, `en-GB-Neural2-B` → George).
 * ElevenLabs voice ids (premade or the account's own) are used as they are.
 */
export function resolveElevenLabsVoice(voiceId: string): ElevenLabsVoiceChoice {
  const avatar = findAvatarVoice(voiceId);
  if (avatar) {
    const pool = poolOf(avatar.locale, avatar.gender);
    const chosen = pool[avatar.rank % pool.length]!;
    return { voiceId: chosen.id, engineVoice: `${chosen.name} (${chosen.id})` };
  }
  if (voiceIdShape.test(voiceId)) {
    const premade = elevenLabsPremadeVoices.find((v) => v.id === voiceId);
    return { voiceId, engineVoice: premade ? `${premade.name} (${premade.id})` : voiceId };
  }
  throw new ValidationError(
    'voice_id',
    `voice_id '${voiceId}' is not supported: ElevenLabs takes an avatar voice such as en-US-Neural2-F or an ElevenLabs voice id (20 letters and digits)`,
  );
}

/** The premade voices as catalogue entries, provider `elevenlabs`. */
export function elevenLabsVoices(): Voice[] {
  return elevenLabsPremadeVoices.map((v) => ({ id: v.id, name: v.name, locale: v.locale, gender: v.gender, provider: 'elevenlabs' }));
}

/** Every avatar voice and the ElevenLabs voice it maps to, for showing the mapping. */
export function elevenLabsVoiceMap(): { voiceId: string; engineVoice: string }[] {
  return avatarVoices().map((v) => ({ voiceId: v.id, engineVoice: resolveElevenLabsVoice(v.id).engineVoice }));
}
