import { reflectPronouns } from './reflect-pronouns.js';
import { capitalizeFirst, limitWords, sanitizeSpokenText, trimPhrase } from './spoken-text.js';

/**
 * What one user message says about the user: their name, what they like or dislike, where they
 * live, and the topic they raised. The conversation memory folds these over the whole history.
 * Phrases are stored already reflected ("my dog" → "your dog") so replies can use them directly.
 */
export interface UserFacts {
  name?: string;
  likes: string[];
  dislikes: string[];
  location?: string;
  topic?: string;
}

/** Words that follow "I'm" but are not names: moods, states, fillers. */
const NOT_A_NAME = new Set([
  'a', 'an', 'the', 'not', 'so', 'very', 'really', 'just', 'also', 'too', 'here', 'there', 'back', 'home',
  'fine', 'good', 'great', 'ok', 'okay', 'well', 'happy', 'sad', 'tired', 'bored', 'busy', 'sorry', 'sure',
  'lost', 'done', 'new', 'ready', 'stuck', 'sick', 'hungry', 'angry', 'upset', 'excited', 'stressed',
  'anxious', 'nervous', 'worried', 'lonely', 'confused', 'curious', 'interested', 'glad', 'afraid', 'scared',
  'alright', 'awesome', 'cool', 'down', 'depressed', 'exhausted', 'frustrated', 'overwhelmed', 'unwell',
  'better', 'worse', 'late', 'early', 'old', 'young', 'from', 'in', 'at', 'on', 'with', 'about', 'looking',
  'trying', 'going', 'feeling', 'thinking', 'wondering', 'still', 'only', 'kind', 'pretty', 'quite',
  'your', 'my', 'his', 'her', 'their', 'all', 'good', 'bad', 'terrible', 'amazing', 'fantastic', 'wonderful',
  'free', 'available', 'ill', 'hurt', 'fed', 'annoyed', 'mad', 'calm', 'relaxed', 'pleased', 'thrilled',
  'student', 'teacher', 'doctor', 'nurse', 'developer', 'engineer', 'parent', 'customer', 'beginner',
]);

const NAME_WORD = "[A-Za-z][A-Za-z'-]{0,30}";
const EXPLICIT_NAME = new RegExp(
  `\\b(?:my name is|my name's|name's|call me|you can call me|people call me|i go by)\\s+(${NAME_WORD})(?:\\s+(${NAME_WORD}))?`,
  'i',
);
const IM_NAME = new RegExp(`(?:^|[\\s,.!?])(i'm|i am|im|this is|it's)\\s+(${NAME_WORD})(?=\\s*(?:$|[,.!?;]|\\s(?:and|here|by the way|btw|from|nice|,)))`, 'i');

/** Reads a self-introduction: "my name is Sam", "call me Sam", "I'm Sam", "Hi, this is Sam". */
export function extractName(text: string): string | undefined {
  const straight = text.replace(/[\u2018\u2019]/g, "'");
  const explicit = EXPLICIT_NAME.exec(straight);
  if (explicit && !/^not$/i.test(explicit[1]!)) {
    const first = explicit[1]!;
    const second = explicit[2];
    if (NOT_A_NAME.has(first.toLowerCase())) return undefined;
    const full = second && /^[A-Z]/.test(second) && /^[A-Z]/.test(first) ? `${first} ${second}` : first;
    return properCase(full);
  }
  const im = IM_NAME.exec(straight);
  if (!im) return undefined;
  const lead = im[1]!.toLowerCase();
  const word = im[2]!;
  const lower = word.toLowerCase();
  if (NOT_A_NAME.has(lower) || /(?:ing|ed|ly|ful|ous|ive|able|ish)$/.test(lower)) return undefined;
  // "it's X" and "this is X" only count when X is capitalised: "it's Sam" but not "it's raining".
  if ((lead === 'this is' || lead === "it's") && !/^[A-Z]/.test(word)) return undefined;
  return properCase(word);
}

function properCase(name: string): string {
  return name
    .split(' ')
    .map((part) => capitalizeFirst(part.toLowerCase()).replace(/-([a-z])/g, (_, c: string) => `-${c.toUpperCase()}`))
    .join(' ');
}

const CLAUSE_END = /(?:[.!?;,]|\s(?:and i|but|because|so)\s|$)/;

function captureAfter(text: string, pattern: RegExp): string | undefined {
  const match = pattern.exec(text);
  if (!match || match.index === undefined) return undefined;
  const rest = text.slice(match.index + match[0].length);
  const end = CLAUSE_END.exec(rest);
  const phrase = trimPhrase(limitWords(end ? rest.slice(0, end.index) : rest, 7));
  return phrase.length > 1 ? reflectPronouns(phrase) : undefined;
}

const LIKE = /\b(?:i|i really|i also|i just|i absolutely|i totally)\s+(?:like|love|enjoy|adore)\s+/i;
const INTO = /\b(?:i'm|i am|im)\s+(?:really\s+)?(?:into|a fan of|a big fan of|passionate about|interested in)\s+/i;
const FAVOURITE = /\bmy\s+favou?rite\s+[a-z ]{1,20}?\s+(?:is|are)\s+/i;
const DISLIKE = /\b(?:i\s+(?:really\s+)?(?:hate|dislike|can't stand|don't like|do not like))\s+/i;
const LIVES_IN = /\b(?:i live in|i'm from|i am from|im from|i'm based in|i am based in)\s+/i;
/** "I'm in …" names a place only when capitalised: "I'm in Paris", not "I'm in trouble". */
const STAYING_IN = /\b(?:i'm in|i am in|im in)\s+(?=[A-Z])/;

/** "I love astronomy" → "astronomy"; "my favourite food is pizza" → "pizza". */
export function extractLikes(text: string): string[] {
  const likes = [captureAfter(text, LIKE), captureAfter(text, INTO), captureAfter(text, FAVOURITE)];
  return likes.filter((like): like is string => like !== undefined && !/^(?:it|that|this|you|me|to)$/i.test(like));
}

/** Patterns that name a topic; `action` ones are followed by a verb phrase ("how do I reset…"). */
const HELP_TOPIC: ReadonlyArray<{ pattern: RegExp; action: boolean }> = [
  { pattern: /\bhelp(?: me)?(?: out)? with\s+/i, action: false },
  { pattern: /\b(?:problem|issue|trouble|question|questions) (?:with|about)\s+/i, action: false },
  { pattern: /\b(?:struggling with|stuck on|having trouble with|confused about|worried about)\s+/i, action: false },
  { pattern: /\b(?:tell me about|talk about|learn about|know about|learn more about|know more about|information about|info about)\s+/i, action: false },
  { pattern: /\b(?:learn|understand|explain|teach me)\s+(?!how\b|to\b)/i, action: false },
  { pattern: /\b(?:recommend|suggest)(?: me)?\s+/i, action: false },
  { pattern: /\b(?:looking for|interested in|thinking about|thinking of)\s+/i, action: false },
  { pattern: /\bhow (?:do|can|should|would) (?:i|we|you)\s+/i, action: true },
  { pattern: /\b(?:teach me |show me |learn |know |understand )?how to\s+/i, action: true },
  { pattern: /\bhelp me (?:to )?(?=[a-z])/i, action: true },
  { pattern: /\b(?:i want to|i'd like to|i would like to|i need to|i'm trying to|i am trying to|trying to)\s+/i, action: true },
  { pattern: /\bwhat (?:is|are|was|were)\s+/i, action: false },
  { pattern: /\babout\s+/i, action: false },
];

const VAGUE_TOPIC = /^(?:it|that|this|something|anything|stuff|things?|me|you|my name|your name|yourself|up|out|please)$/i;

/**
 * The thing a message is about, if a clear pattern names it: "help me with fractions" →
 * "fractions", "how do I reset my password" → "resetting your password".
 */
export function extractTopic(text: string): string | undefined {
  for (const { pattern, action } of HELP_TOPIC) {
    const topic = captureAfter(text, pattern);
    if (topic === undefined || VAGUE_TOPIC.test(topic)) continue;
    if (!action) return topic;
    const gerund = toGerundPhrase(topic);
    if (gerund !== undefined) return gerund;
  }
  return undefined;
}

/** Verbs whose final consonant doubles before "-ing" despite having more than one syllable. */
const DOUBLING = new Set(['reset', 'forget', 'begin', 'admit', 'commit', 'submit', 'prefer', 'refer', 'occur', 'upset', 'permit', 'regret', 'control']);

/** "reset your password" → "resetting your password"; `undefined` when it does not start with a verb-like word. */
export function toGerundPhrase(phrase: string): string | undefined {
  const [verb = '', ...rest] = phrase.split(' ');
  const lower = verb.toLowerCase();
  if (!/^[a-z]{2,}$/.test(lower) || /ing$/.test(lower) || VAGUE_TOPIC.test(lower)) return undefined;
  let gerund: string;
  if (lower === 'be') gerund = 'being';
  else if (lower.endsWith('ie')) gerund = `${lower.slice(0, -2)}ying`;
  else if (/[^eoy]e$/.test(lower)) gerund = `${lower.slice(0, -1)}ing`;
  else if (DOUBLING.has(lower) || (lower.length <= 4 && /[^aeiou][aeiou][^aeiouwxy]$/.test(lower))) gerund = `${lower}${lower.at(-1)}ing`;
  else gerund = `${lower}ing`;
  return [gerund, ...rest].join(' ');
}

/** Everything one user message reveals; see {@link UserFacts}. */
export function extractUserFacts(typed: string): UserFacts {
  const text = sanitizeSpokenText(typed);
  const facts: UserFacts = { likes: extractLikes(text), dislikes: [] };
  const name = extractName(text);
  if (name !== undefined) facts.name = name;
  const dislike = captureAfter(text, DISLIKE);
  if (dislike !== undefined) facts.dislikes.push(dislike);
  const location = captureAfter(text, LIVES_IN) ?? captureAfter(text, STAYING_IN);
  if (location !== undefined) facts.location = location.split(' ').map(capitalizeFirst).join(' ');
  const topic = extractTopic(text);
  if (topic !== undefined) facts.topic = topic;
  return facts;
}
