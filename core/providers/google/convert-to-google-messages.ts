import type { ChatRequest } from '../chat-model.js';
import type { GoogleContent, GoogleRequestBody } from './google-api-types.js';

/**
 * The request as Gemini `contents` plus `systemInstruction` (Gemini's system slot). Gemini calls
 * the assistant `model`; empty turns are dropped and consecutive turns of one role joined, since
 * multi-turn requests must alternate.
 */
export function convertToGoogleMessages(
  request: Pick<ChatRequest, 'system' | 'messages'>,
): Pick<GoogleRequestBody, 'contents' | 'systemInstruction'> {
  const contents: GoogleContent[] = [];
  for (const message of request.messages) {
    if (message.content.trim() === '') continue;
    const role = message.role === 'assistant' ? 'model' : 'user';
    const last = contents[contents.length - 1];
    if (last && last.role === role) last.parts.push({ text: message.content });
    else contents.push({ role, parts: [{ text: message.content }] });
  }
  return {
    contents,
    ...(request.system?.trim() ? { systemInstruction: { parts: [{ text: request.system }] } } : {}),
  };
}
