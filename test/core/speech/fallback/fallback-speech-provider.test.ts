import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ErrorCode, isAbortError, ProviderError, ServiceError, ValidationError } from '../../../../core/errors.js';
import { createFallbackSpeechProvider } from '../../../../core/speech/fallback-speech-provider.js';
import { createGoogleSpeechProvider } from '../../../../core/speech/google/index.js';
import { createOpenAISpeechProvider } from '../../../../core/speech/openai/index.js';
import type { SpeechProvider, SpeechRequest, SpeechResult } from '../../../../core/speech/speech-provider.js';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server.js';
import { fakeHttp, makeMp3, testKey } from '../vendor-speech-conformance.js';

/** A speech engine that answers from a script, recording what it was asked. */
function scripted(id: string, answer: (request: SpeechRequest) => Promise<SpeechResult>, available = true): SpeechProvider & { calls: number; closed: number } {
  const engine = {
    id,
    name: `Scripted ${id}`,
    calls: 0,
    closed: 0,
    available: async () => available,
    voices: () => [{ id: `${id}-voice`, name: id, locale: 'en-US', gender: 'neutral' as const, provider: id }],
    engineVoiceFor: (voiceId: string) => `${id}:${voiceId}`,
    synthesize: async (request: SpeechRequest) => {
      engine.calls++;
      return answer(request);
    },
    close: async () => {
      engine.closed++;
    },
  };
  return engine;
}

const clip = (engineVoice: string): SpeechResult => ({ audio: Uint8Array.of(1), contentType: 'audio/mpeg', durationMs: 26, characters: 2, engineVoice });
const vendorDown = (id: string) => async (): Promise<never> => {
  throw new ProviderError(id, 'HTTP 503 UNAVAILABLE: The service is currently unavailable.', { vendorStatus: 503, isRetryable: true });
};

describe('fallback speech provider', () => {
  it('answers from the first engine when it succeeds, and stands in under its id', async () => {
    const a = scripted('google', async () => clip('en-US-Neural2-F'));
    const b = scripted('local', async () => clip('en-us+f3'));
    const chain = createFallbackSpeechProvider({ providers: [a, b] });
    assert.equal(chain.id, 'google');
    assert.deepEqual(chain.voices(), a.voices());
    const result = await chain.synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F' });
    assert.equal(result.provider, 'google');
    assert.equal(b.calls, 0);
  });

  it('falls back in order on failure, reports the engine that answered, and tells onFallback', async () => {
    const events: string[] = [];
    const a = scripted('google', vendorDown('google'));
    const b = scripted('elevenlabs', vendorDown('elevenlabs'));
    const c = scripted('local', async () => clip('en-us+f3'));
    const chain = createFallbackSpeechProvider({
      id: 'speech',
      providers: [a, b, c],
      onFallback: ({ failed, next, error }) => events.push(`${failed}→${next}: ${(error as Error).message}`),
    });
    const result = await chain.synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F' });
    assert.equal(result.provider, 'local');
    assert.equal(result.engineVoice, 'en-us+f3');
    assert.deepEqual(events, [
      'google→elevenlabs: google: HTTP 503 UNAVAILABLE: The service is currently unavailable.',
      'elevenlabs→local: elevenlabs: HTTP 503 UNAVAILABLE: The service is currently unavailable.',
    ]);
  });

  it('skips engines that are not available', async () => {
    const a = scripted('openai', async () => clip('nova'), false);
    const b = scripted('local', async () => clip('en-us+f3'));
    const result = await createFallbackSpeechProvider({ providers: [a, b] }).synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F' });
    assert.equal(result.provider, 'local');
    assert.equal(a.calls, 0);
  });

  it('does not fall back on a caller abort, nor on text every engine would refuse', async () => {
    const controller = new AbortController();
    const a = scripted('google', async () => {
      controller.abort();
      throw new DOMException('aborted', 'AbortError');
    });
    const b = scripted('local', async () => clip('en-us+f3'));
    const chain = createFallbackSpeechProvider({ providers: [a, b] });
    await assert.rejects(chain.synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F', signal: controller.signal }), isAbortError);
    await assert.rejects(chain.synthesize({ text: 'Hi', voiceId: 'x', signal: AbortSignal.abort() }), isAbortError);
    assert.equal(b.calls, 0);

    const refusing = scripted('google', async () => {
      throw new ValidationError('text', 'text must contain something to say');
    });
    await assert.rejects(createFallbackSpeechProvider({ providers: [refusing, b] }).synthesize({ text: ' ', voiceId: 'v' }), ValidationError);
    assert.equal(b.calls, 0);
  });

  it('tries the next engine for a voice the first does not know; rethrows the ValidationError when none does', async () => {
    const unknownVoice = (id: string) => async (): Promise<never> => {
      throw new ValidationError('voice_id', `${id} does not know voice nova`);
    };
    const b = scripted('openai', async () => clip('nova'));
    const ok = await createFallbackSpeechProvider({ providers: [scripted('google', unknownVoice('google')), b] }).synthesize({ text: 'Hi', voiceId: 'nova' });
    assert.equal(ok.provider, 'openai');
    const chain = createFallbackSpeechProvider({ providers: [scripted('google', unknownVoice('google')), scripted('local', unknownVoice('local'))] });
    await assert.rejects(chain.synthesize({ text: 'Hi', voiceId: 'nova' }), (e: unknown) => e instanceof ValidationError && /google does not know/.test(e.message));
  });

  it('fails with one ProviderError naming every engine, or unavailable when none can run', async () => {
    const chain = createFallbackSpeechProvider({
      id: 'speech',
      providers: [scripted('google', vendorDown('google')), scripted('openai', async () => clip('nova'), false)],
    });
    await assert.rejects(chain.synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F' }), (error: unknown) => {
      assert.ok(error instanceof ProviderError);
      assert.equal(error.isRetryable, true);
      assert.equal(
        error.message,
        'speech: every speech engine failed — google: HTTP 503 UNAVAILABLE: The service is currently unavailable.; openai: not available (no credentials, or engine not installed)',
      );
      return true;
    });
    const none = createFallbackSpeechProvider({ providers: [scripted('google', vendorDown('google'), false)] });
    assert.equal(await none.available(), false);
    await assert.rejects(none.synthesize({ text: 'Hi', voiceId: 'v' }), (e: unknown) => e instanceof ServiceError && e.code === ErrorCode.unavailable);
  });

  it('closes every engine and needs at least one', async () => {
    const a = scripted('google', async () => clip('x'));
    const b = scripted('local', async () => clip('y'));
    await createFallbackSpeechProvider({ providers: [a, b] }).close();
    assert.deepEqual([a.closed, b.closed], [1, 1]);
    assert.throws(() => createFallbackSpeechProvider({ providers: [] }), RangeError);
  });

  describe('over real vendor adapters', () => {
    let server: ReplayServer;
    let mp3: Uint8Array;
    before(async () => {
      mp3 = await makeMp3({ sampleRate: 24000, channels: 1, bitrateKbps: 32 });
      server = await startReplayServer((request) =>
        request.url.startsWith('/google/')
          ? { status: 500, chunks: ['{"error":{"code":500,"message":"Internal error encountered.","status":"INTERNAL"}}'] }
          : { headers: { 'content-type': 'audio/mpeg' }, chunks: [mp3] },
      );
    });
    after(() => server.close());

    it('falls back from Google failing after its retries to OpenAI, with OpenAI mapping the avatar voice', async () => {
      const { http, waits } = fakeHttp({ maxRetries: 1 });
      const google = createGoogleSpeechProvider({ apiKey: testKey, baseUrl: `${server.url}/google`, http });
      const openai = createOpenAISpeechProvider({ apiKey: testKey, baseUrl: `${server.url}/openai/v1`, http });
      const chain = createFallbackSpeechProvider({ providers: [google, openai] });
      const result = await chain.synthesize({ text: 'Hello again.', voiceId: 'en-US-Neural2-F' });
      assert.equal(result.provider, 'openai');
      assert.equal(result.engineVoice, 'shimmer');
      assert.deepEqual(result.audio, mp3);
      assert.deepEqual(server.requests.map((r) => r.url), ['/google/v1/text:synthesize', '/google/v1/text:synthesize', '/openai/v1/audio/speech']);
      assert.deepEqual(waits, [500]);
    });
  });
});
