/**
 * Text helpers for replies that are spoken aloud: the offline engine's output goes to a speech
 * engine, so it must be plain sentences — no markdown, no emoji, no stray whitespace.
 */

const EMOJI = /[\p{Extended_Pictographic}\p{Regional_Indicator}\u{FE0F}\u{200D}\u{20E3}]/gu;
const MARKDOWN_LINK = /\[([^\]]*)\]\([^)]*\)/g;
const MARKDOWN_MARKS = /[*_#`~|<>[\]{}\\]/g;
const LIST_BULLET = /(^|\n)\s*(?:[-+•]|\d+[.)])\s+/g;

/**
 * Makes any text safe to speak: drops markdown markers, link targets, list bullets and emoji,
 * and collapses whitespace. Used on everything the engine says, including echoed user words and
 * operator-written persona greetings.
 */
export function sanitizeSpokenText(text: string): string {
  return text
    .replace(MARKDOWN_LINK, '$1')
    .replace(LIST_BULLET, '$1')
    .replace(EMOJI, '')
    .replace(MARKDOWN_MARKS, '')
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.!?;:])/g, '$1')
    .trim();
}

/** Lower-cases and straightens quotes so patterns can match what people actually type. */
export function normalizeInput(text: string): string {
  return text
    .replace(/[\u2018\u2019\u02BC`]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** Upper-cases the first letter (names, sentence starts). */
export function capitalizeFirst(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1);
}

/** Ensures a sentence ends with terminal punctuation. */
export function endSentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length === 0) return trimmed;
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * Joins sentences into one reply of at most `maxSentences`, dropping empty ones. Keeping replies
 * short matters: they are spoken, and a wall of text is tiring to listen to.
 */
export function joinSentences(sentences: readonly string[], maxSentences = 4): string {
  return sentences
    .flatMap((s) => sanitizeSpokenText(s).split(/(?<=[.!?])\s+(?=[A-Z])/))
    .map(endSentence)
    .filter((s) => s.length > 0)
    .slice(0, maxSentences)
    .map(capitalizeFirst)
    .join(' ');
}

/** "a", "a and b", "a, b, and c". */
export function listPhrase(items: readonly string[], conjunction = 'and'): string {
  if (items.length <= 1) return items[0] ?? '';
  if (items.length === 2) return `${items[0]} ${conjunction} ${items[1]}`;
  return `${items.slice(0, -1).join(', ')}, ${conjunction} ${items[items.length - 1]}`;
}

/** Keeps the first `max` words, so echoed user text never dominates a reply. */
export function limitWords(text: string, max: number): string {
  const words = text.trim().split(/\s+/).filter((w) => w.length > 0);
  return words.slice(0, max).join(' ');
}

/** Removes trailing punctuation and quotes from a captured phrase. */
export function trimPhrase(text: string): string {
  return text
    .replace(/^[\s"'(,;:-]+/, '')
    .replace(/[\s"'),;:.!?-]+$/, '')
    .trim();
}
