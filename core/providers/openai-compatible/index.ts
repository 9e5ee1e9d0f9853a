/** OpenAI-compatible servers (Groq, vLLM, LM Studio, Together) registered under an operator-chosen id. */
export { createOpenAICompatibleProvider } from './openai-compatible-provider.js';
export type { OpenAICompatibleProviderSettings } from './openai-compatible-provider.js';
