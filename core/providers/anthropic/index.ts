/** The `anthropic` AI provider: Claude through the Messages API with its SSE event stream. */
export { createAnthropicProvider, ANTHROPIC_MODELS, ANTHROPIC_DEFAULT_BASE_URL } from './anthropic-provider.js';
export type { AnthropicProviderSettings } from './anthropic-provider.js';
export { AnthropicChatModel, ANTHROPIC_VERSION, ANTHROPIC_DEFAULT_MAX_TOKENS } from './anthropic-chat-model.js';
export { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';
export { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';
