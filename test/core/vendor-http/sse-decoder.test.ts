import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SseEvent } from '../../../core/vendor-http/sse-decoder.js';
import { decodeSse, SseDecoder } from '../../../core/vendor-http/sse-decoder.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

function decodeInPieces(bytes: Uint8Array, cuts: readonly number[]): SseEvent[] {
  const decoder = new SseDecoder();
  const events: SseEvent[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    events.push(...decoder.push(bytes.subarray(from, cut)));
    from = cut;
  }
  events.push(...decoder.end());
  return events;
}

// Every line-ending style, a comment, a named event, multi-line data, an id, a field without a
// colon, and multi-byte characters (2, 3 and 4 bytes in UTF-8).
const stream =
  ': keep-alive comment\n' +
  'event: message_start\ndata: {"a":"café"}\n\n' +
  'data: first line\r\ndata:second line\r\n\r\n' +
  'id: 7\revent: ping\rdata: ½ — 🙂\r\r' +
  'data\n\n' +
  'retry: 3000\nevent: unknown_field_test\nfoo: bar\ndata: x\n\n';

const expected: SseEvent[] = [
  { event: 'message_start', data: '{"a":"café"}' },
  { event: 'message', data: 'first line\nsecond line' },
  { event: 'ping', data: '½ — 🙂', id: '7' },
  { event: 'message', data: '', id: '7' },
  { event: 'unknown_field_test', data: 'x', id: '7' },
];

describe('SseDecoder', () => {
  it('decodes LF, CRLF and CR line endings, comments, names, ids and multi-line data', () => {
    assert.deepEqual(decodeInPieces(encode(stream), []), expected);
  });

  it('gives the same events for every single cut point (mid-UTF-8, mid-field, between CR and LF)', () => {
    const bytes = encode(stream);
    for (let cut = 1; cut < bytes.length; cut++) {
      assert.deepEqual(decodeInPieces(bytes, [cut]), expected, `cut at byte ${cut}`);
    }
  });

  it('gives the same events when fed one byte at a time', () => {
    const bytes = encode(stream);
    assert.deepEqual(
      decodeInPieces(bytes, Array.from({ length: bytes.length - 1 }, (_, i) => i + 1)),
      expected,
    );
  });

  it('dispatches a final event that lacks its blank line, and drops one without data', () => {
    assert.deepEqual(decodeInPieces(encode('data: [DONE]'), []), [{ event: 'message', data: '[DONE]' }]);
    assert.deepEqual(decodeInPieces(encode('event: lonely\n'), []), []);
  });

  it('strips a leading byte order mark', () => {
    assert.deepEqual(decodeInPieces(encode('\uFEFFdata: x\n\n'), []), [{ event: 'message', data: 'x' }]);
  });

  it('does not treat a CR at a chunk end followed by data as CRLF', () => {
    assert.deepEqual(decodeInPieces(encode('data: a\r\rdata: b\r\r'), [8]), [
      { event: 'message', data: 'a' },
      { event: 'message', data: 'b' },
    ]);
  });

  it('decodes an async sequence of chunks', async () => {
    async function* chunks(): AsyncGenerator<Uint8Array> {
      const bytes = encode(stream);
      for (let i = 0; i < bytes.length; i += 3) yield bytes.subarray(i, i + 3);
    }
    const events: SseEvent[] = [];
    for await (const event of decodeSse(chunks())) events.push(event);
    assert.deepEqual(events, expected);
  });
});
