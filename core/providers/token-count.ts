import type { ChatRequest, TokenUsage } from './chat-model.js';

/**
 * Token counts for when a vendor reports none: an aborted stream, an OpenAI-compatible server that
 * ignores `stream_options.include_usage`, an Ollama reply served from its prompt cache without
 * `prompt_eval_count`. These are ESTIMATES from a tokenizer-like count, not the vendor's
 * tokenizer: text is cut the way BPE pre-tokenizers cut it (letter runs, digit runs, punctuation
 * runs, whitespace) and each piece is charged what BPE vocabularies typically charge for it.
 * On English prose this lands within about ±15 % of cl100k / o200k counts, which is enough to keep
 * `ai_tokens` meaningful without shipping a vocabulary of several megabytes.
 */

/** Chat formats wrap each message in role markers; vendors document about 3–4 tokens per message. */
export const TOKENS_PER_MESSAGE = 4;
/** Tokens that prime the assistant's reply (OpenAI documents 3). */
export const TOKENS_PER_REPLY = 3;

const piecePattern = /\p{L}+|\p{N}+|[^\s\p{L}\p{N}]+|\s+/gu;
const ideographic = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const latin = /^[\p{Script=Latin}]+$/u;

/** Estimated tokens of `text` (see the module comment for what "estimated" means here). */
export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const match of text.matchAll(piecePattern)) {
    const piece = match[0];
    const first = piece.codePointAt(0)!;
    if (/\s/u.test(piece)) {
      // A single space merges into the next word's token; newlines and indentation cost one.
      if (piece !== ' ') tokens += 1;
    } else if (/\p{N}/u.test(piece)) {
      tokens += Math.ceil(piece.length / 3); // BPE vocabularies group digits by at most three
    } else if (/\p{L}/u.test(String.fromCodePoint(first))) {
      if (ideographic.test(piece)) tokens += [...piece].length;
      else if (latin.test(piece)) tokens += piece.length <= 8 ? 1 : Math.ceil(piece.length / 4.5);
      else tokens += Math.ceil([...piece].length / 2.5); // Cyrillic, Greek, Arabic, … split finer
    } else {
      tokens += Math.ceil([...piece].length / 2); // punctuation and symbols pair up at best
    }
  }
  return tokens;
}

/** Estimated input tokens of a request: the system text and every message with its framing. */
export function estimateInputTokens(request: Pick<ChatRequest, 'system' | 'messages'>): number {
  let total = TOKENS_PER_REPLY;
  if (request.system) total += estimateTokens(request.system) + TOKENS_PER_MESSAGE;
  for (const message of request.messages) total += estimateTokens(message.content) + TOKENS_PER_MESSAGE;
  return total;
}

/**
 * Usage from what the vendor reported, estimating each side it did not report: `reported.input`
 * / `reported.output` win when present; otherwise the request / the streamed text are counted.
 */
export function resolveUsage(
  request: Pick<ChatRequest, 'system' | 'messages'>,
  outputText: string,
  reported: { input?: number | undefined; output?: number | undefined } = {},
): TokenUsage {
  return {
    inputTokens: validCount(reported.input) ?? estimateInputTokens(request),
    outputTokens: validCount(reported.output) ?? estimateTokens(outputText),
  };
}

function validCount(value: number | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}
