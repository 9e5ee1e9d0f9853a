import type { ChatRequest, ChatStreamPart } from './chat-model.js';
import { estimateInputTokens, estimateTokens } from './token-count.js';

/**
 * Ends a reply stream at `maxChars` characters, like a model's own output limit: the text up to
 * the cap passes, then a `finish` part with reason `length` (usage estimated, as the vendor never
 * reported it), and the vendor's stream is closed. A model — or a hostile OpenAI-compatible
 * server — that never stops cannot grow a reply, its storage or a client's buffer without bound.
 * NUL characters (U+0000) are dropped from the text on the way.
 */
export async function* capReplyLength(parts: AsyncIterable<ChatStreamPart>, request: ChatRequest, maxChars: number): AsyncGenerator<ChatStreamPart> {
  let text = '';
  for await (const raw of parts) {
    // A model's NUL characters are dropped: PostgreSQL's text cannot store them, and no reader wants them.
    const part = raw.type === 'text-delta' && raw.delta.includes('\u0000') ? { ...raw, delta: raw.delta.replaceAll('\u0000', '') } : raw;
    if (part.type !== 'text-delta' || text.length + part.delta.length <= maxChars) {
      if (part.type === 'text-delta') text += part.delta;
      yield part;
      continue;
    }
    let room = maxChars - text.length;
    // Never split a surrogate pair.
    if (room > 0 && /[\uD800-\uDBFF]/.test(part.delta[room - 1]!)) room--;
    const rest = part.delta.slice(0, room);
    if (rest) yield { type: 'text-delta', delta: rest };
    text += rest;
    yield { type: 'finish', finishReason: 'length', usage: { inputTokens: estimateInputTokens(request), outputTokens: estimateTokens(text) } };
    return; // leaving the loop closes the vendor's stream
  }
}
