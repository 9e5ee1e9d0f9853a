import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { VisemeName } from '../../../../core/speech/speech-provider.js';
import {
  createElevenLabsSpeechProvider,
  elevenLabsPremadeVoices,
  elevenLabsVoiceMap,
  resolveElevenLabsVoice,
} from '../../../../core/speech/elevenlabs/index.js';
import { ProviderError } from '../../../../core/errors.js';
import { localVoices } from '../../../../core/speech/local/local-voices.js';
import { startReplayServer, type ReplayResponse, type ReplayServer } from '../../../support/replay-server.js';
import { fakeHttp, fixture, makeMp3, runVendorSpeechConformance, testKey } from '../vendor-speech-conformance.js';

const mp3Format = { sampleRate: 44100, channels: 1, bitrateKbps: 128 } as const;

function withTimestamps(mp3: Uint8Array): ReplayResponse {
  const body = fixture('elevenlabs', 'with-timestamps.json').replace('__MP3_BASE64__', Buffer.from(mp3).toString('base64'));
  return { headers: { 'content-type': 'application/json', 'request-id': 'req-el-1' }, chunks: [body] };
}

runVendorSpeechConformance({
  id: 'elevenlabs',
  create: (settings) => createElevenLabsSpeechProvider(settings),
  baseUrl: (server) => server.url,
  mp3Format,
  success: withTimestamps,
  keyOf: (request) => request.headers['xi-api-key'] as string | undefined,
  clientError: { fixture: 'error-invalid-api-key.json', status: 401, message: /invalid_api_key: Invalid API key/ },
  errorBody: (status, message = 'Something went wrong') =>
    JSON.stringify({ detail: { status: status === 429 ? 'too_many_concurrent_requests' : 'internal_error', message } }),
});

describe('elevenlabs speech adapter (wire format)', () => {
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

  it('posts to with-timestamps for the mapped premade voice, MP3 44.1 kHz 128 kbps', async () => {
    const server = await serve([withTimestamps(mp3)]);
    const speech = createElevenLabsSpeechProvider({ apiKey: testKey, baseUrl: server.url, http: fakeHttp().http });
    const result = await speech.synthesize({ text: 'Hi 2.', voiceId: 'en-GB-Neural2-B' });
    assert.equal(result.engineVoice, 'George (JBFqnCBsd6RMkjVDRZzb)');
    const [request] = server.requests;
    assert.equal(request!.url, '/v1/text-to-speech/JBFqnCBsd6RMkjVDRZzb/with-timestamps?output_format=mp3_44100_128');
    assert.equal(request!.headers['accept'], 'application/json');
    assert.deepEqual(JSON.parse(request!.body), { text: 'Hi 2.', model_id: 'eleven_multilingual_v2' });
  });

  it("turns the normalized character timing into an ordered viseme timeline within the clip", async () => {
    const server = await serve([withTimestamps(mp3)]);
    const speech = createElevenLabsSpeechProvider({ apiKey: testKey, baseUrl: server.url, http: fakeHttp().http });
    const result = await speech.synthesize({ text: 'Hi 2.', voiceId: 'en-US-Neural2-F' });
    const cues = result.visemes ?? [];
    assert.deepEqual(
      cues.map((c) => [c.viseme, c.startMs, c.endMs]),
      [
        ['sil', 0, 20], // leading space
        ['ih', 20, 140], // "Hi"
        ['sil', 140, 180], // space
        ['ih', 180, 220], // "t"
        ['ou', 220, 260], // "w"
        ['oh', 260, 330], // "o" — from "two", the spoken form of "2"
        ['sil', 330, result.durationMs], // "." and the rest of the clip
      ],
    );
    for (const cue of cues) {
      assert.ok(VisemeName.includes(cue.viseme));
      assert.ok(cue.weight >= 0 && cue.weight <= 1);
    }
  });

  it('uses /stream and returns the raw MP3 without visemes when timestamps are off', async () => {
    const server = await serve([{ headers: { 'content-type': 'audio/mpeg' }, chunks: [mp3.subarray(0, 700), mp3.subarray(700)] }]);
    const speech = createElevenLabsSpeechProvider({
      apiKey: testKey,
      baseUrl: server.url,
      http: fakeHttp().http,
      timestamps: false,
      modelId: 'eleven_flash_v2_5',
    });
    const result = await speech.synthesize({ text: 'Hello.', voiceId: 'pFZP5JQG7iQjIQuC4Bku' });
    assert.deepEqual(result.audio, mp3);
    assert.equal(result.visemes, undefined);
    assert.equal(result.engineVoice, 'Lily (pFZP5JQG7iQjIQuC4Bku)');
    const [request] = server.requests;
    assert.equal(request!.url, '/v1/text-to-speech/pFZP5JQG7iQjIQuC4Bku/stream?output_format=mp3_44100_128');
    assert.equal(request!.headers['accept'], 'audio/mpeg');
    assert.equal(JSON.parse(request!.body).model_id, 'eleven_flash_v2_5');
  });

  it("quotes a 422's field errors and the request id", async () => {
    const server = await serve([{ status: 422, headers: { 'request-id': 'req-422' }, chunks: [fixture('elevenlabs', 'error-validation.json')] }]);
    const speech = createElevenLabsSpeechProvider({ apiKey: testKey, baseUrl: server.url, http: fakeHttp().http });
    await assert.rejects(speech.synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F' }), (error: unknown) => {
      assert.ok(error instanceof ProviderError);
      assert.equal(error.message, 'elevenlabs: HTTP 422 validation_error: body.text: field required (request id req-422)');
      return true;
    });
  });

  it('maps avatar voices by gender and accent, distinct per letter, and passes voice ids through', () => {
    const byId = new Map(elevenLabsPremadeVoices.map((v) => [v.id, v]));
    const map = elevenLabsVoiceMap();
    const provider = createElevenLabsSpeechProvider();
    const genderOf = new Map(localVoices().map((v) => [v.id, v.gender]));
    assert.equal(map.length, genderOf.size, 'every avatar voice is mapped');
    for (const { voiceId, engineVoice } of map) {
      const premade = byId.get(resolveElevenLabsVoice(voiceId).voiceId)!;
      assert.equal(premade.gender, genderOf.get(voiceId), voiceId);
      assert.match(engineVoice, /^[A-Z][a-z]+ \([A-Za-z0-9]{20}\)$/);
    }
    const usVoices = map.filter((m) => m.voiceId.startsWith('en-US-')).map((m) => m.engineVoice);
    assert.equal(new Set(usVoices).size, usVoices.length, 'every en-US letter gets its own voice');
    assert.equal(byId.get(resolveElevenLabsVoice('en-GB-Neural2-A').voiceId)!.locale, 'en-GB');
    assert.deepEqual(resolveElevenLabsVoice('AbCdEfGhIjKlMnOpQrSt'), { voiceId: 'AbCdEfGhIjKlMnOpQrSt', engineVoice: 'AbCdEfGhIjKlMnOpQrSt' });
    assert.throws(() => resolveElevenLabsVoice('en-US-Neural2-Z'), /not a known avatar voice; en-US has/);
    assert.ok(provider.voices().some((v) => v.id === 'JBFqnCBsd6RMkjVDRZzb' && v.name === 'George' && v.locale === 'en-GB' && v.gender === 'male'));
  });

  it('refuses a non-MP3 output format when built', () => {
    assert.throws(() => createElevenLabsSpeechProvider({ outputFormat: 'pcm_16000' as `mp3_${number}_${number}` }), /MP3 format/);
  });
});
