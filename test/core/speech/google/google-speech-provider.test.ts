import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ProviderError, ValidationError } from '../../../../core/errors.js';
import { createGoogleSpeechProvider, googleVoiceMap, resolveGoogleVoice } from '../../../../core/speech/google/index.js';
import { startReplayServer, type ReplayResponse, type ReplayServer } from '../../../support/replay-server.js';
import { fakeHttp, fixture, makeMp3, runVendorSpeechConformance, testKey } from '../vendor-speech-conformance.js';

const mp3Format = { sampleRate: 24000, channels: 1, bitrateKbps: 32 } as const;

function synthesizeResponse(mp3: Uint8Array): ReplayResponse {
  return { headers: { 'content-type': 'application/json; charset=UTF-8' }, chunks: [JSON.stringify({ audioContent: Buffer.from(mp3).toString('base64') })] };
}

runVendorSpeechConformance({
  id: 'google',
  create: (settings) => createGoogleSpeechProvider(settings),
  baseUrl: (server) => server.url,
  mp3Format,
  success: synthesizeResponse,
  keyOf: (request) => request.headers['x-goog-api-key'] as string | undefined,
  clientError: { fixture: 'error-api-key-invalid.json', status: 400, message: /INVALID_ARGUMENT: API key not valid/ },
  errorBody: (status, message = 'Internal error encountered.') =>
    JSON.stringify({ error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : status >= 500 ? 'INTERNAL' : 'UNAUTHENTICATED' } }),
});

describe('google speech adapter (wire format)', () => {
  let mp3: Uint8Array;
  const servers: ReplayServer[] = [];
  before(async () => {
    mp3 = await makeMp3(mp3Format);
  });
  after(() => Promise.all(servers.map((s) => s.close())));

  async function serve(script: ReplayResponse[]): Promise<ReplayServer> {
    const server = await startReplayServer(script);
    servers.push(server);
    return server;
  }

  it('posts text:synthesize with the Neural2 voice as it is and MP3 output', async () => {
    const server = await serve([synthesizeResponse(mp3)]);
    const speech = createGoogleSpeechProvider({ apiKey: testKey, baseUrl: `${server.url}/`, http: fakeHttp().http });
    const result = await speech.synthesize({ text: 'Good evening.', voiceId: 'en-GB-Neural2-B' });
    assert.equal(result.engineVoice, 'en-GB-Neural2-B');
    const [request] = server.requests;
    assert.equal(request!.url, '/v1/text:synthesize');
    assert.deepEqual(JSON.parse(request!.body), {
      input: { text: 'Good evening.' },
      voice: { languageCode: 'en-GB', name: 'en-GB-Neural2-B' },
      audioConfig: { audioEncoding: 'MP3' },
    });
  });

  it('passes other Google voice families through and maps every avatar voice to itself', () => {
    assert.deepEqual(resolveGoogleVoice('en-US-Chirp3-HD-Aoede'), { name: 'en-US-Chirp3-HD-Aoede', languageCode: 'en-US' });
    assert.deepEqual(resolveGoogleVoice('cmn-CN-Wavenet-A'), { name: 'cmn-CN-Wavenet-A', languageCode: 'cmn-CN' });
    for (const { voiceId, engineVoice } of googleVoiceMap()) assert.equal(engineVoice, voiceId);
    const voices = createGoogleSpeechProvider().voices();
    assert.deepEqual(
      voices.find((v) => v.id === 'en-US-Neural2-F'),
      { id: 'en-US-Neural2-F', name: 'American English Neural2-F (female)', locale: 'en-US', gender: 'female', provider: 'google' },
    );
  });

  it("waits for RetryInfo's retryDelay when a 429 has no Retry-After header", async () => {
    const server = await serve([{ status: 429, chunks: [fixture('google', 'error-resource-exhausted.json')] }, synthesizeResponse(mp3)]);
    const { http, waits } = fakeHttp();
    await createGoogleSpeechProvider({ apiKey: testKey, baseUrl: server.url, http }).synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F' });
    assert.deepEqual(waits, [7000]);
  });

  it('reports a 200 without audio, or with audio that is not MP3, as a non-retryable ProviderError', async () => {
    const server = await serve([
      { chunks: ['{"audioContent":""}'] },
      { chunks: [JSON.stringify({ audioContent: Buffer.from('RIFF....WAVEfmt ').toString('base64') })] },
    ]);
    const speech = createGoogleSpeechProvider({ apiKey: testKey, baseUrl: server.url, http: fakeHttp().http });
    await assert.rejects(speech.synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F' }), (e: unknown) => e instanceof ProviderError && !e.isRetryable && /malformed response/.test(e.message));
    await assert.rejects(speech.synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F' }), (e: unknown) => e instanceof ProviderError && !e.isRetryable && /not usable MP3/.test(e.message));
    assert.equal(server.requests.length, 2);
  });

  it("refuses text over Google's 5000-byte limit, counted in UTF-8", async () => {
    const speech = createGoogleSpeechProvider({ apiKey: testKey, baseUrl: 'http://127.0.0.1:9' });
    await assert.rejects(speech.synthesize({ text: 'é'.repeat(2501), voiceId: 'en-US-Neural2-F' }), (e: unknown) => e instanceof ValidationError && /5002 bytes/.test(e.message));
  });
});
