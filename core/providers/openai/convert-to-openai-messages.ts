import type { ChatRequest } from '../chat-model.js';
import type { OpenAIChatMessage } from './openai-api-types.js';

/**
 * The request's system text and turns as Chat Completions messages: the persona and the
 * conversation's system prompt go first, as one `system` message (OpenAI's system slot).
 * Empty turns are dropped; OpenAI accepts consecutive turns of the same role as they are.
 */
export function convertToOpenAIMessages(request: Pick<ChatRequest, 'system' | 'messages'>): OpenAIChatMessage[] {
  const messages: OpenAIChatMessage[] = [];
  if (request.system?.trim()) messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) {
    if (message.content.trim() === '') continue;
    messages.push({ role: message.role, content: message.content });
  }
  return messages;
}
