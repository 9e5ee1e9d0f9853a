/**
 * Turns the user's words around so the engine can say them back: "I lost my keys" becomes
 * "you lost your keys". This is what lets unknown input get an on-topic reply instead of a canned
 * "I don't understand".
 */

const FIRST_TO_SECOND: Readonly<Record<string, string>> = {
  i: 'you',
  me: 'you',
  my: 'your',
  mine: 'yours',
  myself: 'yourself',
  am: 'are',
  "i'm": "you're",
  im: "you're",
  "i've": "you've",
  "i'll": "you'll",
  "i'd": "you'd",
  we: 'you',
  us: 'you',
  our: 'your',
  ours: 'yours',
  "we're": "you're",
};

const SECOND_TO_FIRST: Readonly<Record<string, string>> = {
  your: 'my',
  yours: 'mine',
  yourself: 'myself',
  "you're": "I'm",
  "you've": "I've",
  "you'll": "I'll",
  "you'd": "I'd",
  u: 'me',
};

/** Words after which "you" is a subject ("that you said" → "that I said"). */
/** Words that, following "you", make it the subject ("you said", "you can"). */
const VERB_AFTER = new Set(['are', 'were', 'was', 'have', 'had', 'can', 'could', 'will', 'would', 'should', 'do', 'did', "don't", "didn't", "can't", 'know', 'think', 'want', 'need', 'like', 'love', 'seem', 'look', 'sound', 'say', 'tell', 'told', 'make', 'made', 'get', 'got', 'keep', 'never', 'always', 'just', 'really', 'also', 'must', 'might', 'may', 'feel', 'go', 'went', 'see', 'saw', 'said', 'mean', 'meant', 'asked', 'wrote', 'gave', 'took']);

const SUBJECT_CONTEXT = new Set(['', 'and', 'but', 'or', 'that', 'if', 'when', 'because', 'so', 'do', 'did', 'can', 'could', 'would', 'will', 'should', 'what', 'how', 'why', 'where']);

/** Sentence starters that are lower-cased when the words move into the middle of a reply. */
const COMMON_STARTERS = new Set(['the', 'a', 'an', 'here', 'there', 'it', 'its', "it's", 'this', 'that', 'these', 'those', 'we', 'they', 'he', 'she', 'his', 'her', 'their', 'today', 'yesterday', 'tomorrow', 'some', 'every', 'all', 'no', 'nothing', 'everything', 'someone', 'somebody', 'people', 'maybe', 'actually', 'honestly', 'also', 'just', 'then', 'now', 'sometimes', 'lately', 'recently', 'nobody', 'everyone', 'one', 'when', 'if', 'because', 'after', 'before', 'since', 'last', 'next', 'work', 'school', 'life']);

/**
 * Swaps first and second person in `text`, keeping every other word (and its capitalisation)
 * as typed. Handles the common verb agreements: "I am" / "you are", "I was" / "you were".
 */
export function reflectPronouns(text: string): string {
  const words = text.trim().split(/\s+/).filter((w) => w.length > 0);
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const raw = words[i]!;
    const match = /^([^a-zA-Z']*)([a-zA-Z']+)([^a-zA-Z']*)$/.exec(raw);
    if (!match) {
      out.push(raw);
      continue;
    }
    const [, lead = '', core = '', tail = ''] = match;
    const lower = core.toLowerCase().replace(/\u2019/g, "'");
    const prev = i === 0 ? '' : (words[i - 1] ?? '').toLowerCase().replace(/[^a-z']/g, '');
    const next = (words[i + 1] ?? '').toLowerCase().replace(/[^a-z']/g, '');
    out.push(lead + swapWord(lower, prev, next, core) + tail);
  }
  const first = out[0];
  if (first !== undefined && COMMON_STARTERS.has(first.toLowerCase())) out[0] = first.toLowerCase();
  return out.join(' ');
}

function swapWord(lower: string, prev: string, next: string, original: string): string {
  if (lower === 'was' && (prev === 'i' || prev === 'you')) return prev === 'i' ? 'were' : 'was';
  if (lower === 'were' && prev === 'you') return 'was';
  if (lower === 'are' && prev === 'you') return 'am';
  if (lower === 'you') return SUBJECT_CONTEXT.has(prev) || VERB_AFTER.has(next) || /ed$/.test(next) ? 'I' : 'me';
  const firstToSecond = FIRST_TO_SECOND[lower];
  if (firstToSecond !== undefined) return firstToSecond;
  const secondToFirst = SECOND_TO_FIRST[lower];
  if (secondToFirst !== undefined) return secondToFirst;
  return original;
}
