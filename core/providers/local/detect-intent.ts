import type { Offer } from './classify-offer.js';
import { classifyOffer } from './classify-offer.js';
import type { ArithmeticResult } from './solve-arithmetic.js';
import { solveArithmetic } from './solve-arithmetic.js';
import { extractLikes, extractName, extractTopic, extractUserFacts } from './extract-user-facts.js';
import { reflectPronouns } from './reflect-pronouns.js';
import { normalizeInput, sanitizeSpokenText } from './spoken-text.js';

/** What the user wants with their newest message; a discriminated union on `kind`. */
export type Intent =
  | { kind: 'empty' }
  | { kind: 'emergency'; crisis: 'self-harm' | 'medical' }
  | { kind: 'recall-name' }
  | { kind: 'recall-history' }
  | { kind: 'recall-profile' }
  | { kind: 'arithmetic'; result: ArithmeticResult }
  | { kind: 'time' }
  | { kind: 'date' }
  | { kind: 'are-you-ai' }
  | { kind: 'identity' }
  | { kind: 'capabilities' }
  | { kind: 'joke' }
  | { kind: 'story'; about?: string }
  | { kind: 'weather' }
  | { kind: 'how-are-you' }
  | { kind: 'hobbies'; about?: string }
  | { kind: 'farewell' }
  | { kind: 'thanks' }
  | { kind: 'greeting' }
  | { kind: 'feeling'; mood: 'positive' | 'negative'; word: string }
  | { kind: 'yes'; offer: Offer }
  | { kind: 'no'; offer: Offer }
  | { kind: 'acknowledge' }
  | { kind: 'health'; topic?: string }
  | { kind: 'help'; topic?: string; problem: boolean }
  | { kind: 'compliment' }
  | { kind: 'insult' }
  | { kind: 'apology' }
  | { kind: 'introduction' }
  | { kind: 'preference'; like: string }
  | { kind: 'location'; place: string }
  | { kind: 'request' }
  | { kind: 'question'; text: string; topic?: string }
  | { kind: 'statement'; text: string };

export type IntentKind = Intent['kind'];

/** The newest message read as a whole: its main intent plus things said along the way. */
export interface DetectedMessage {
  intent: Intent;
  /** The message also opened with a greeting ("Hi, can you help me…"). */
  greeted: boolean;
  /** A name the user introduced in this very message. */
  introducedName?: string;
}

const EMERGENCY_SELF = /\b(?:suicid\w*|kill myself|end my life|hurt myself|harm myself|self[- ]harm|want to die|don't want to live)\b/;
const EMERGENCY_MEDICAL = /\b(?:chest pain|can't breathe|cannot breathe|trouble breathing|heart attack|stroke|overdos\w*|unconscious|severe bleeding|bleeding heavily|seizure|anaphyla\w*|emergency)\b/;
const RECALL_NAME = /\b(?:what's|what is|whats|do you (?:know|remember)|say|tell me|did i tell you|you remember) my name\b|^who am i\??$|\bremember (?:my name|me)\b|\bwhat do you call me\b/;
const RECALL_PROFILE = /\bwhat do i (?:like|love|enjoy)\b|\bwhat (?:did|have) i (?:say|said|tell|told)(?: you)? (?:that )?i (?:like|love|enjoy)\b|\bwhat(?:'s| is| are) my favou?rite\b|\bwhat do you know about me\b|\bwhere do i live\b|\bwhere am i from\b|\bremember what i (?:like|love)\b/;
const RECALL_HISTORY = /\bwhat (?:did|have) i (?:just )?(?:ask|asked|say|said|tell|told|mention|mentioned)\b|\bwhat (?:did|have) we (?:talk|talked|discuss|discussed|cover|covered|chat|chatted)\b|\bdo you remember what i\b|\bwhat was my (?:last |previous |first |earlier )?question\b|\bwhat were we (?:talking|chatting) about\b|\bsummar(?:y|ize|ise) (?:of )?(?:our|this|the) (?:conversation|chat)\b/;
const TIME = /\bwhat time is it\b|\bwhat's the time\b|\bwhat is the time\b|\bcurrent time\b|\btime is it\b|\bdo you (?:know|have) the time\b|\btell me the time\b/;
const DATE = /\bwhat (?:day|date) is (?:it|today)\b|\bwhat's (?:the date|today's date)\b|\bwhat is (?:the date|today's date)\b|\btoday's date\b|\bwhat day of the week\b|\bwhat (?:month|year) is it\b/;
const ARE_YOU_AI = /\bare (?:you|u) (?:an? )?(?:real |actual )?(?:ai|a\.i\.?|bot|robot|chat ?bot|machine|computer|program|human|person|real|alive|sentient|conscious|llm|language model|chatgpt|gpt|artificial)\b|\bam i (?:talking|speaking|chatting) (?:to|with) (?:an? )?(?:ai|bot|robot|human|person|real person|machine|computer)\b|\bis this (?:an? )?(?:ai|bot|robot|real person|human)\b|\bare you (?:for )?real\b/;
const IDENTITY = /\bwho are (?:you|u)\b|\bwhat are (?:you|u)\??$|\bwhat(?:'s| is) your name\b|\byour name\??$|\btell me about yourself\b|\bintroduce yourself\b|\bwho am i (?:talking|speaking|chatting) (?:to|with)\b|\bwho is this\b/;
const CAPABILITIES = /\bwhat (?:can|could) (?:you|u) do\b|\bwhat are you able to\b|\bwhat do you do\??$|\bhow (?:can|could) you help\b|\bwhat (?:can|could) you help(?: me)? with\b|\bwhat are your (?:skills|abilities|features)\b|^(?:help|help me|i need help|can you help(?: me)?|could you help(?: me)?)[.!?]*$|\bwhat do you offer\b|\bwhat can i ask\b/;
const JOKE = /\bjokes?\b|\bmake me laugh\b|\bsomething funny\b|\bpun\b|\bcheer me up\b|\briddles?\b/;
/** A task asked of the avatar ("write me a poem", "can you translate …"), read after the ones it can do. */
const REQUEST = /^(?:(?:please|so|ok|okay|hey|now)[, ]+)?(?:(?:can|could|would|will) (?:you|u) (?:please )?)?(?:give|tell|write|translate|play|sing|make|create|draw|compose|read|list|name|describe|summari[sz]e|plan|order|search|look up|find|invent|generate|calculate)\b/;
const STORY = /\b(?:tell|read|give|make up|share|know|want|hear|have)\b.*\bstor(?:y|ies)\b|\bbedtime story\b|\bonce upon a time\b|^(?:a |another )?story\b/;
const STORY_ABOUT = /\bstor(?:y|ies)\s+(?:about|of|with|featuring)\s+(.+)$/;
const WEATHER = /\bweather\b|\bforecast\b|\braining\b|\bis it (?:sunny|cold|hot|warm)\b|\bsnowing\b|\btemperature (?:outside|today)\b|\bneed an umbrella\b/;
const HOW_ARE_YOU = /\bhow are (?:you|u|ya)\b|\bhow(?:'s| is) it going\b|\bhow (?:are|have) you been\b|\bhow(?:'s| is) your day\b|\bwhat's up\b|\bwhats up\b|\bhow do you feel\b|\bhow are things\b|\bhow you doing\b/;
const HOBBIES = /\bwhat do you (?:like|love|enjoy)\b|\b(?:your|any) (?:hobbies|hobby|favou?rite)\b|\bwhat do you do for fun\b|\bdo you have (?:any )?hobbies\b/;
const DO_YOU_LIKE = /\bdo you (?:like|love|enjoy)\s+(.+)$/;
const FAREWELL = /\b(?:bye|goodbye|good bye|bye bye|see you|see ya|farewell|talk (?:to you )?(?:later|soon)|good night|goodnight|gotta go|got to go|have to go|i'm off|that's all|catch you later|take care|signing off)\b/;
const THANKS = /\b(?:thanks|thank you|thank u|thx|ty|appreciate it|cheers|much appreciated)\b/;
const GREETING = /^(?:hi|hello|hey|hiya|howdy|greetings|good (?:morning|afternoon|evening|day)|yo|hallo|hola|heya|hi there|hello there|hey there)\b/;
const COMPLIMENT = /\byou(?:'re| are) (?:so |very |really |pretty )?(?:great|awesome|amazing|cool|nice|helpful|smart|clever|funny|kind|the best|wonderful|brilliant|sweet|lovely|good at this)\b|\b(?:good job|well done|nice work|great job|i like you|you rock)\b/;
const INSULT = /\byou(?:'re| are) (?:so |very |really )?(?:stupid|dumb|useless|annoying|boring|terrible|awful|an idiot|idiot|wrong|broken|bad at this)\b|\b(?:you suck|shut up|i hate you|this is useless)\b/;
const APOLOGY = /^(?:sorry|my bad|oops|apologies|i apologi[sz]e)\b/;
const YES_WORDS = "yes|yeah|yep|yup|yea|sure|ok|okay|alright|all right|of course|definitely|absolutely|please|sounds good|go ahead|why not|let's do it|let's go|do it|i would|i do|certainly|go on|i'd love that|i'd love to|that would be great|that'd be great|great|perfect";
const NO_WORDS = "no|nope|nah|not really|no thanks|no thank you|not now|maybe later|i'm good|i'm fine|i don't think so|no need|not today|i'm ok|i'm okay|that's ok|that's okay|thanks|thank you";
/** Only a bare yes / no counts as an answer: "yes, tell me about fractions" is a request. */
const YES = new RegExp(`^(?:${YES_WORDS})(?:[ ,!.]+(?:${YES_WORDS}|thanks|thank you))*[ .!]*$`);
const NO = new RegExp(`^(?:no|nope|nah|not really|not now|maybe later|i don't think so|no need|not today|i'm good|i'm fine|i'm ok|i'm okay)(?:[ ,!.]+(?:${NO_WORDS}))*[ .!]*$`);
const POSITIVE = '(?:happy|good|great|fine|ok|okay|well|excited|awesome|fantastic|wonderful|amazing|not bad|pretty good|better|relaxed|glad)';
const NEGATIVE = "(?:sad|tired|exhausted|stressed|anxious|nervous|worried|lonely|bored|upset|angry|frustrated|down|depressed|overwhelmed|confused|lost|sick|unwell|not (?:good|great|well|ok|okay)|bad|terrible|awful|meh|scared|afraid)";
const FEELING = new RegExp(`\\b(?:i'm|i am|im|i feel|i'm feeling|i am feeling|feeling)(?: so| very| really| a bit| a little| kind of| pretty| quite| super)? (${NEGATIVE}|${POSITIVE})\\b`);
const SHORT_FEELING = new RegExp(`^(?:i'm |im )?(?:(?:doing|feeling) )?(${NEGATIVE}|${POSITIVE})(?:[ ,]+(?:thanks|thank you|and you|how about you|you|too|as well))*[.!?]*$`);
const HEALTH = /\b(?:symptoms?|pain|aches?|headaches?|migraines?|fever|cough(?:ing)?|sore throat|rash|nausea|dizzy|medications?|medicines?|dose|dosage|pills?|prescriptions?|diagnos\w*|blood pressure|diabetes|injur\w*|infection|allerg\w*|vomit\w*|bleeding|flu|covid|treatment|side effects?|ibuprofen|paracetamol|antibiotics?|insomnia|can't sleep)\b/;
const PROBLEM = /\b(?:isn't|is not|isnt|doesn't|does not|won't|will not|can't|cannot|keeps?|stopped) (?:working|work|load|loading|open|opening|start|starting|connect|connecting|log in|login|sign in|crashing|crash|freezing|responding)\b|\b(?:is|are|it's) (?:broken|down|not working)\b|\berror\b|\bbug\b|\brefund\b|\bcharged twice\b/;
const HELP_REQUEST = /\bhelp\b|\bhow (?:do|can|should) i\b|\bhow to\b|\bexplain\b|\bteach me\b|\bshow me\b|\bi need\b|\bi want to\b|\bi'd like to\b|\bi would like to\b|\bi'm (?:looking for|trying to|struggling with|stuck on|having trouble with)\b|\bi have (?:a |an )?(?:problem|issue|question)\b|\brecommend\b|\bsuggest\b/;
const QUESTION_START = /^(?:what|who|where|when|why|how|which|whose|is|are|can|could|do|does|did|will|would|should|may|might|was|were|have|has)\b/;

/**
 * Reads the newest user message. Order matters: safety first, then questions about memory and
 * facts the engine can answer exactly, then social moves, then requests, and finally the
 * reflective fallbacks for everything else.
 *
 * @param previousAssistant the engine's last message, to read "yes" / "no" as answers to it.
 */
export function detectIntent(typed: string, previousAssistant?: string): DetectedMessage {
  // Read what was meant, not how it was formatted: "**Sam**" is Sam, emoji carry no intent here.
  const text = sanitizeSpokenText(typed);
  const t = normalizeInput(text);
  const introducedName = extractName(text);
  const greeted = GREETING.test(t);
  const detected = (intent: Intent): DetectedMessage =>
    introducedName === undefined ? { intent, greeted } : { intent, greeted, introducedName };
  if (t.replace(/[^a-z0-9]/g, '').length === 0) return detected({ kind: 'empty' });

  if (EMERGENCY_SELF.test(t)) return detected({ kind: 'emergency', crisis: 'self-harm' });
  if (EMERGENCY_MEDICAL.test(t)) return detected({ kind: 'emergency', crisis: 'medical' });

  const offer = classifyOffer(previousAssistant);
  const words = t.split(' ').length;
  if (offer === 'wellbeing') {
    const mood = feelingOf(t);
    if (mood) return detected(mood);
  }
  if (offer !== undefined && words <= 6) {
    if (NO.test(t)) return detected({ kind: 'no', offer });
    if (YES.test(t)) return detected({ kind: 'yes', offer });
  }

  if (RECALL_NAME.test(t)) return detected({ kind: 'recall-name' });
  if (RECALL_PROFILE.test(t)) return detected({ kind: 'recall-profile' });
  if (RECALL_HISTORY.test(t)) return detected({ kind: 'recall-history' });
  const result = solveArithmetic(t);
  if (result) return detected({ kind: 'arithmetic', result });
  if (TIME.test(t)) return detected({ kind: 'time' });
  if (DATE.test(t)) return detected({ kind: 'date' });
  if (ARE_YOU_AI.test(t)) return detected({ kind: 'are-you-ai' });
  if (IDENTITY.test(t)) return detected({ kind: 'identity' });
  if (CAPABILITIES.test(t)) return detected({ kind: 'capabilities' });
  if (JOKE.test(t)) return detected({ kind: 'joke' });
  if (STORY.test(t)) {
    const about = storyHero(STORY_ABOUT.exec(t)?.[1]);
    return detected(about === undefined ? { kind: 'story' } : { kind: 'story', about });
  }
  if (WEATHER.test(t)) return detected({ kind: 'weather' });
  if (HOW_ARE_YOU.test(t)) return detected({ kind: 'how-are-you' });
  const doYouLike = DO_YOU_LIKE.exec(t);
  if (doYouLike) return detected({ kind: 'hobbies', about: doYouLike[1]!.replace(/[?.!]+$/, '') });
  if (HOBBIES.test(t)) return detected({ kind: 'hobbies' });
  if (FAREWELL.test(t)) return detected({ kind: 'farewell' });
  if (THANKS.test(t) && words <= 6) return detected({ kind: 'thanks' });
  const like = extractLikes(text)[0];
  if (greeted && like === undefined && words <= 4 + (introducedName ? 4 : 0) && !t.includes('?')) {
    return detected({ kind: 'greeting' });
  }
  if (words <= 4 && (YES.test(t) || NO.test(t))) return detected({ kind: 'acknowledge' });
  if (APOLOGY.test(t)) return detected({ kind: 'apology' });
  if (INSULT.test(t)) return detected({ kind: 'insult' });
  if (COMPLIMENT.test(t)) return detected({ kind: 'compliment' });

  const topic = extractTopic(text);
  if (HEALTH.test(t)) return detected(topic === undefined ? { kind: 'health' } : { kind: 'health', topic });
  const problem = PROBLEM.test(t);
  if (problem || HELP_REQUEST.test(t)) {
    const subject = topic ?? problemSubject(text);
    return detected(subject === undefined ? { kind: 'help', problem } : { kind: 'help', topic: subject, problem });
  }
  const mood = feelingOf(t);
  if (mood) return detected(mood);
  if (like !== undefined) return detected({ kind: 'preference', like });
  const place = extractUserFacts(text).location;
  if (place !== undefined) return detected({ kind: 'location', place });
  if (introducedName !== undefined) return detected({ kind: 'introduction' });
  if (greeted && words <= 8) return detected({ kind: 'greeting' });
  if (REQUEST.test(t)) return detected({ kind: 'request' });
  if (t.endsWith('?') || QUESTION_START.test(t)) {
    return detected(topic === undefined ? { kind: 'question', text } : { kind: 'question', text, topic });
  }
  return detected({ kind: 'statement', text });
}

const PROBLEM_SUBJECT = /\b((?:my|the|our|this|your) [a-z0-9' -]{1,30}?) (?:isn't|is not|isnt|doesn't|does not|won't|will not|keeps?|stopped|is broken|is down|has stopped)\b/i;

/** "My wifi isn't working" → "your wifi". */
function problemSubject(text: string): string | undefined {
  const match = PROBLEM_SUBJECT.exec(text.replace(/[\u2018\u2019]/g, "'"));
  return match ? reflectPronouns(match[1]!) : undefined;
}

/**
 * The hero of "a story about …" as it can be introduced in a sentence: "a dragon", "your cat",
 * "a family of otters"; undefined when nothing usable is left.
 */
function storyHero(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const phrase = reflectPronouns(raw.replace(/[.!?]+$/, '').replace(/\s+(?:please|for me|tonight|today|now)\b.*$/, '').trim());
  const words = phrase.split(' ').filter(Boolean);
  if (words.length === 0 || words.length > 6) return undefined;
  // "The story of your life" is about the avatar: it tells one of its own instead.
  if (/^(?:my|me|myself|i)$/.test(words[0]!)) return undefined;
  if (/^(?:a|an|the|some|your|our|his|her|their)$/.test(words[0]!)) return phrase.replace(/^the /, 'a ');
  if (words.length === 1 && /[^s]s$/.test(phrase)) return `a family of ${phrase}`;
  return `${/^[aeiou]/.test(phrase) ? 'an' : 'a'} ${phrase}`;
}

function feelingOf(t: string): Intent | undefined {
  const match = FEELING.exec(t) ?? SHORT_FEELING.exec(t);
  if (!match) return undefined;
  const word = match[1]!;
  const negative = new RegExp(`^${NEGATIVE}$`).test(word);
  return { kind: 'feeling', mood: negative ? 'negative' : 'positive', word };
}
