import { ValidationError } from './errors.js';

/** Request limits enforced in the core, so every host applies them (docs/api.md, Limits). */
export const Limits = {
  /** Characters (Unicode code points) of one user message. */
  contentMaxChars: 5000,
  /** Characters of a conversation's own system prompt. */
  systemPromptMaxChars: 2000,
  /** Earlier messages sent to the AI provider with each new one. */
  historyMessages: 40,
  /**
   * Characters of one assistant reply: a model (or a hostile OpenAI-compatible server) that never
   * stops is cut off here like at a token limit (finish reason `length`); the reply is kept.
   */
  replyMaxChars: 20_000,
} as const;

/** Throws a ValidationError naming `field` unless `value` has 1…max code points (or 0 when allowed). */
export function checkText(field: string, value: string, max: number, allowEmpty = false): void {
  if (typeof value !== 'string') throw new ValidationError(field, `${field} must be a string`);
  if (!isWellFormedText(value)) throw new ValidationError(field, `${field} must be valid Unicode text (it contains a lone surrogate)`);
  // PostgreSQL's text cannot hold U+0000, so no engine is given one (docs/api.md, Limits).
  if (value.includes('\u0000')) throw new ValidationError(field, `${field} must not contain the NUL character (U+0000)`);
  if (!allowEmpty && value.trim() === '') throw new ValidationError(field, `${field} must not be empty`);
  const length = countCharacters(value);
  if (length > max) {
    throw new ValidationError(field, `${field} must be at most ${max} characters (got ${length})`);
  }
}

/** False when the string holds a lone UTF-16 surrogate, which has no UTF-8 form (stored, it would come back changed). */
export function isWellFormedText(value: string): boolean {
  return (value as string & { isWellFormed(): boolean }).isWellFormed();
}

/** Unicode code points of `text`: what every text limit and every speech meter counts. */
export function countCharacters(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
