/**
 * Whole-word phrase matching shared by the safety checks (blocked topics, requests for a human,
 * frustration markers, severe content). Text and phrases are normalized the same way (NFKC, then
 * lower case) and split into words of letters and digits, so matching is case-insensitive, ignores
 * any whitespace or punctuation between a phrase's words, and never fires inside another word
 * ("acme" does not match "acmeist"). The last word of a phrase may carry a simple inflection
 * (s, es, ed, ing, and d / e-dropping before ing for words ending in e), so "diagnose" matches
 * "diagnoses", "diagnosed" and "diagnosing" and "what medication" matches "what medications".
 * Earlier words of a phrase must match exactly, which keeps "talk to a person" from matching
 * "talked to a person".
 */

/** A phrase compiled for matching: its words, the last one expanded to its accepted forms. */
export interface CompiledPhrase {
  /** The phrase as given, for reporting. */
  readonly source: string;
  /** Words before the last, matched exactly. */
  readonly head: readonly string[];
  /** Accepted forms of the last word. */
  readonly lastForms: ReadonlySet<string>;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** Splits text into normalized words (NFKC, lower case, runs of letters and digits). */
export function words(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(WORD) ?? [];
}

/** The forms of a word accepted as a simple inflection of it. */
function inflections(word: string): Set<string> {
  const forms = new Set([word, `${word}s`, `${word}es`, `${word}ed`, `${word}ing`]);
  if (word.endsWith('e') && word.length > 2) {
    forms.add(`${word}d`);
    forms.add(`${word.slice(0, -1)}ing`);
  }
  return forms;
}

/** Compiles a phrase; returns undefined when it holds no word (nothing could ever match it). */
export function compilePhrase(phrase: string): CompiledPhrase | undefined {
  const parts = words(phrase);
  const last = parts.pop();
  if (last === undefined) return undefined;
  return { source: phrase, head: parts, lastForms: inflections(last) };
}

/** Compiles a list of phrases, dropping any that hold no word. */
export function compilePhrases(phrases: readonly string[]): CompiledPhrase[] {
  return phrases.map(compilePhrase).filter((p): p is CompiledPhrase => p !== undefined);
}

/** Whether the phrase occurs in the (already split) text as a whole-word sequence. */
export function phraseOccurs(phrase: CompiledPhrase, textWords: readonly string[]): boolean {
  const n = phrase.head.length;
  for (let i = 0; i + n < textWords.length; i++) {
    let ok = true;
    for (let j = 0; j < n && ok; j++) ok = textWords[i + j] === phrase.head[j];
    if (ok && phrase.lastForms.has(textWords[i + n] as string)) return true;
  }
  return false;
}

/** The first phrase of the list that occurs in the text, if any. */
export function firstOccurring(phrases: readonly CompiledPhrase[], textWords: readonly string[]): CompiledPhrase | undefined {
  return phrases.find((p) => phraseOccurs(p, textWords));
}
