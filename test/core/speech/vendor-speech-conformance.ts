/**
 * The conformance suite every vendor speech adapter passes against its replay server: success with
 * real MP3 bytes, vendor errors, 429 with Retry-After, 5xx, resets, timeouts, aborts, key hygiene.
 * Each vendor's own test file runs it once and adds what is particular to that vendor's wire format.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createMp3ClipEncoder, type Mp3ClipFormat } from '../../../core/audio/mp3-clip-encoder.js';
import { readMp3Info } from '../../../core/audio/mp3-info.js';
import { isAbortError, ProviderError, ServiceError, ValidationError } from '../../../core/errors.js';
import type { VendorHttpSettings } from '../../../core/vendor-http/http-settings.js';
import type { SpeechProvider } from '../../../core/speech/speech-provider.js';
import { repoRoot } from '../../support/repo-root.js';
import { startReplayServer, type RecordedRequest, type ReplayResponse, type ReplayScript, type ReplayServer } from '../../support/replay-server.js';

/** A key shaped like no vendor's, so only exact-secret redaction can hide it. */
export const testKey = 'test-key-4f9c2b7e1d0a8c6b';

export interface VendorSpeechCase {
  id: string;
  create(settings: { apiKey?: string; baseUrl: string; http: VendorHttpSettings }): SpeechProvider;
  /** The base URL setting for a replay server (OpenAI's includes `/v1`). */
  baseUrl(server: ReplayServer): string;
  /** The MP3 format this vendor returns by default. */
  mp3Format: Mp3ClipFormat;
  /** The vendor's 200 answer carrying `mp3`. */
  success(mp3: Uint8Array): ReplayResponse;
  /** The credential as the vendor receives it. */
  keyOf(request: RecordedRequest): string | undefined;
  /** A documented 4xx error body, its status, and what the message must say. */
  clientError: { fixture: string; status: number; message: RegExp };
  /** An error body in the vendor's shape for `status`, saying `message` (a default when omitted). */
  errorBody(status: number, message?: string): string;
}

export function fixture(vendor: string, name: string): string {
  return readFileSync(join(repoRoot, 'test/core/speech', vendor, '__fixtures__', name), 'utf8');
}

function tone(seconds: number, sampleRate: number): Float32Array {
  return Float32Array.from({ length: Math.round(seconds * sampleRate) }, (_, i) => 0.4 * Math.sin((2 * Math.PI * 220 * i) / sampleRate));
}

/** Real MP3 bytes of `format` (LAME via the project's encoder): 0.4 s of a 220 Hz tone. */
export async function makeMp3(format: Mp3ClipFormat): Promise<Uint8Array> {
  const encoder = await createMp3ClipEncoder(format);
  return encoder.encode(tone(0.4, format.sampleRate), format.sampleRate);
}

/** HTTP settings for tests: retries wait on a recording fake sleep, jitter is off. */
export function fakeHttp(overrides: VendorHttpSettings = {}): { http: VendorHttpSettings; waits: number[] } {
  const waits: number[] = [];
  const http: VendorHttpSettings = {
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0,
    ...overrides,
  };
  return { http, waits };
}

function assertNoKey(error: unknown): void {
  assert.ok(error instanceof Error);
  assert.ok(!error.message.includes(testKey), `key leaked: ${error.message}`);
  assert.ok(!String(error.stack).includes(testKey), 'key leaked into the stack');
}

export function runVendorSpeechConformance(vendor: VendorSpeechCase): void {
  describe(`${vendor.id} speech adapter (conformance)`, () => {
    let mp3: Uint8Array;
    const servers: ReplayServer[] = [];
    before(async () => {
      mp3 = await makeMp3(vendor.mp3Format);
    });
    after(async () => {
      await Promise.all(servers.map((s) => s.close()));
    });

    async function serve(script: ReplayScript): Promise<ReplayServer> {
      const server = await startReplayServer(script);
      servers.push(server);
      return server;
    }

    function provider(server: ReplayServer, http: VendorHttpSettings, options: { withKey?: boolean } = {}): SpeechProvider {
      const withKey = options.withKey ?? true;
      return vendor.create({ ...(withKey ? { apiKey: testKey } : {}), baseUrl: vendor.baseUrl(server), http });
    }

    it('returns the MP3 with its duration from the frames, the characters and the engine', async () => {
      const server = await serve([vendor.success(mp3)]);
      const speech = provider(server, fakeHttp().http);
      const text = 'Hello there, héllo 👋.';
      const result = await speech.synthesize({ text, voiceId: 'en-US-Neural2-F' });
      assert.deepEqual(result.audio, mp3);
      assert.equal(result.contentType, 'audio/mpeg');
      const info = readMp3Info(mp3);
      assert.equal(result.durationMs, info.durationMs);
      assert.ok(result.durationMs >= 400, String(result.durationMs));
      assert.equal(info.sampleRate, vendor.mp3Format.sampleRate);
      assert.equal(result.characters, [...text].length);
      assert.equal(result.provider, vendor.id);
      assert.ok(result.engineVoice.length > 0);
      assert.equal(server.requests.length, 1);
      assert.equal(server.requests[0]!.method, 'POST');
      assert.equal(vendor.keyOf(server.requests[0]!), testKey);
      assert.match(String(server.requests[0]!.headers['content-type']), /^application\/json/);
      assert.ok(!server.requests[0]!.url.includes(testKey), 'the key must not travel in the URL');
    });

    it(`turns a documented ${vendor.clientError.status} into a ProviderError with the vendor's message, without retrying`, async () => {
      const server = await serve([{ status: vendor.clientError.status, headers: { 'content-type': 'application/json' }, chunks: [fixture(vendor.id, vendor.clientError.fixture)] }]);
      const { http, waits } = fakeHttp();
      await assert.rejects(provider(server, http).synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F' }), (error: unknown) => {
        assert.ok(error instanceof ProviderError);
        assert.equal(error.provider, vendor.id);
        assert.equal(error.vendorStatus, vendor.clientError.status);
        assert.equal(error.isRetryable, false);
        assert.match(error.message, vendor.clientError.message);
        assert.match(error.message, new RegExp(`^${vendor.id}: HTTP ${vendor.clientError.status}`));
        assertNoKey(error);
        return true;
      });
      assert.equal(server.requests.length, 1);
      assert.deepEqual(waits, []);
    });

    it('waits as long as a 429 Retry-After says, then retries', async () => {
      const server = await serve([
        { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '3' }, chunks: [vendor.errorBody(429)] },
        vendor.success(mp3),
      ]);
      const { http, waits } = fakeHttp();
      const result = await provider(server, http).synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F' });
      assert.deepEqual(result.audio, mp3);
      assert.deepEqual(waits, [3000]);
      assert.equal(server.requests.length, 2);
      assert.equal(server.requests[1]!.body, server.requests[0]!.body, 'the retry sends the same request');
    });

    it('gives up on a 429 whose Retry-After is longer than the policy allows', async () => {
      const server = await serve([{ status: 429, headers: { 'retry-after': '3600' }, chunks: [vendor.errorBody(429)] }]);
      const { http, waits } = fakeHttp();
      await assert.rejects(provider(server, http).synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F' }), (error: unknown) => {
        assert.ok(error instanceof ProviderError);
        assert.equal(error.vendorStatus, 429);
        assert.equal(error.isRetryable, true);
        assert.equal(error.retryAfterS, 3600);
        return true;
      });
      assert.equal(server.requests.length, 1);
      assert.deepEqual(waits, []);
    });

    it('retries a 500 with exponential backoff and succeeds', async () => {
      const server = await serve([
        { status: 500, chunks: [vendor.errorBody(500)] },
        { status: 503, chunks: [vendor.errorBody(503)] },
        vendor.success(mp3),
      ]);
      const { http, waits } = fakeHttp();
      const result = await provider(server, http).synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F' });
      assert.deepEqual(result.audio, mp3);
      assert.deepEqual(waits, [500, 1000]);
    });

    it('surfaces a retryable ProviderError when every attempt fails with 5xx', async () => {
      const server = await serve([{ status: 500, chunks: [vendor.errorBody(500)] }]);
      const { http, waits } = fakeHttp({ maxRetries: 2 });
      await assert.rejects(provider(server, http).synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F' }), (error: unknown) => {
        assert.ok(error instanceof ProviderError);
        assert.equal(error.vendorStatus, 500);
        assert.equal(error.isRetryable, true);
        assertNoKey(error);
        return true;
      });
      assert.equal(server.requests.length, 3);
      assert.equal(waits.length, 2);
    });

    it('retries a connection reset in the middle of the body', async () => {
      const ok = vendor.success(mp3);
      const body = ok.chunks!.map((c) => (typeof c === 'string' ? new TextEncoder().encode(c) : c));
      const firstHalf = body[0]!.subarray(0, Math.floor(body[0]!.length / 2));
      const server = await serve([{ ...ok, chunks: [firstHalf], fault: 'reset' }, ok]);
      const { http, waits } = fakeHttp();
      const result = await provider(server, http).synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F' });
      assert.deepEqual(result.audio, mp3);
      assert.equal(server.requests.length, 2);
      assert.deepEqual(waits, [500]);
    });

    it('times out when the vendor never answers (connect timeout)', async () => {
      const server = await serve([{ fault: 'headers' }]);
      const { http, waits } = fakeHttp({ timeouts: { connectMs: 40 }, maxRetries: 1 });
      await assert.rejects(provider(server, http).synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F' }), (error: unknown) => {
        assert.ok(error instanceof ProviderError);
        assert.match(error.message, /connect timeout/);
        assert.equal(error.isRetryable, true);
        return true;
      });
      // Counted on the client: on a loaded machine the 40 ms timer can fire before this process's
      // server has accepted the second connection, so the server may log one request or two.
      assert.equal(waits.length, 1, 'a timeout is retried once');
      assert.ok(server.requests.length >= 1);
    });

    it('times out when the body stalls (idle timeout)', async () => {
      const ok = vendor.success(mp3);
      const first = ok.chunks![0]!;
      const bytes = typeof first === 'string' ? new TextEncoder().encode(first) : first;
      const server = await serve([{ ...ok, chunks: [bytes.subarray(0, 10)], fault: 'body' }]);
      const { http } = fakeHttp({ timeouts: { idleMs: 40 }, maxRetries: 0 });
      await assert.rejects(provider(server, http).synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F' }), /idle timeout/);
    });

    it('rejects with an AbortError when aborted before, during or between attempts, and starts nothing new', async () => {
      const server = await serve([{ fault: 'headers' }]);
      const speech = provider(server, fakeHttp().http);
      await assert.rejects(speech.synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F', signal: AbortSignal.abort() }), isAbortError);
      assert.equal(server.requests.length, 0);

      const controller = new AbortController();
      const pending = speech.synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F', signal: controller.signal });
      while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      controller.abort();
      await assert.rejects(pending, isAbortError);

      // Aborted while waiting to retry a 503: no second request.
      const flaky = await serve([{ status: 503, chunks: [vendor.errorBody(503)] }, vendor.success(mp3)]);
      const between = new AbortController();
      const http: VendorHttpSettings = {
        random: () => 0,
        sleep: async () => {
          between.abort();
        },
      };
      await assert.rejects(provider(flaky, http).synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F', signal: between.signal }), isAbortError);
      assert.equal(flaky.requests.length, 1);
    });

    it('keeps the key out of errors even when the vendor echoes it', async () => {
      const echo = vendor.errorBody(401, `Invalid API key: ${testKey}`);
      const server = await serve([{ status: 401, headers: { 'content-type': 'application/json' }, chunks: [echo] }]);
      await assert.rejects(provider(server, fakeHttp().http).synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F' }), (error: unknown) => {
        assert.ok(error instanceof ProviderError);
        assertNoKey(error);
        assert.match(error.message, /\[redacted\]/);
        return true;
      });
      // A refused connection names the cause, not the key.
      const closed = await startReplayServer([{}]);
      const url = vendor.baseUrl(closed);
      await closed.close();
      const speech = vendor.create({ apiKey: testKey, baseUrl: url, http: { ...fakeHttp().http, maxRetries: 0 } });
      await assert.rejects(speech.synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F' }), (error: unknown) => {
        assert.ok(error instanceof ProviderError);
        assert.match(error.message, /could not reach the vendor/);
        assertNoKey(error);
        return true;
      });
    });

    it("is unavailable without a key and gives the host's hint", async () => {
      const server = await serve([vendor.success(mp3)]);
      const speech = provider(server, fakeHttp().http, { withKey: false });
      assert.equal(await speech.available(), false);
      await assert.rejects(speech.synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F' }), (error: unknown) => {
        assert.ok(error instanceof ServiceError);
        assert.equal(error.code, 'unavailable');
        assert.match(error.message, /not configured: no API key configured$/);
        return true;
      });
      assert.equal(server.requests.length, 0);
      assert.equal(await provider(server, fakeHttp().http).available(), true);
    });

    it('refuses empty text and unknown voices with ValidationError before calling the vendor', async () => {
      const server = await serve([vendor.success(mp3)]);
      const speech = provider(server, fakeHttp().http);
      await assert.rejects(speech.synthesize({ text: '  ', voiceId: 'en-US-Neural2-F' }), (e: unknown) => e instanceof ValidationError && e.field === 'text');
      await assert.rejects(speech.synthesize({ text: 'Hi', voiceId: 'no such voice!' }), (e: unknown) => e instanceof ValidationError && e.field === 'voice_id');
      assert.equal(server.requests.length, 0);
    });

    it('lists voices of the Voice shape with its own provider id', () => {
      const voices = vendor.create({ baseUrl: 'http://127.0.0.1:9', http: {} }).voices();
      assert.ok(voices.length > 0);
      for (const voice of voices) {
        assert.equal(voice.provider, vendor.id);
        assert.ok(voice.id && voice.name && /^[a-z]{2,3}-[A-Z]{2}$/.test(voice.locale), JSON.stringify(voice));
        assert.ok(['female', 'male', 'neutral'].includes(voice.gender));
      }
    });
  });
}
