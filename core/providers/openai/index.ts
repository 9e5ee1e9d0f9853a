/** The `openai` AI provider: Chat Completions over HTTP with streaming, usage and retries. */
export { createOpenAIProvider, OPENAI_MODELS, OPENAI_DEFAULT_BASE_URL } from './openai-provider.js';
export type { OpenAIProviderSettings } from './openai-provider.js';
export { OpenAIChatModel } from './openai-chat-model.js';
export type { OpenAIChatModelConfig } from './openai-chat-model.js';
export { convertToOpenAIMessages } from './convert-to-openai-messages.js';
export { mapOpenAIFinishReason } from './map-openai-finish-reason.js';
export { createOpenAIModeration } from './openai-moderation.js';
export type { OpenAIModerationSettings } from './openai-moderation.js';
