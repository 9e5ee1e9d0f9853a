import type { ChatRequest } from '../chat-model.js';
import { readVoice } from './character-voice.js';
import { readConversationMemory } from './conversation-memory.js';
import type { DetectedMessage } from './detect-intent.js';
import { detectIntent } from './detect-intent.js';
import type { LocalProviderSettings } from './local-provider-settings.js';
import { createPhrasePicker, hashString } from './phrase-picker.js';
import { composeReply } from './replies/reply-by-intent.js';
import type { ReplyContext } from './replies/reply-context.js';
import { tonePhrases } from './tone-phrases.js';
import { verticalGuide } from './vertical-guides.js';

/** How many alternative seeds are tried when a reply would repeat an earlier one word for word. */
const MAX_REROLLS = 6;

/**
 * The whole reply of the offline engine to `request`, as plain text. A pure function of the
 * request's messages and character plus the settings' seed (and clock, for time questions):
 * the same inputs always give the same words, and a repeated question gets different words because
 * phrasings already said in the history are avoided.
 */
export function composeLocalReply(request: ChatRequest, settings: LocalProviderSettings = {}, modelId = 'local-companion'): string {
  const memory = readConversationMemory(request.messages);
  const voice = readVoice(request.character);
  const message: DetectedMessage =
    request.messages.length === 0 ? { intent: { kind: 'greeting' }, greeted: false } : detectIntent(memory.current, memory.previousAssistant);
  const baseSeed = conversationSeed(request, settings.seed ?? 0, modelId);
  const alreadySaid = memory.assistantTexts;
  let text = '';
  for (let attempt = 0; attempt < MAX_REROLLS; attempt++) {
    const pick = createPhrasePicker({ seed: hashString(`attempt:${attempt}`, baseSeed), alreadySaid, greedy: request.temperature === 0 });
    const ctx: ReplyContext = {
      voice,
      guide: verticalGuide(voice.vertical),
      tone: tonePhrases(voice.tone),
      memory,
      message,
      pick,
      clock: settings.clock,
      timeZone: settings.timeZone ?? 'UTC',
      firstTurn: memory.assistantTexts.length === 0,
      useName: pick.chance(0.5),
    };
    text = composeReply(ctx);
    if (!alreadySaid.includes(text)) break;
  }
  return text;
}

/** Folds everything that defines the conversation into one 32-bit seed. */
function conversationSeed(request: ChatRequest, seed: number, modelId: string): number {
  let hash = hashString(`${modelId}:${seed}`);
  const character = request.character;
  if (character !== undefined) hash = hashString(`${character.name}|${character.persona?.id ?? ''}|${character.personality}`, hash);
  for (const message of request.messages) hash = hashString(`${message.role}:${message.content}\u0000`, hash);
  return hashString(String(request.messages.length), hash);
}
