/**
 * The offline `local` AI engine: a rule-based conversational engine that needs no model download
 * and no network, so the product works out of the box. It is not an LLM and says so.
 */
export { createLocalProvider, LOCAL_MODELS, LOCAL_PROVIDER_DESCRIPTION } from './local-provider.js';
export type { LocalProviderSettings, Sleep } from './local-provider-settings.js';
export { LocalChatModel } from './local-chat-model.js';
export { composeLocalReply } from './compose-local-reply.js';
export { estimateTokens, estimateInputTokens, CHARS_PER_TOKEN, TOKENS_PER_MESSAGE } from './estimate-tokens.js';
