import type { Avatar } from '../avatars/avatar.js';
import type { Persona } from '../personas/persona.js';
import type { ChatRequest, Character } from '../providers/chat-model.js';
import type { ConversationRecord, MessageRecord, SafetyCode } from '../ports/store.js';
import { maskProfanity } from '../safety/profanity-filter.js';
import { Limits } from '../text-limits.js';

export interface ChatContext {
  conversation: ConversationRecord;
  avatar: Avatar;
  persona: Persona | undefined;
  /** Stored messages, oldest first, ending with the new user message. */
  history: readonly MessageRecord[];
  signal: AbortSignal;
}

/**
 * What the AI provider receives: the avatar and persona in the system slot (vendors read prose;
 * the offline engine reads `character`), then the most recent turns of the conversation.
 */
export function buildChatRequest({ conversation, avatar, persona, history, signal }: ChatContext): ChatRequest {
  const character: Character = {
    name: avatar.name,
    description: avatar.description,
    personality: avatar.traits.personality,
    speakingStyle: avatar.traits.speakingStyle,
    ...(persona && {
      persona: {
        id: persona.id,
        name: persona.name,
        vertical: persona.vertical,
        description: persona.description,
        greeting: persona.greeting,
      },
    }),
  };
  const system = [
    `You are ${avatar.name}, a 3D avatar people talk with by voice. ${avatar.description}`,
    `Personality: ${avatar.traits.personality} Speaking style: ${avatar.traits.speakingStyle}`,
    persona?.systemPrompt,
    conversation.systemPrompt,
    'Your replies are spoken aloud: answer in a few short sentences of plain text, with no markdown, lists or emoji.',
  ]
    .filter(Boolean)
    .join('\n\n');
  const messages = visibleHistory(history)
    .slice(-Limits.historyMessages)
    .map((m) => ({ role: m.role, content: m.role === 'user' ? modelView(m) : m.content }));
  return { system, messages, character, signal };
}

/**
 * The turns the AI may see. A user's message the safety checks withheld (blocked or handed to a
 * person) never reaches the AI, not even later as history, and neither does the scripted answer
 * it got; empty messages carry nothing.
 */
function visibleHistory(history: readonly MessageRecord[]): MessageRecord[] {
  const visible: MessageRecord[] = [];
  let skipAnswer = false;
  for (const message of history) {
    if (message.role === 'user') {
      skipAnswer = message.safety.some((code) => WITHHELD.has(code));
      if (skipAnswer) continue;
    } else if (skipAnswer) {
      skipAnswer = false;
      continue;
    }
    if (message.content.trim() !== '') visible.push(message);
  }
  return visible;
}

/** Codes that keep a user's message from the AI; `filter_triggered` alone only masks it. */
const WITHHELD: ReadonlySet<SafetyCode> = new Set(['severe_content', 'escalation_requested', 'topic_blocked', 'moderation_flagged']);

/** What the AI sees of a user's message: profanity masked when the filter fired on it. */
function modelView(message: MessageRecord): string {
  return message.safety.includes('filter_triggered') ? (maskProfanity(message.content) ?? message.content) : message.content;
}
