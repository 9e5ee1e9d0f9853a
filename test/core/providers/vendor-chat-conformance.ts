import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { inspect } from 'node:util';
import type { ChatModel, ChatRequest, ChatStreamPart, FinishReason, TokenUsage } from '../../../core/providers/chat-model.js';
import { ProviderError } from '../../../core/errors.js';
import type { Sleep, VendorHttpSettings } from '../../../core/vendor-http/http-settings.js';
import { resolveUsage } from '../../../core/providers/token-count.js';
import { repoRoot } from '../../support/repo-root.js';
import type { ReplayResponse, ReplayServer } from '../../support/replay-server.js';
import { splitBytes, startReplayServer } from '../../support/replay-server.js';

/**
 * The conformance suite every vendor adapter runs against its replay server: the resilience
 * behaviour of core/vendor-http and providers/retrying-chat-stream (retries before the first delta, Retry-After, timeouts, abort, no key in
 * messages) seen through that vendor's real wire format. Vendor-specific checks (request shape,
 * in-stream error events) live in each vendor's own test file.
 */

/** A recorded reply and what the adapter must make of it. */
export interface ReplyFixture {
  /** File name under `test/core/providers/<vendor>/__fixtures__/`. */
  fixture: string;
  text: string;
  usage: TokenUsage;
  finishReason: FinishReason;
}

export interface ErrorFixture {
  status: number;
  fixture: string;
  headers?: Record<string, string>;
}

export interface VendorChatCase {
  /** Folder under test/core/providers holding the fixtures. */
  vendor: string;
  /** The provider id the adapter reports. */
  provider: string;
  /** A fake credential; the suite checks it never appears in an error message. */
  apiKey: string;
  /** `text/event-stream` or `application/x-ndjson`. */
  contentType: string;
  /** What ends one event on the wire: `\n\n`, `\r\n\r\n` (Gemini), `\n` (NDJSON). */
  eventSeparator: string;
  model(baseUrl: string, http: VendorHttpSettings): ChatModel;
  plain: ReplyFixture;
  streamed: ReplyFixture;
  /** A 429 and the wait the adapter must honour (from `Retry-After` or the body). */
  rateLimit: ErrorFixture & { expectedDelayMs: number };
  serverError: ErrorFixture;
  /** An error body quoting the key, as a misbehaving proxy or vendor might. */
  bodyEchoingKey(key: string): string;
}

export const chatRequest: ChatRequest = Object.freeze({
  system: 'You are Ada, a cheerful maths tutor. Answer in two short sentences.',
  messages: [
    { role: 'user' as const, content: "Hi, I'm Sam." },
    { role: 'assistant' as const, content: 'Hello Sam! What shall we learn today?' },
    { role: 'user' as const, content: 'Can we add fractions?' },
  ],
  temperature: 0.7,
  maxTokens: 200,
});

export function readFixture(vendor: string, name: string): string {
  return readFileSync(join(repoRoot, 'test/core/providers', vendor, '__fixtures__', name), 'utf8');
}

export async function collect(stream: AsyncIterable<ChatStreamPart>): Promise<ChatStreamPart[]> {
  const parts: ChatStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

export function textOf(parts: readonly ChatStreamPart[]): string {
  return parts.map((p) => (p.type === 'text-delta' ? p.delta : '')).join('');
}

export function deltaCount(parts: readonly ChatStreamPart[]): number {
  return parts.filter((p) => p.type === 'text-delta').length;
}

/** The stream's last part, asserted to be the only terminal one. */
export function terminalOf(parts: readonly ChatStreamPart[]): Exclude<ChatStreamPart, { type: 'text-delta' }> {
  const terminal = parts.filter((p) => p.type !== 'text-delta');
  assert.equal(terminal.length, 1, 'exactly one finish or error part');
  const last = parts[parts.length - 1];
  assert.ok(last && last.type !== 'text-delta', 'the terminal part comes last');
  return last;
}

export function errorOf(parts: readonly ChatStreamPart[]): ProviderError {
  const last = terminalOf(parts);
  assert.equal(last.type, 'error', `expected an error part, got ${JSON.stringify(last)}`);
  assert.ok(last.error instanceof ProviderError);
  return last.error;
}

export function finishOf(parts: readonly ChatStreamPart[]): Extract<ChatStreamPart, { type: 'finish' }> {
  const last = terminalOf(parts);
  assert.equal(last.type, 'finish', `expected a finish part, got ${last.type === 'error' ? last.error.message : ''}`);
  return last;
}

/** A sleep that returns at once and remembers what it was asked to wait. */
export function fakeSleep(onSleep?: (ms: number) => void): { sleep: Sleep; delays: number[] } {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms) => {
      delays.push(ms);
      onSleep?.(ms);
    },
  };
}

/** Everything up to the event boundary nearest the middle: a stream cut after a few deltas. */
export function firstHalf(body: string, separator: string): string {
  const cut = body.indexOf(separator, Math.floor(body.length / 2));
  assert.ok(cut > 0, 'fixture has an event boundary after its middle');
  return body.slice(0, cut + separator.length);
}

/** Cuts at awkward places: single bytes (mid-UTF-8, mid-`data:`, between CR and LF), odd sizes. */
export const awkwardSizes: readonly number[] = [1, 2, 3, 5, 1, 8, 13, 1, 21, 34, 4, 7];

export function testVendorChatModel(c: VendorChatCase): void {
  describe(`${c.provider} chat model against its replay server`, () => {
    const servers: ReplayServer[] = [];
    const serve = async (script: readonly ReplayResponse[]): Promise<ReplayServer> => {
      const server = await startReplayServer(script);
      servers.push(server);
      return server;
    };
    const ok = (chunks: readonly (string | Uint8Array)[], extra: Partial<ReplayResponse> = {}): ReplayResponse => ({
      status: 200,
      headers: { 'content-type': c.contentType },
      chunks,
      ...extra,
    });
    const failure = (e: ErrorFixture): ReplayResponse => ({
      status: e.status,
      headers: { 'content-type': 'application/json', ...e.headers },
      chunks: [readFixture(c.vendor, e.fixture)],
    });
    const streamedBody = (): string => readFixture(c.vendor, c.streamed.fixture);
    const http = (extra: VendorHttpSettings = {}): VendorHttpSettings => ({ random: () => 0, ...extra });

    after(async () => {
      await Promise.all(servers.map((s) => s.close()));
    });

    it('turns a one-delta reply into text, finish reason and the vendor-reported usage', async () => {
      const s = await serve([ok([readFixture(c.vendor, c.plain.fixture)])]);
      const parts = await collect(c.model(s.url, http()).stream(chatRequest));
      assert.equal(textOf(parts), c.plain.text);
      const finish = finishOf(parts);
      assert.equal(finish.finishReason, c.plain.finishReason);
      assert.deepEqual(finish.usage, c.plain.usage);
      assert.equal(s.requests.length, 1);
    });

    it('streams a reply cut at awkward chunk boundaries (mid-UTF-8, mid-line, mid-field)', async () => {
      const s = await serve([ok(splitBytes(streamedBody(), awkwardSizes), { chunkDelayMs: 0 })]);
      const parts = await collect(c.model(s.url, http()).stream(chatRequest));
      assert.ok(deltaCount(parts) >= 3, 'several deltas, streamed as they arrive');
      assert.equal(textOf(parts), c.streamed.text);
      const finish = finishOf(parts);
      assert.equal(finish.finishReason, c.streamed.finishReason);
      assert.deepEqual(finish.usage, c.streamed.usage);
    });

    it('retries a 429 after the wait the vendor asked for, then streams the reply', async () => {
      const s = await serve([failure(c.rateLimit), ok([streamedBody()])]);
      const { sleep, delays } = fakeSleep();
      const parts = await collect(c.model(s.url, http({ sleep })).stream(chatRequest));
      assert.deepEqual(delays, [c.rateLimit.expectedDelayMs]);
      assert.equal(s.requests.length, 2);
      assert.equal(textOf(parts), c.streamed.text);
      assert.deepEqual(finishOf(parts).usage, c.streamed.usage);
    });

    it('retries a 500 with backoff, then reports a provider error that quotes the vendor', async () => {
      const s = await serve([failure(c.serverError)]);
      const { sleep, delays } = fakeSleep();
      const parts = await collect(c.model(s.url, http({ sleep, maxRetries: 2 })).stream(chatRequest));
      assert.equal(s.requests.length, 3);
      assert.deepEqual(delays, [500, 1000], 'exponential backoff (jitter fixed by random() = 0)');
      const error = errorOf(parts);
      assert.equal(error.code, 'provider_error');
      assert.equal(error.status, 502);
      assert.equal(error.provider, c.provider);
      assert.equal(error.vendorStatus, c.serverError.status);
      assert.equal(error.isRetryable, true);
      assert.match(error.message, new RegExp(`^${c.provider}: HTTP ${c.serverError.status}`));
    });

    it('keeps the text and reports an error, without retrying, when the connection resets mid-stream', async () => {
      // A pause before the reset lets the text reach the client first, as it would over a real network.
      const cut = ok([firstHalf(streamedBody(), c.eventSeparator)], { fault: 'reset', chunkDelayMs: 25 });
      const s = await serve([cut, ok([streamedBody()])]);
      const { sleep, delays } = fakeSleep();
      const parts = await collect(c.model(s.url, http({ sleep })).stream(chatRequest));
      assert.ok(deltaCount(parts) >= 1);
      assert.ok(c.streamed.text.startsWith(textOf(parts)) && textOf(parts).length < c.streamed.text.length);
      const error = errorOf(parts);
      assert.match(error.message, /connection lost while streaming/);
      assert.equal(s.requests.length, 1, 'text was already streamed: a retry would repeat it');
      assert.deepEqual(delays, []);
    });

    it('retries a connection reset that happens before any text', async () => {
      const s = await serve([ok([], { fault: 'reset' }), ok([streamedBody()])]);
      const { sleep } = fakeSleep();
      const parts = await collect(c.model(s.url, http({ sleep })).stream(chatRequest));
      assert.equal(s.requests.length, 2);
      assert.equal(textOf(parts), c.streamed.text);
      finishOf(parts);
    });

    it('reports a body that ends before the end-of-stream marker as a truncated stream', async () => {
      const s = await serve([ok([firstHalf(streamedBody(), c.eventSeparator)])]);
      const parts = await collect(c.model(s.url, http({ sleep: fakeSleep().sleep })).stream(chatRequest));
      assert.ok(deltaCount(parts) >= 1);
      assert.match(errorOf(parts).message, /stream ended before/);
      assert.equal(s.requests.length, 1);
    });

    it('times out a server that never answers (connect timeout), retrying once', async () => {
      const s = await serve([{ fault: 'headers' }]);
      const { sleep } = fakeSleep();
      const model = c.model(s.url, http({ sleep, maxRetries: 1, timeouts: { connectMs: 150 } }));
      const parts = await collect(model.stream(chatRequest));
      const error = errorOf(parts);
      assert.match(error.message, /connect timeout/);
      assert.equal(error.isRetryable, true);
      assert.equal(s.requests.length, 2);
    });

    it('times out a stream that goes silent after some text (idle timeout), keeping the text', async () => {
      const s = await serve([ok([firstHalf(streamedBody(), c.eventSeparator)], { fault: 'body' })]);
      const { sleep } = fakeSleep();
      const model = c.model(s.url, http({ sleep, timeouts: { idleMs: 150 } }));
      const parts = await collect(model.stream(chatRequest));
      assert.ok(deltaCount(parts) >= 1);
      assert.match(errorOf(parts).message, /idle timeout/);
      assert.equal(s.requests.length, 1);
    });

    it('ends with finish "aborted" and estimated usage when the caller aborts mid-stream', { timeout: 20_000 }, async () => {
      const s = await serve([ok([firstHalf(streamedBody(), c.eventSeparator)], { fault: 'body' })]);
      const controller = new AbortController();
      const request = { ...chatRequest, signal: controller.signal };
      const parts: ChatStreamPart[] = [];
      for await (const part of c.model(s.url, http()).stream(request)) {
        parts.push(part);
        if (part.type === 'text-delta') controller.abort(); // the server would otherwise stay silent forever
      }
      const finish = finishOf(parts);
      assert.equal(finish.finishReason, 'aborted');
      assert.deepEqual(finish.usage, resolveUsage(chatRequest, textOf(parts)));
      assert.equal(s.requests.length, 1);
    });

    it('sends nothing when the caller aborted before the call', async () => {
      const s = await serve([ok([streamedBody()])]);
      const parts = await collect(c.model(s.url, http()).stream({ ...chatRequest, signal: AbortSignal.abort() }));
      assert.deepEqual(parts, [{ type: 'finish', finishReason: 'aborted', usage: { inputTokens: 0, outputTokens: 0 } }]);
      assert.equal(s.requests.length, 0);
    });

    it('never puts the key in an error message, whether a body or a network error quotes it', async () => {
      const s = await serve([{ status: 401, headers: { 'content-type': 'application/json' }, chunks: [c.bodyEchoingKey(c.apiKey)] }]);
      const fromBody = errorOf(await collect(c.model(s.url, http()).stream(chatRequest)));
      assert.equal(fromBody.isRetryable, false);
      assert.ok(!fromBody.message.includes(c.apiKey), fromBody.message);
      assert.match(fromBody.message, /\[redacted\]/);

      const leakyFetch = async (): Promise<Response> => {
        throw new TypeError('fetch failed', { cause: new Error(`connect ECONNREFUSED with token ${c.apiKey}`) });
      };
      const { sleep } = fakeSleep();
      const fromNetwork = errorOf(await collect(c.model(s.url, http({ fetch: leakyFetch, sleep })).stream(chatRequest)));
      assert.ok(!fromNetwork.message.includes(c.apiKey), fromNetwork.message);
      assert.match(fromNetwork.message, /could not reach the vendor/);
      assert.ok(!inspect(fromNetwork, { depth: 10 }).includes(c.apiKey), 'not even in the cause chain');
    });
  });
}
