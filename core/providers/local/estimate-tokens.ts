import type { ChatRequest } from '../chat-model.js';

/**
 * Token counts for the offline engine. It has no tokenizer, so these are ESTIMATES, not exact
 * counts: English text averages about 4 characters per token in the BPE vocabularies of common
 * vendor models (roughly 0.75 words per token). The estimate keeps `ai_tokens` usage meaningful and
 * comparable with vendor engines without claiming precision it does not have.
 */
export const CHARS_PER_TOKEN = 4;

/**
 * Per-message framing overhead, as chat formats wrap each message in role markers
 * (vendors document about 3–4 tokens per message).
 */
export const TOKENS_PER_MESSAGE = 4;

/** Estimated tokens of a piece of text: ceil(characters / 4); 0 for empty text. */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Estimated input tokens of a request: the system text plus every message with its framing. */
export function estimateInputTokens(request: Pick<ChatRequest, 'system' | 'messages'>): number {
  let total = request.system ? estimateTokens(request.system) + TOKENS_PER_MESSAGE : 0;
  for (const message of request.messages) total += estimateTokens(message.content) + TOKENS_PER_MESSAGE;
  return total;
}
