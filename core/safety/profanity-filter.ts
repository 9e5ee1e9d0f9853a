/**
 * The profanity filter: obscenity's English preset (its word list and recommended transformers,
 * which catch leetspeak, confusable Unicode letters and stretched words such as "fuuuck"), plus a
 * short whitelist of ordinary words and names the preset would otherwise flag because it matches
 * profanity inside longer words ("cockpit", "cumin", "Dickinson"…). Matching runs on the original
 * text, so the masked text keeps the user's own spelling. obscenity matches a profane root inside a
 * word ("fucking" matches "fuck"); the mask is widened to the whole word so no stub such as
 * "****ing" is left behind.
 */
import type { MatchPayload } from 'obscenity';
import { RegExpMatcher, TextCensor, asteriskCensorStrategy, englishDataset, englishRecommendedTransformers } from 'obscenity';

/**
 * Known false positives of obscenity 0.4.6's English preset found while testing ordinary support
 * and small-talk messages. Entries are lower case: obscenity matches whitelisted terms after ASCII
 * lower-casing, and a whitelisted span hides any profane match lying wholly inside it.
 */
const EXTRA_WHITELIST: readonly string[] = [
  'cockpit',
  'cumin',
  'cum laude',
  'cummings',
  'dickinson',
  'dickson',
  'moby dick',
  'moby-dick',
  'penistone',
  'pissarro',
  'pussycat',
  'retardant',
  'wankel',
];

const preset = englishDataset.build();

/** Built once at module load; RegExpMatcher holds no per-call state. */
const matcher = new RegExpMatcher({
  ...preset,
  ...englishRecommendedTransformers,
  whitelistedTerms: [...(preset.whitelistedTerms ?? []), ...EXTRA_WHITELIST],
});

const censor = new TextCensor().setStrategy(asteriskCensorStrategy());

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Widens a match to the word around it; matchLength counts code points, as the censor expects. */
function toWholeWord(text: string, match: MatchPayload): MatchPayload {
  let start = match.startIndex;
  let end = match.endIndex;
  while (start > 0 && WORD_CHAR.test(text.charAt(start - 1))) start--;
  while (end + 1 < text.length && WORD_CHAR.test(text.charAt(end + 1))) end++;
  return { ...match, startIndex: start, endIndex: end, matchLength: [...text.slice(start, end + 1)].length };
}

/** Returns the text with profane words replaced by asterisks, or undefined when it holds none. */
export function maskProfanity(text: string): string | undefined {
  const matches = matcher.getAllMatches(text, true);
  return matches.length === 0 ? undefined : censor.applyTo(text, matches.map((m) => toWholeWord(text, m)));
}
