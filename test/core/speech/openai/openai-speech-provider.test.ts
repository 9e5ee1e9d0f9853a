import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ProviderError, ValidationError } from '../../../../core/errors.js';
import { localVoices } from '../../../../core/speech/local/local-voices.js';
import { createOpenAISpeechProvider, openAIVoiceList, openAIVoiceMap, resolveOpenAIVoice } from '../../../../core/speech/openai/index.js';
import { startReplayServer, type ReplayResponse, type ReplayServer } from '../../../support/replay-server.js';
import { fakeHttp, fixture, makeMp3, runVendorSpeechConformance, testKey } from '../vendor-speech-conformance.js';

const mp3Format = { sampleRate: 24000, channels: 1, bitrateKbps: 64 } as const;

function speechResponse(mp3: Uint8Array): ReplayResponse {
  // OpenAI streams the MP3 with chunked transfer encoding; cut it where frames do not end.
  return { headers: { 'content-type': 'audio/mpeg', 'x-request-id': 'req_ok' }, chunks: [mp3.subarray(0, 333), mp3.subarray(333, 1000), mp3.subarray(1000)] };
}

runVendorSpeechConformance({
  id: 'openai',
  create: (settings) => createOpenAISpeechProvider(settings),
  baseUrl: (server) => `${server.url}/v1`,
  mp3Format,
  success: speechResponse,
  keyOf: (request) => String(request.headers['authorization']).replace(/^Bearer /, ''),
  clientError: { fixture: 'error-invalid-voice.json', status: 400, message: /invalid_value: Invalid value: 'marvin'/ },
  errorBody: (status, message = 'The server had an error while processing your request.') =>
    JSON.stringify({ error: { message, type: status === 429 ? 'requests' : 'server_error', param: null, code: status === 429 ? 'rate_limit_exceeded' : null } }),
});

describe('openai speech adapter (wire format)', () => {
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

  it('posts {model, voice, input, response_format} to <base>/audio/speech with a bearer key', async () => {
    const server = await serve([speechResponse(mp3)]);
    const speech = createOpenAISpeechProvider({ apiKey: testKey, baseUrl: `${server.url}/v1/`, http: fakeHttp().http });
    const result = await speech.synthesize({ text: 'Welcome back!', voiceId: 'en-US-Neural2-D' });
    assert.equal(result.engineVoice, 'onyx');
    const [request] = server.requests;
    assert.equal(request!.url, '/v1/audio/speech');
    assert.equal(request!.headers['authorization'], `Bearer ${testKey}`);
    assert.deepEqual(JSON.parse(request!.body), { model: 'gpt-4o-mini-tts', voice: 'onyx', input: 'Welcome back!', response_format: 'mp3' });
  });

  it('redacts a key OpenAI echoes and quotes the request id', async () => {
    const server = await serve([{ status: 401, headers: { 'x-request-id': 'req_401' }, chunks: [fixture('openai', 'error-invalid-api-key.json')] }]);
    const speech = createOpenAISpeechProvider({ apiKey: 'sk-proj-abc123def456ghi789', baseUrl: `${server.url}/v1`, http: fakeHttp().http });
    await assert.rejects(speech.synthesize({ text: 'Hi', voiceId: 'alloy' }), (error: unknown) => {
      assert.ok(error instanceof ProviderError);
      assert.ok(!error.message.includes('abc123def456'), error.message);
      assert.match(error.message, /^openai: HTTP 401 invalid_api_key: Incorrect API key provided: \[redacted\]\. .*\(request id req_401\)$/);
      return true;
    });
  });

  it('maps every avatar voice to a built-in voice of its gender, and respects what tts-1 can speak', () => {
    const genderOf = new Map(openAIVoiceList.map((v) => [v.id, v.gender]));
    const avatars = localVoices();
    const map = openAIVoiceMap('gpt-4o-mini-tts');
    assert.equal(map.length, avatars.length);
    for (const { voiceId, engineVoice } of map) {
      assert.equal(genderOf.get(engineVoice), avatars.find((a) => a.id === voiceId)!.gender, voiceId);
    }
    assert.equal(resolveOpenAIVoice('en-GB-Neural2-B', 'gpt-4o-mini-tts'), 'fable');
    assert.equal(resolveOpenAIVoice('en-US-Neural2-J', 'gpt-4o-mini-tts'), 'verse');
    assert.notEqual(resolveOpenAIVoice('en-US-Neural2-J', 'tts-1'), 'verse');
    for (const { engineVoice } of openAIVoiceMap('tts-1')) assert.ok(!['ballad', 'verse'].includes(engineVoice));
    assert.throws(() => resolveOpenAIVoice('verse', 'tts-1'), (e: unknown) => e instanceof ValidationError && /one of alloy, ash, coral/.test(e.message));
    assert.equal(createOpenAISpeechProvider({ model: 'tts-1' }).voices().length, 9);
    assert.equal(createOpenAISpeechProvider().voices().length, 11);
  });

  it("refuses text over OpenAI's 4096-character limit", async () => {
    const speech = createOpenAISpeechProvider({ apiKey: testKey, baseUrl: 'http://127.0.0.1:9' });
    await assert.rejects(speech.synthesize({ text: 'a'.repeat(4097), voiceId: 'nova' }), (e: unknown) => e instanceof ValidationError && e.field === 'text');
  });
});
