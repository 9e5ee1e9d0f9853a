export { createGoogleSpeechProvider, googleSpeechDefaultBaseUrl, type GoogleSpeechSettings } from './google-speech-provider.js';
export { googleVoiceMap, googleVoices, resolveGoogleVoice, type GoogleVoiceSelection } from './google-voices.js';
export { parseGoogleSpeechError } from './google-speech-error.js';
