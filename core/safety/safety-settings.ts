/**
 * A persona's conversation-safety settings: topics the avatar must not discuss, the profanity
 * filter level, and whether (and with what message) a conversation escalates to a human. Clients
 * send them in the snake_case wire shape; {@link parseSafetySettings} validates that shape and
 * returns the camelCase settings the safety checks read.
 */
import { ValidationError } from '../errors.js';
import type { BlockedTopic, SafetyFilterLevel, SafetySettings } from '../ports/store.js';
import { words } from './phrase-match.js';

export type { BlockedTopic, SafetyFilterLevel, SafetySettings };

export const SafetyFilterLevels: readonly SafetyFilterLevel[] = ['off', 'standard', 'strict'];

/** Limits of the wire input, kept here so docs and errors quote one source. */
export const SAFETY_LIMITS = {
  maxTopics: 20,
  maxTopicNameChars: 64,
  maxKeywords: 50,
  maxKeywordChars: 80,
  maxMessageChars: 500,
} as const;

/** Deep-freezes settings so shared defaults and parsed results cannot be changed by a caller. */
function freezeSettings(settings: SafetySettings): SafetySettings {
  for (const topic of settings.blockedTopics) {
    Object.freeze(topic.keywords);
    Object.freeze(topic);
  }
  Object.freeze(settings.blockedTopics);
  Object.freeze(settings.escalation);
  return Object.freeze(settings);
}

/** No blocked topics, the standard filter, escalation on with a polite hand-off message, a polite refusal. */
export const DEFAULT_SAFETY: SafetySettings = freezeSettings({
  blockedTopics: [],
  filter: 'standard',
  escalation: {
    enabled: true,
    message: "I'm connecting you with a member of our team who can help further. Please hold on a moment.",
  },
  refusal: "I'm sorry, but that's not something I can help with here. Is there anything else I can do for you?",
});

type WireObject = Record<string, unknown>;

function isObject(value: unknown): value is WireObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Requires a plain object holding only the allowed keys; names the first unknown key. */
function objectWithKeys(value: unknown, field: string, allowed: readonly string[]): WireObject {
  if (!isObject(value)) throw new ValidationError(field, `${field} must be an object`);
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      throw new ValidationError(`${field}.${key}`, `${field}.${key} is not a known setting (allowed: ${allowed.join(', ')})`);
    }
  }
  return value;
}

/** A trimmed string of min–max characters. */
function boundedString(value: unknown, field: string, min: number, max: number): string {
  if (typeof value !== 'string') throw new ValidationError(field, `${field} must be a string`);
  const trimmed = value.trim();
  if (trimmed.length < min || trimmed.length > max) {
    throw new ValidationError(field, `${field} must be ${min}–${max} characters, got ${trimmed.length}`);
  }
  return trimmed;
}

function parseTopic(value: unknown, field: string): BlockedTopic {
  const raw = objectWithKeys(value, field, ['name', 'keywords']);
  const name = boundedString(raw['name'], `${field}.name`, 1, SAFETY_LIMITS.maxTopicNameChars);
  const keywordsField = `${field}.keywords`;
  const list = raw['keywords'];
  if (!Array.isArray(list) || list.length < 1 || list.length > SAFETY_LIMITS.maxKeywords) {
    throw new ValidationError(keywordsField, `${keywordsField} must be a list of 1–${SAFETY_LIMITS.maxKeywords} keywords`);
  }
  const keywords = list.map((item: unknown, i) => {
    const itemField = `${keywordsField}[${i}]`;
    const keyword = boundedString(item, itemField, 1, SAFETY_LIMITS.maxKeywordChars);
    // A keyword with no letter or digit could never match a word; refusing it avoids a silent no-op.
    if (words(keyword).length === 0) throw new ValidationError(itemField, `${itemField} must contain a letter or digit`);
    return keyword;
  });
  return { name, keywords };
}

function parseTopics(value: unknown): BlockedTopic[] {
  const field = 'safety.blocked_topics';
  if (!Array.isArray(value)) throw new ValidationError(field, `${field} must be a list`);
  if (value.length > SAFETY_LIMITS.maxTopics) {
    throw new ValidationError(field, `${field} allows at most ${SAFETY_LIMITS.maxTopics} topics, got ${value.length}`);
  }
  return value.map((topic: unknown, i) => parseTopic(topic, `${field}[${i}]`));
}

function parseFilter(value: unknown): SafetyFilterLevel {
  const field = 'safety.filter';
  const level = SafetyFilterLevels.find((l) => l === value);
  if (level === undefined) {
    throw new ValidationError(field, `${field} must be one of ${SafetyFilterLevels.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return level;
}

function parseEscalation(value: unknown, defaults: SafetySettings['escalation']): SafetySettings['escalation'] {
  const field = 'safety.escalation';
  const raw = objectWithKeys(value, field, ['enabled', 'message']);
  let { enabled, message } = defaults;
  if (raw['enabled'] !== undefined) {
    if (typeof raw['enabled'] !== 'boolean') throw new ValidationError(`${field}.enabled`, `${field}.enabled must be true or false`);
    enabled = raw['enabled'];
  }
  if (raw['message'] !== undefined) {
    message = boundedString(raw['message'], `${field}.message`, 1, SAFETY_LIMITS.maxMessageChars);
  }
  return { enabled, message };
}

/**
 * Parses client input in the wire shape
 * `{ blocked_topics?: [{ name, keywords }], filter?, escalation?: { enabled?, message? }, refusal? }`
 * over `defaults`: a given `blocked_topics` or `filter` replaces the default, escalation fields
 * override one by one. `undefined` or `null` yields the defaults. Strings are trimmed. Throws a
 * {@link ValidationError} naming the faulty field (e.g. `safety.blocked_topics[0].keywords`);
 * unknown keys are refused by name so a typo never silently disables a setting.
 */
export function parseSafetySettings(input: unknown, defaults: SafetySettings = DEFAULT_SAFETY): SafetySettings {
  if (input === undefined || input === null) return defaults;
  const raw = objectWithKeys(input, 'safety', ['blocked_topics', 'filter', 'escalation', 'refusal']);
  return freezeSettings({
    blockedTopics:
      raw['blocked_topics'] === undefined
        ? defaults.blockedTopics.map((t) => ({ name: t.name, keywords: [...t.keywords] }))
        : parseTopics(raw['blocked_topics']),
    filter: raw['filter'] === undefined ? defaults.filter : parseFilter(raw['filter']),
    escalation: raw['escalation'] === undefined ? { ...defaults.escalation } : parseEscalation(raw['escalation'], defaults.escalation),
    refusal: raw['refusal'] === undefined ? defaults.refusal : boundedString(raw['refusal'], 'safety.refusal', 1, SAFETY_LIMITS.maxMessageChars),
  });
}
