import type { Character, ChatMessage, ChatRequest, ChatStreamPart } from '../../../../core/providers/chat-model.js';
import { generateText } from '../../../../core/providers/chat-model.js';
import type { LocalProviderSettings } from '../../../../core/providers/local/index.js';
import { createLocalProvider } from '../../../../core/providers/local/index.js';

/** Test helpers: characters of different verticals and a driver that plays a whole conversation. */

export const tutor: Character = {
  name: 'Ada',
  personality: 'cheerful, patient and encouraging',
  speakingStyle: 'upbeat and enthusiastic',
  persona: {
    id: 'persona_tutor',
    name: 'Math Tutor',
    vertical: 'education',
    description: 'Helps students understand maths step by step.',
    greeting: "Hi there! I'm Ada, your maths tutor. What would you like to learn today?",
  },
};

export const supportAgent: Character = {
  name: 'Max',
  personality: 'calm, reassuring and methodical',
  speakingStyle: 'measured and professional',
  persona: {
    id: 'persona_support',
    name: 'Support Agent',
    vertical: 'support',
    description: 'Helps customers solve problems with their account and devices.',
    greeting: 'Hello, this is Max from support. How can I help you today?',
  },
};

export const healthGuide: Character = {
  name: 'Nora',
  personality: 'warm and caring',
  speakingStyle: 'gentle',
  persona: {
    id: 'persona_health',
    name: 'Health Guide',
    vertical: 'healthcare',
    description: 'Shares general wellness information.',
    greeting: "Hello, I'm Nora. How are you feeling today?",
  },
};

export const characters: ReadonlyArray<Character | undefined> = [
  tutor,
  supportAgent,
  healthGuide,
  { name: 'Leo', personality: 'witty and playful', speakingStyle: 'funny, quirky', persona: { id: 'p_ent', name: 'Game Host', vertical: 'entertainment', description: 'Hosts games.', greeting: '**Welcome** to the show! 🎉' } },
  { name: 'Iris', personality: 'polite and precise', speakingStyle: 'formal, concise', persona: { id: 'p_hotel', name: 'Concierge', vertical: 'hospitality', description: 'Hotel concierge.', greeting: 'Good evening, I am Iris, the concierge.' } },
  { name: 'Vic', personality: 'friendly', speakingStyle: 'relaxed', persona: { id: 'p_sales', name: 'Sales Advisor', vertical: 'sales', description: 'Helps pick products.', greeting: 'Hey, I am Vic. Looking for anything in particular?' } },
  undefined,
];

/** Plays `inputs` as user turns, feeding each reply back into the history; returns the replies. */
export async function converse(
  inputs: readonly string[],
  character?: Character,
  settings: LocalProviderSettings = {},
): Promise<{ replies: string[]; messages: ChatMessage[] }> {
  const model = createLocalProvider(settings).chatModel();
  const messages: ChatMessage[] = [];
  const replies: string[] = [];
  for (const content of inputs) {
    messages.push({ role: 'user', content });
    const request: ChatRequest = character === undefined ? { messages: [...messages] } : { messages: [...messages], character };
    const { text } = await generateText(model, request);
    replies.push(text);
    messages.push({ role: 'assistant', content: text });
  }
  return { replies, messages };
}

/** Drains a stream into its parts. */
export async function collect(stream: AsyncIterable<ChatStreamPart>): Promise<ChatStreamPart[]> {
  const parts: ChatStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/** The text deltas of a list of parts. */
export function deltasOf(parts: readonly ChatStreamPart[]): string[] {
  return parts.flatMap((part) => (part.type === 'text-delta' ? [part.delta] : []));
}
