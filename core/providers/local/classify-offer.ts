/**
 * What the engine's own previous question offered, so a bare "yes" or "no" from the user can be
 * answered in context ("Want to hear another one?" → "yes" → another joke). The engine reads its
 * own earlier words back from the history rather than keeping state between requests.
 */
export type Offer =
  | 'joke'
  | 'story'
  | 'wellbeing'
  | 'practice'
  | 'steps'
  | 'recommend'
  | 'booking'
  | 'anything-else'
  | 'topic-more'
  | 'generic';

const OFFER_PATTERNS: ReadonlyArray<readonly [Offer, RegExp]> = [
  ['wellbeing', /\bhow (?:are|about) you\b|\bhow are you (?:doing|feeling)\b|\bhow(?:'s| is) your day\b|\bhow have you been\b/i],
  ['joke', /\bjoke\b|\banother one\b|\bsomething funny\b|\bmake you laugh\b/i],
  ['story', /\bstor(?:y|ies)\b/i],
  ['anything-else', /\banything else\b|\bsomething else\b/i],
  ['practice', /\bquiz\b|\bpractice\b|\bexercise\b|\btest yourself\b/i],
  ['steps', /\bstep by step\b|\bwalk you through\b|\bsteps\b|\bbasics\b|\bchecklist\b|\btroubleshoot/i],
  ['booking', /\bbook\b|\breserv|\btable\b|\bcheck[- ]in\b/i],
  ['recommend', /\brecommend|\bsuggest|\boptions\b|\bcompare\b/i],
  ['topic-more', /\btell me more\b|\bmore about\b|\bgo on\b|\bhear more\b|\bshall i continue\b/i],
];

/**
 * The offer made by the last question in `assistantText`, or `undefined` when that message did not
 * end with a question (then "yes" is an acknowledgement, not an answer).
 */
export function classifyOffer(assistantText: string | undefined): Offer | undefined {
  if (assistantText === undefined) return undefined;
  const trimmed = assistantText.trim();
  if (!trimmed.endsWith('?')) return undefined;
  const sentences = trimmed.split(/(?<=[.!?])\s+/);
  const question = sentences[sentences.length - 1] ?? trimmed;
  for (const [offer, pattern] of OFFER_PATTERNS) if (pattern.test(question)) return offer;
  return 'generic';
}
