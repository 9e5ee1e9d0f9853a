import assert from 'node:assert/strict';
import { it } from 'node:test';
import { capReplyLength } from '../../../core/providers/cap-reply-length.js';
import type { ChatStreamPart } from '../../../core/providers/chat-model.js';

async function* parts(...list: ChatStreamPart[]): AsyncGenerator<ChatStreamPart> {
  yield* list;
}

async function collect(stream: AsyncIterable<ChatStreamPart>): Promise<ChatStreamPart[]> {
  const out: ChatStreamPart[] = [];
  for await (const part of stream) out.push(part);
  return out;
}

const request = { messages: [{ role: 'user' as const, content: 'hi' }] };
const finish: ChatStreamPart = { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 2 } };

it("drops a model's NUL characters (no storage engine keeps them) and keeps everything else", async () => {
  const out = await collect(capReplyLength(parts({ type: 'text-delta', delta: 'a\u0000b' }, { type: 'text-delta', delta: '\u0000\u0000' }, { type: 'text-delta', delta: 'c' }, finish), request, 100));
  const text = out.flatMap((p) => (p.type === 'text-delta' ? [p.delta] : [])).join('');
  assert.equal(text, 'abc');
  assert.deepEqual(out.at(-1), finish);
});

it('counts the cap without the dropped NULs', async () => {
  const out = await collect(capReplyLength(parts({ type: 'text-delta', delta: '\u0000'.repeat(10) + 'abcdef' }, finish), request, 4));
  const text = out.flatMap((p) => (p.type === 'text-delta' ? [p.delta] : [])).join('');
  assert.equal(text, 'abcd');
  assert.equal((out.at(-1) as { finishReason: string }).finishReason, 'length');
});
