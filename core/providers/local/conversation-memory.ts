import type { ChatMessage } from '../chat-model.js';
import type { Intent } from './detect-intent.js';
import { detectIntent } from './detect-intent.js';
import { extractUserFacts } from './extract-user-facts.js';

/** One earlier user turn, with what it was read as. */
export interface PastTurn {
  readonly text: string;
  readonly intent: Intent;
}

/**
 * What the engine remembers, rebuilt from the message history on every request. The engine keeps no
 * state between calls: the history is the memory, so two conversations can never leak into each
 * other and a restarted server remembers exactly what the stored conversation says.
 */
export interface ConversationMemory {
  /** The latest name the user gave ("call me Sam" after "I'm Samuel" wins). */
  readonly userName: string | undefined;
  /** Things the user said they like, oldest first, reflected ("your dog"). */
  readonly likes: readonly string[];
  readonly dislikes: readonly string[];
  readonly location: string | undefined;
  /** Topics raised before the newest message, oldest first, without repeats. */
  readonly earlierTopics: readonly string[];
  /** The user's turns before the newest one, oldest first. */
  readonly earlierTurns: readonly PastTurn[];
  /** The newest user message ('' when the history does not end with one). */
  readonly current: string;
  /** Everything the assistant said so far, oldest first. */
  readonly assistantTexts: readonly string[];
  readonly previousAssistant: string | undefined;
}

/** How many of the most recent messages are read; keeps very long histories cheap. */
export const MEMORY_WINDOW = 200;

function addUnique(list: string[], value: string): void {
  const key = value.toLowerCase();
  const existing = list.findIndex((item) => item.toLowerCase() === key);
  if (existing >= 0) list.splice(existing, 1);
  list.push(value);
}

/** Reads a {@link ConversationMemory} from the history (oldest first, newest user message last). */
export function readConversationMemory(messages: readonly ChatMessage[]): ConversationMemory {
  const window = messages.slice(-MEMORY_WINDOW);
  const last = window[window.length - 1];
  const current = last?.role === 'user' ? last.content : '';
  const earlier = last?.role === 'user' ? window.slice(0, -1) : window;

  let userName: string | undefined;
  let location: string | undefined;
  const likes: string[] = [];
  const dislikes: string[] = [];
  const earlierTopics: string[] = [];
  const earlierTurns: PastTurn[] = [];
  const assistantTexts: string[] = [];
  let previousAssistant: string | undefined;

  const absorb = (text: string): ReturnType<typeof extractUserFacts> => {
    const facts = extractUserFacts(text);
    if (facts.name !== undefined) userName = facts.name;
    if (facts.location !== undefined) location = facts.location;
    for (const like of facts.likes) addUnique(likes, like);
    for (const dislike of facts.dislikes) addUnique(dislikes, dislike);
    return facts;
  };

  for (const message of earlier) {
    if (message.role === 'assistant') {
      assistantTexts.push(message.content);
      previousAssistant = message.content;
      continue;
    }
    const facts = absorb(message.content);
    const { intent } = detectIntent(message.content, previousAssistant);
    earlierTurns.push({ text: message.content, intent });
    const topic = 'topic' in intent && typeof intent.topic === 'string' ? intent.topic : facts.topic;
    if (topic !== undefined && isRememberedTopic(intent)) addUnique(earlierTopics, topic);
    for (const like of facts.likes) addUnique(earlierTopics, like);
  }
  if (current.length > 0) absorb(current);

  return Object.freeze({
    userName,
    likes: Object.freeze(likes),
    dislikes: Object.freeze(dislikes),
    location,
    earlierTopics: Object.freeze(earlierTopics),
    earlierTurns: Object.freeze(earlierTurns),
    current,
    assistantTexts: Object.freeze(assistantTexts),
    previousAssistant,
  });
}

/** Topics worth bringing back later: what people asked about, not what they asked us to recall. */
function isRememberedTopic(intent: Intent): boolean {
  return intent.kind === 'help' || intent.kind === 'health' || intent.kind === 'question' || intent.kind === 'preference';
}
