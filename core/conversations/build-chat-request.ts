import type { Avatar } from '../avatars/avatar.js';
import type { Persona } from '../personas/persona.js';
import type { ChatRequest, Character } from '../providers/chat-model.js';
import type { ConversationRecord, MessageRecord } from '../ports/store.js';
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
  const messages = history
    .filter((m) => m.content.trim() !== '')
    .slice(-Limits.historyMessages)
    .map((m) => ({ role: m.role, content: m.content }));
  return { system, messages, character, signal };
}
