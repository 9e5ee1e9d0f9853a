/**
 * The safety checks of a conversation, as pure functions: one for a user's message before it
 * reaches the AI, one for each sentence of a reply before it is spoken. They hold no state; the
 * caller passes the persona's {@link SafetySettings} and, for frustration, the recent user messages.
 *
 * Phrase lists below are deliberately short and explicit (see phrase-match.ts for how they match);
 * profanity comes from obscenity's maintained word list (profanity-filter.ts).
 */
import type { BlockedTopic, SafetySettings } from './safety-settings.js';
import { compilePhrases, firstOccurring, words } from './phrase-match.js';
import type { CompiledPhrase } from './phrase-match.js';
import { maskProfanity } from './profanity-filter.js';
import type { ModerationResult } from './moderation.js';
import { isSevereCategory } from './moderation.js';

import type { EscalationReason, SafetyCode } from '../ports/store.js';

export type { EscalationReason, SafetyCode };

export interface SafetyVerdict {
  /** Every check that fired, in the order of {@link SafetyCode}. */
  codes: SafetyCode[];
  /** The blocked topic's name, when one matched. */
  topic?: string;
  /** The filter's masked text (profanity replaced by asterisks), when the filter fired. */
  masked?: string;
  /** Set when the action is 'escalate'. */
  escalationReason?: EscalationReason;
  /** The vendor moderation categories that fired, when a moderation check flagged the message. */
  moderationCategories?: string[];
  /**
   * What the caller should do: 'allow'; 'block' (a blocked topic, or severe content with escalation
   * disabled); 'mask' (profanity, standard level — and any level for user messages, whose masked
   * text is what the model sees); 'replace' (profanity in a reply at strict: drop the sentence);
   * 'escalate' (hand off to a human). The strongest fired action wins.
   */
  action: 'allow' | 'block' | 'mask' | 'replace' | 'escalate';
}

/** "talk to a person"-style requests: a verb, a preposition, then who the user wants. */
const ASK_VERBS = ['talk', 'speak', 'chat', 'connect me', 'transfer me', 'put me through'];
const ASK_PREPOSITIONS = ['to', 'with'];
const ASK_TARGETS = [
  'a person', 'a real person', 'a live person', 'a human', 'a real human', 'a human being', 'someone', 'somebody',
  'someone real', 'an agent', 'a live agent', 'a human agent', 'a real agent', 'a representative', 'a rep',
  'a manager', 'your manager', 'the manager', 'a supervisor', 'your supervisor', 'an operator', 'customer service', 'support staff',
];
/** Requests that need no verb ("real person please", "agent please"). */
const ASK_STANDALONE = [
  'real person', 'real human', 'human agent', 'live agent', 'live person', 'agent please', 'representative please',
  'operator please', 'human please', 'customer service representative', 'customer service rep',
];

const HUMAN_REQUESTS: readonly CompiledPhrase[] = compilePhrases([
  ...ASK_VERBS.flatMap((verb) => ASK_PREPOSITIONS.flatMap((prep) => ASK_TARGETS.map((target) => `${verb} ${prep} ${target}`))),
  ...ASK_STANDALONE,
]);

/**
 * Severe content: threats and self-harm. Always reported (code 'severe_content'); escalates when
 * escalation is on, otherwise blocks. Phrases are chosen to avoid everyday uses: weapons are phrased
 * ("a bomb") so "the movie bombed" stays ordinary, and "hurt myself" needs "want to" before it so
 * "I hurt myself skiing" is not a crisis.
 */
const SEVERE: readonly CompiledPhrase[] = compilePhrases([
  'kill myself', 'killing myself', 'end my life', 'take my own life', 'want to die', 'wanna die', 'suicide', 'suicidal',
  'want to hurt myself', 'harm myself', 'self harm', 'hurt someone', 'kill someone', 'kill you', 'kill him',
  'kill her', 'kill them', 'shoot someone', 'a bomb', 'bomb threat',
]);

/** Frustration markers; repeated frustration escalates (see {@link FRUSTRATION_WINDOW}). */
const FRUSTRATION: readonly CompiledPhrase[] = compilePhrases([
  'this is useless', 'you are useless', 'you re useless', 'not helping', 'not what i asked', 'not what i said',
  'ugh', 'argh', 'are you even listening', 'you don t understand', 'this is ridiculous', 'waste of time',
  'for the last time', 'i already told you', 'stupid bot', 'useless bot',
]);

/** This message plus at least `FRUSTRATION_MIN_RECENT` of the last `FRUSTRATION_WINDOW` must be frustrated. */
const FRUSTRATION_WINDOW = 3;
const FRUSTRATION_MIN_RECENT = 2;
/** Shouting: at least this many capital letters, and at least 80 % of the cased letters capitals. */
const SHOUT_MIN_CAPITALS = 12;

function isShouting(text: string): boolean {
  const upper = text.match(/\p{Lu}/gu)?.length ?? 0;
  const lower = text.match(/\p{Ll}/gu)?.length ?? 0;
  return upper >= SHOUT_MIN_CAPITALS && upper >= 0.8 * (upper + lower);
}

/** Whether a message carries a frustration marker: a phrase, "!!!" or more, or shouting. */
export function isFrustrated(text: string): boolean {
  return /!{3,}/.test(text) || isShouting(text) || firstOccurring(FRUSTRATION, words(text)) !== undefined;
}

function repeatedFrustration(text: string, recent: readonly string[]): boolean {
  if (!isFrustrated(text)) return false;
  return recent.slice(-FRUSTRATION_WINDOW).filter(isFrustrated).length >= FRUSTRATION_MIN_RECENT;
}

/** Compiled per call: topics come from settings, and compiling a few dozen keywords is cheap. */
function matchTopic(topics: readonly BlockedTopic[], textWords: readonly string[]): string | undefined {
  return topics.find((t) => firstOccurring(compilePhrases(t.keywords), textWords) !== undefined)?.name;
}

const ACTION_RANK: Record<SafetyVerdict['action'], number> = { allow: 0, mask: 1, replace: 2, block: 3, escalate: 4 };

/** Builds a verdict from the checks that fired; the strongest action wins. */
function verdict(fired: { code: SafetyCode; action: SafetyVerdict['action'] }[], topic?: string, masked?: string): SafetyVerdict {
  let action: SafetyVerdict['action'] = 'allow';
  for (const f of fired) if (ACTION_RANK[f.action] > ACTION_RANK[action]) action = f.action;
  const result: SafetyVerdict = { codes: fired.map((f) => f.code), action };
  if (topic !== undefined) result.topic = topic;
  if (masked !== undefined) result.masked = masked;
  return result;
}

/**
 * Checks a user's message before it reaches the AI. Severe content is always reported and
 * escalates (blocks when escalation is off). With escalation on, a request for a human, or this
 * message being frustrated along with at least 2 of the last 3 `recentUserMessages` (oldest
 * first, excluding this one), escalates; with it off they pass as ordinary messages. A blocked
 * topic blocks. Profanity at 'standard' or 'strict' is masked in what the model sees.
 */
export function checkUserMessage(text: string, settings: SafetySettings, recentUserMessages: readonly string[] = []): SafetyVerdict {
  const textWords = words(text);
  const escalate = settings.escalation.enabled;
  const fired: { code: SafetyCode; action: SafetyVerdict['action'] }[] = [];
  let reason: EscalationReason | undefined;
  if (firstOccurring(SEVERE, textWords) !== undefined) {
    fired.push({ code: 'severe_content', action: escalate ? 'escalate' : 'block' });
    reason = 'severe_content';
  }
  if (escalate) {
    const requested = firstOccurring(HUMAN_REQUESTS, textWords) !== undefined;
    if (requested || repeatedFrustration(text, recentUserMessages)) {
      fired.push({ code: 'escalation_requested', action: 'escalate' });
      reason ??= requested ? 'requested' : 'frustration';
    }
  }
  const topic = matchTopic(settings.blockedTopics, textWords);
  if (topic !== undefined) fired.push({ code: 'topic_blocked', action: 'block' });
  const masked = settings.filter === 'off' ? undefined : maskProfanity(text);
  if (masked !== undefined) fired.push({ code: 'filter_triggered', action: 'mask' });
  const result = verdict(fired, topic, masked);
  if (result.action === 'escalate' && reason !== undefined) result.escalationReason = reason;
  return result;
}

/**
 * Adds a vendor moderation result to a user message's verdict. A flag in a severe category (self-harm,
 * threats…) counts as severe content — escalated when escalation is on, blocked otherwise; any
 * other flag blocks the message (`moderation_flagged`: it never reaches the AI). At filter level
 * 'off' only severe categories count.
 */
export function withModeration(base: SafetyVerdict, result: ModerationResult, settings: SafetySettings): SafetyVerdict {
  if (!result.flagged) return base;
  const severe = result.categories.some(isSevereCategory);
  if (!severe && settings.filter === 'off') return base;
  const escalate = severe && settings.escalation.enabled;
  const code: SafetyCode = severe ? 'severe_content' : 'moderation_flagged';
  const action: SafetyVerdict['action'] = escalate ? 'escalate' : 'block';
  const codes = base.codes.includes(code) ? base.codes : [...base.codes, code];
  const merged: SafetyVerdict = {
    ...base,
    codes: SAFETY_CODE_ORDER.filter((c) => codes.includes(c)),
    action: ACTION_RANK[action] > ACTION_RANK[base.action] ? action : base.action,
    moderationCategories: result.categories,
  };
  if (merged.action === 'escalate') merged.escalationReason ??= 'severe_content';
  return merged;
}

/** Codes in the order verdicts and stored messages list them. */
export const SAFETY_CODE_ORDER: readonly SafetyCode[] = ['severe_content', 'escalation_requested', 'topic_blocked', 'moderation_flagged', 'filter_triggered'];

/**
 * Checks one sentence of a reply before it is spoken: a blocked topic blocks; profanity is
 * masked at 'standard' and replaced (the sentence dropped for a fallback) at 'strict'. Replies
 * never escalate: escalation is decided on what the user says.
 */
export function checkReplySentence(sentence: string, settings: SafetySettings): SafetyVerdict {
  const fired: { code: SafetyCode; action: SafetyVerdict['action'] }[] = [];
  const topic = matchTopic(settings.blockedTopics, words(sentence));
  if (topic !== undefined) fired.push({ code: 'topic_blocked', action: 'block' });
  const masked = settings.filter === 'off' ? undefined : maskProfanity(sentence);
  if (masked !== undefined) fired.push({ code: 'filter_triggered', action: settings.filter === 'strict' ? 'replace' : 'mask' });
  return verdict(fired, topic, masked);
}
