export { createOpenAISpeechProvider, openAISpeechDefaultBaseUrl, type OpenAISpeechSettings } from './openai-speech-provider.js';
export { openAIVoiceList, openAIVoiceMap, openAIVoices, resolveOpenAIVoice, type OpenAIVoice } from './openai-voices.js';
export { parseOpenAISpeechError } from './openai-speech-error.js';
