export { createElevenLabsSpeechProvider, elevenLabsSpeechDefaultBaseUrl, type ElevenLabsSpeechSettings } from './elevenlabs-speech-provider.js';
export {
  elevenLabsPremadeVoices,
  elevenLabsVoiceMap,
  elevenLabsVoices,
  resolveElevenLabsVoice,
  type ElevenLabsPremadeVoice,
  type ElevenLabsVoiceChoice,
} from './elevenlabs-voices.js';
export { visemesFromAlignment, type CharacterAlignment } from './alignment-visemes.js';
export { parseElevenLabsSpeechError } from './elevenlabs-speech-error.js';
