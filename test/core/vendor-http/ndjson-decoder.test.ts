import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeNdjson, NdjsonDecoder } from '../../../core/vendor-http/ndjson-decoder.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const body = '{"message":{"content":"Café"}}\n\n{"message":{"content":" ½ 🙂"}}\r\n{"done":true}';
const expected = ['{"message":{"content":"Café"}}', '{"message":{"content":" ½ 🙂"}}', '{"done":true}'];

function decodeAt(cut: number): string[] {
  const bytes = encode(body);
  const decoder = new NdjsonDecoder();
  return [...decoder.push(bytes.subarray(0, cut)), ...decoder.push(bytes.subarray(cut)), ...decoder.end()];
}

describe('NdjsonDecoder', () => {
  it('returns complete lines, skipping blank ones, stripping CR, keeping a last line without newline', () => {
    assert.deepEqual(decodeAt(0), expected);
  });

  it('gives the same lines for every cut point, including inside multi-byte characters', () => {
    for (let cut = 1; cut < encode(body).length; cut++) assert.deepEqual(decodeAt(cut), expected, `cut at ${cut}`);
  });

  it('decodes an async sequence of chunks', async () => {
    async function* chunks(): AsyncGenerator<Uint8Array> {
      for (const byte of encode(body)) yield Uint8Array.of(byte);
    }
    const lines: string[] = [];
    for await (const line of decodeNdjson(chunks())) lines.push(line);
    assert.deepEqual(lines, expected);
  });
});
