/** The `ollama` AI provider: any model an Ollama server runs, through `/api/chat` NDJSON streaming. */
export { createOllamaProvider, OLLAMA_MODELS, OLLAMA_DEFAULT_BASE_URL, OLLAMA_DEFAULT_TIMEOUTS } from './ollama-provider.js';
export type { OllamaProviderSettings } from './ollama-provider.js';
export { OllamaChatModel } from './ollama-chat-model.js';
export { convertToOllamaMessages } from './convert-to-ollama-messages.js';
export { mapOllamaFinishReason } from './map-ollama-finish-reason.js';
