import type { ChatRequest } from '../chat-model.js';
import type { AnthropicMessage } from './anthropic-api-types.js';

/**
 * Stands in for the user's side when a conversation opens with the avatar speaking (a stored
 * greeting): the Messages API wants the first turn to be the user's.
 */
export const CONVERSATION_OPENER = '(The conversation begins.)';

/**
 * The request's turns as Messages API messages. The system text does not go here but into the
 * top-level `system` field (Anthropic's system slot). Empty turns are dropped (the API rejects
 * empty text blocks), consecutive turns of one role are joined, and a conversation that starts
 * with the assistant gets a neutral user opener first.
 */
export function convertToAnthropicMessages(request: Pick<ChatRequest, 'messages'>): AnthropicMessage[] {
  const messages: AnthropicMessage[] = [];
  for (const message of request.messages) {
    if (message.content.trim() === '') continue;
    const last = messages[messages.length - 1];
    if (last && last.role === message.role) {
      last.content = `${last.content}\n\n${message.content}`;
    } else {
      if (!last && message.role === 'assistant') messages.push({ role: 'user', content: CONVERSATION_OPENER });
      messages.push({ role: message.role, content: message.content });
    }
  }
  return messages;
}
