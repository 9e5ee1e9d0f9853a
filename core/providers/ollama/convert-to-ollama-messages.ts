import type { ChatRequest } from '../chat-model.js';
import type { OllamaMessage } from './ollama-api-types.js';

/**
 * The request as `/api/chat` messages: the system text first as a `system` message (Ollama's
 * system slot, which replaces the model's built-in system prompt), then the turns; empty turns
 * are dropped.
 */
export function convertToOllamaMessages(request: Pick<ChatRequest, 'system' | 'messages'>): OllamaMessage[] {
  const messages: OllamaMessage[] = [];
  if (request.system?.trim()) messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) {
    if (message.content.trim() !== '') messages.push({ role: message.role, content: message.content });
  }
  return messages;
}
