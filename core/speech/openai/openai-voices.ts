import { ValidationError } from '../../errors.js';
import type { Voice } from '../speech-provider.js';
import { avatarVoices, findAvatarVoice } from '../avatar-voices.js';

/** One of OpenAI's built-in speech voices. */
export interface OpenAIVoice {
  id: string;
  gender: 'female' | 'male' | 'neutral';
  /** Only the gpt-4o-mini-tts models speak it (not tts-1 / tts-1-hd). */
  gpt4oOnly: boolean;
}

/**
 * The built-in voices of `/v1/audio/speech`. OpenAI publishes no genders; these are how the
 * voices are commonly described. All are multilingual with an American-English base.
 */
export const openAIVoiceList: readonly OpenAIVoice[] = Object.freeze([
  { id: 'alloy', gender: 'neutral', gpt4oOnly: false },
  { id: 'ash', gender: 'male', gpt4oOnly: false },
  { id: 'ballad', gender: 'male', gpt4oOnly: true },
  { id: 'coral', gender: 'female', gpt4oOnly: false },
  { id: 'echo', gender: 'male', gpt4oOnly: false },
  { id: 'fable', gender: 'male', gpt4oOnly: false },
  { id: 'onyx', gender: 'male', gpt4oOnly: false },
  { id: 'nova', gender: 'female', gpt4oOnly: false },
  { id: 'sage', gender: 'female', gpt4oOnly: false },
  { id: 'shimmer', gender: 'female', gpt4oOnly: false },
  { id: 'verse', gender: 'male', gpt4oOnly: true },
].map((voice) => Object.freeze(voice as OpenAIVoice)));

/** Preference order per gender: the most natural conversational voices first. */
const femaleOrder = ['coral', 'nova', 'shimmer', 'sage'];
const maleOrder = ['ash', 'onyx', 'echo', 'verse', 'ballad', 'fable'];
/** fable has the British-leaning delivery, so British male avatars start there. */
const britishMaleOrder = ['fable', 'ash', 'onyx', 'echo', 'verse', 'ballad'];

function isGpt4oModel(model: string): boolean {
  return !/^tts-1/.test(model);
}

/**
 * Maps an avatar voice `<locale>-Neural2-<letter>` to a built-in voice of the same gender; the
 * n-th letter of a gender in a locale gets the n-th voice of the preference order (so letters stay
 * distinct while voices last), skipping voices `model` cannot speak. OpenAI's own voice names are
 * used as they are. The locale needs no mapping: the voices speak the language of the text.
 */
export function resolveOpenAIVoice(voiceId: string, model: string): string {
  const usable = (id: string): boolean => isGpt4oModel(model) || !openAIVoiceList.find((v) => v.id === id)?.gpt4oOnly;
  const avatar = findAvatarVoice(voiceId);
  if (avatar) {
    const order = avatar.gender === 'female' ? femaleOrder : avatar.locale === 'en-GB' ? britishMaleOrder : maleOrder;
    const pool = order.filter(usable);
    return pool[avatar.rank % pool.length]!;
  }
  const own = openAIVoiceList.find((v) => v.id === voiceId);
  if (own && usable(own.id)) return own.id;
  const names = openAIVoiceList.filter((v) => usable(v.id)).map((v) => v.id);
  throw new ValidationError(
    'voice_id',
    `voice_id '${voiceId}' is not supported: OpenAI speech (${model}) takes an avatar voice such as en-US-Neural2-F or one of ${names.join(', ')}`,
  );
}

/** The built-in voices `model` speaks, as catalogue entries, provider `openai`. */
export function openAIVoices(model: string): Voice[] {
  return openAIVoiceList
    .filter((v) => isGpt4oModel(model) || !v.gpt4oOnly)
    .map((v) => ({ id: v.id, name: v.id[0]!.toUpperCase() + v.id.slice(1), locale: 'en-US', gender: v.gender, provider: 'openai' }));
}

/** Every avatar voice and the OpenAI voice it maps to, for showing the mapping. */
export function openAIVoiceMap(model: string): { voiceId: string; engineVoice: string }[] {
  return avatarVoices().map((v) => ({ voiceId: v.id, engineVoice: resolveOpenAIVoice(v.id, model) }));
}
