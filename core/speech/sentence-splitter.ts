/**
 * Splits text that arrives in pieces into sentences as soon as each one is certainly complete,
 * so speech can start while the rest is still being generated.
 *
 * A boundary is sentence punctuation (. ! ? … and their full-width forms) plus any closing quotes
 * or brackets, followed by whitespace — or, for full-width punctuation (Chinese, Japanese), by
 * anything. Not a boundary: a decimal point or thousands separator (3.14, 1.000), a known
 * abbreviation (Mr., e.g., U.S.), a single capital initial (J. R. R.), or punctuation at the very
 * end of the text received so far (more may follow: "3." may become "3.5").
 */
export class SentenceSplitter {
  #buffer = '';
  readonly #minLength: number;

  /** @param minLength sentences shorter than this are merged with the next one ("Hi!" alone is too short to synthesize well). */
  constructor(minLength = 1) {
    this.#minLength = minLength;
  }

  /** Adds text; returns the sentences completed by it, trimmed. */
  push(text: string): string[] {
    this.#buffer += text;
    const sentences: string[] = [];
    let searchFrom = 0;
    for (;;) {
      const end = findBoundary(this.#buffer, searchFrom);
      if (end === -1) break;
      const sentence = this.#buffer.slice(0, end).trim();
      if (sentence.length < this.#minLength) {
        searchFrom = end;
        continue;
      }
      sentences.push(sentence);
      this.#buffer = this.#buffer.slice(end);
      searchFrom = 0;
    }
    return sentences;
  }

  /** The remaining text as a last sentence, if any; resets the splitter. */
  flush(): string | undefined {
    const rest = this.#buffer.trim();
    this.#buffer = '';
    return rest || undefined;
  }
}

/** Splits a whole text at once. */
export function splitSentences(text: string): string[] {
  const splitter = new SentenceSplitter();
  const sentences = splitter.push(text);
  const rest = splitter.flush();
  return rest ? [...sentences, rest] : sentences;
}

const ENDERS = new Set(['.', '!', '?', '…', '。', '！', '？', '｡']);
const FULL_WIDTH_ENDERS = new Set(['。', '！', '？', '｡']);
const CLOSERS = new Set(['"', "'", '”', '’', ')', ']', '»', '」', '』', '）']);
const ABBREVIATIONS = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'mt', 'vs', 'etc', 'e.g', 'i.e', 'approx',
  'no', 'vol', 'fig', 'inc', 'ltd', 'co', 'corp', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug',
  'sep', 'sept', 'oct', 'nov', 'dec', 'a.m', 'p.m', 'u.s', 'u.k', 'u.s.a', 'ph.d', 'min', 'max',
]);

/** Index just past the first sentence boundary at or after `from`, or -1. */
function findBoundary(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const ch = text[i]!;
    if (!ENDERS.has(ch)) continue;
    let end = i + 1;
    // "?!", "...", "!!" belong to one boundary.
    while (end < text.length && ENDERS.has(text[end]!)) end++;
    while (end < text.length && CLOSERS.has(text[end]!)) end++;
    if (FULL_WIDTH_ENDERS.has(text[end - 1]!) || FULL_WIDTH_ENDERS.has(ch)) return end;
    if (end >= text.length) return -1; // undecided until more text arrives
    if (!/\s/.test(text[end]!)) {
      i = end - 1;
      continue;
    }
    if (ch === '.' && end === i + 1 && isNonTerminalPeriod(text, i)) continue;
    return end;
  }
  return -1;
}

function isNonTerminalPeriod(text: string, dot: number): boolean {
  let start = dot;
  while (start > 0 && /[\p{L}.]/u.test(text[start - 1]!)) start--;
  const word = text.slice(start, dot).toLowerCase();
  if (ABBREVIATIONS.has(word)) return true;
  // A lone capital initial: "J. R. R. Tolkien".
  if (/^\p{Lu}$/u.test(text.slice(start, dot))) return true;
  return false;
}
