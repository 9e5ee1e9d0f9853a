import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createMp3ClipEncoder } from '../../core/audio/mp3-clip-encoder.js';
import { readMp3Info } from '../../core/audio/mp3-info.js';
import { startReplayServer, type RecordedRequest, type ReplayResponse, type ReplayServer } from '../support/replay-server.js';
import { scriptedProvider } from '../support/scripted-provider.js';
import { readSse } from '../support/sse-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** 0.6 s of a 220 Hz tone as Google would send it: MPEG-2 24 kHz mono. */
async function googleMp3(): Promise<Uint8Array> {
  const encoder = await createMp3ClipEncoder({ sampleRate: 24000, channels: 1, bitrateKbps: 32 });
  const samples = new Float32Array(24000 * 0.6).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 220 * i) / 24000));
  return encoder.encode(samples, 24000);
}

const json = { 'content-type': 'application/json; charset=UTF-8' };
const googleError500 = JSON.stringify({ error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } });

describe('text-to-speech routes', () => {
  let mp3: Uint8Array;
  let google: ReplayServer;
  let failNext = 0;
  let t: TestServer;

  before(async () => {
    mp3 = await googleMp3();
    google = await startReplayServer((): ReplayResponse => {
      if (failNext > 0) {
        failNext--;
        return { status: 500, headers: json, chunks: [googleError500] };
      }
      return { headers: json, chunks: [JSON.stringify({ audioContent: Buffer.from(mp3).toString('base64') })] };
    });
    t = await startTestServer({
      providersFromConfig: true,
      env: { GOOGLE_API_KEY: 'AIza-test-secret-0000', GOOGLE_TTS_BASE_URL: google.url, DEFAULT_AI_PROVIDER: 'local', TTS_FALLBACK: 'local' },
    });
  });
  after(async () => {
    await t.close();
    await google.close();
  });

  const synthesizeRequests = () => google.requests.filter((r: RecordedRequest) => r.url === '/v1/text:synthesize');

  it('GET /v1/tts/voices is public and shows every engine with the voice each avatar voice maps to', async () => {
    const res = await t.request('/v1/tts/voices', { auth: null });
    assert.equal(res.status, 200);
    const { voices } = (await res.json()) as { voices: { id: string; provider: string; locale: string; gender: string; engine_voice: string; available: boolean }[] };
    assert.deepEqual([...new Set(voices.map((v) => v.provider))].sort(), ['elevenlabs', 'google', 'local', 'openai']);
    const f = (provider: string) => voices.find((v) => v.provider === provider && v.id === 'en-US-Neural2-F');
    assert.equal(f('google')?.engine_voice, 'en-US-Neural2-F');
    assert.match(f('local')!.engine_voice, /^en-us\+f\d$/);
    assert.equal(f('google')?.available, true);
    assert.equal(voices.find((v) => v.provider === 'elevenlabs')?.available, false);
    const only = (await (await t.request('/v1/tts/voices?provider=google', { auth: null })).json()) as { voices: { provider: string }[] };
    assert.ok(only.voices.every((v) => v.provider === 'google'));
    assert.equal((await t.request('/v1/tts/voices?provider=nope', { auth: null })).status, 400);
  });

  it('POST /v1/tts synthesizes, stores the MP3 and meters the characters', async () => {
    const before = synthesizeRequests().length;
    const res = await t.request('/v1/tts', { method: 'POST', json: { text: 'Hello there, friend!', voice_id: 'en-GB-Neural2-B', provider: 'google' } });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { audio_url: string; provider: string; voice_id: string; engine_voice: string; characters: number; duration_ms: number };
    assert.equal(body.provider, 'google');
    assert.equal(body.voice_id, 'en-GB-Neural2-B');
    assert.equal(body.characters, 20);
    assert.equal(body.duration_ms, Math.round(readMp3Info(mp3).durationMs));
    const sent = JSON.parse(synthesizeRequests()[before]!.body) as { input: { text: string }; voice: { name: string; languageCode: string }; audioConfig: { audioEncoding: string } };
    assert.deepEqual(sent.voice, { languageCode: 'en-GB', name: 'en-GB-Neural2-B' });
    assert.equal(sent.audioConfig.audioEncoding, 'MP3');
    const audio = await fetch(body.audio_url);
    assert.equal(audio.status, 200);
    assert.equal(audio.headers.get('content-type'), 'audio/mpeg');
    assert.deepEqual(new Uint8Array(await audio.arrayBuffer()), mp3);
    const usage = (await (await t.request('/v1/usage')).json()) as { total: { tts_characters: number } };
    assert.ok(usage.total.tts_characters >= 20);
  });

  it('answers with the MP3 itself when the client accepts audio/mpeg', async () => {
    const res = await t.request('/v1/tts/google', { method: 'POST', json: { text: 'Just the bytes.' }, headers: { accept: 'audio/mpeg' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'audio/mpeg');
    assert.equal(res.headers.get('x-speech-provider'), 'google');
    assert.deepEqual(new Uint8Array(await res.arrayBuffer()), mp3);
  });

  it('POST /v1/tts/preview speaks a sample in the voice', async () => {
    const res = await t.request('/v1/tts/preview', { method: 'POST', json: { voice_id: 'de-DE-Neural2-B', provider: 'google' } });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { provider: string; characters: number };
    assert.equal(body.provider, 'google');
    const sent = JSON.parse(synthesizeRequests().at(-1)!.body) as { input: { text: string } };
    assert.match(sent.input.text, /Hallo/);
    assert.equal(body.characters, [...sent.input.text].length);
  });

  it('the local engine answers POST /v1/tts with real speech', async () => {
    const res = await t.request('/v1/tts', { method: 'POST', json: { text: 'Offline speech works.', provider: 'local' } });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { provider: string; duration_ms: number; engine_voice: string };
    assert.equal(body.provider, 'local');
    assert.ok(body.duration_ms > 500, `duration ${body.duration_ms}`);
  });

  it('validates input and credentials with the documented errors', async () => {
    const cases: [string, unknown, number, RegExp][] = [
      ['/v1/tts', { text: '' }, 400, /text must not be empty/],
      ['/v1/tts', { text: 'x'.repeat(5001) }, 400, /at most 5000/],
      ['/v1/tts', { text: 'hi', provider: 'acme' }, 400, /provider must be one of/],
      ['/v1/tts', { text: 'hi', provider: 'local', voice_id: 'xx-XX-Neural2-Q' }, 400, /voice/],
      ['/v1/tts', { text: 'hi', speed: 2 }, 400, /Unknown field speed/],
      ['/v1/tts/preview', {}, 400, /voice_id is required/],
      ['/v1/tts/elevenlabs', { text: 'hi' }, 503, /ELEVENLABS_API_KEY/],
      ['/v1/tts/openai', { text: 'hi' }, 503, /OPENAI_API_KEY/],
    ];
    for (const [path, body, status, message] of cases) {
      const res = await t.request(path, { method: 'POST', json: body });
      assert.equal(res.status, status, `${path} ${JSON.stringify(body).slice(0, 60)}`);
      assert.match(((await res.json()) as { error: { message: string } }).error.message, message);
    }
    assert.equal((await t.request('/v1/tts', { method: 'POST', json: { text: 'hi' }, auth: null })).status, 401);
  });

  it('a conversation takes the voices POST /v1/tts takes for its engine, and refuses an engine that cannot speak', async () => {
    const create = (body: Record<string, unknown>) => t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', ...body } });
    const refused = await create({ tts_provider: 'elevenlabs' });
    assert.equal(refused.status, 400);
    assert.match(((await refused.json()) as { error: { message: string } }).error.message, /^tts_provider 'elevenlabs' is not available .*available: .*google.*browser/);
    for (const [body, voice] of [
      [{ tts_provider: 'local', voice_id: 'en-us+m1' }, 'en-us+m1'],
      [{ tts_provider: 'google', voice_id: 'en-GB-Wavenet-B' }, 'en-GB-Wavenet-B'],
      [{ tts_provider: 'browser', voice_id: 'en-GB-Neural2-B' }, 'en-GB-Neural2-B'],
    ] as const) {
      const res = await create(body);
      assert.equal(res.status, 201, JSON.stringify(body));
      assert.equal(((await res.json()) as { config: { voice_id: string } }).config.voice_id, voice);
    }
    for (const body of [{ tts_provider: 'local', voice_id: 'xx-XX-Neural2-Z' }, { tts_provider: 'google', voice_id: 'robot' }, { tts_provider: 'browser', voice_id: 'en-us+m1' }]) {
      const res = await create(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(((await res.json()) as { error: { message: string } }).error.message, /^voice_id /);
    }
  });

  it('falls back to the next engine when the vendor fails, but a forced vendor route reports the failure', async () => {
    failNext = 3; // the first attempt and both retries
    const res = await t.request('/v1/tts', { method: 'POST', json: { text: 'Fallback please.', provider: 'google' } });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { provider: string }).provider, 'local');
    failNext = 3;
    const forced = await t.request('/v1/tts/google', { method: 'POST', json: { text: 'No fallback here.' } });
    assert.equal(forced.status, 502);
    const error = (await forced.json()) as { error: { code: string; message: string } };
    assert.equal(error.error.code, 'provider_error');
    assert.match(error.error.message, /google/);
    assert.doesNotMatch(error.error.message, /AIza-test-secret-0000/);
  });

  it('a conversation with tts_provider google streams audio events end to end', async () => {
    const { id } = (await (await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'atlas-002', tts_provider: 'google' } })).json()) as { id: string };
    const before = synthesizeRequests().length;
    const res = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'Hello! Tell me about yourself.', stream: true } });
    const events = await readSse(res);
    const audio = events.filter((e) => e.event === 'audio').map((e) => e.data as { url: string; seq: number; text: string; duration_ms: number });
    assert.ok(audio.length >= 1);
    assert.deepEqual(audio.map((a) => a.seq), audio.map((_, i) => i));
    assert.equal(synthesizeRequests().length - before, audio.length);
    const voice = (JSON.parse(synthesizeRequests()[before]!.body) as { voice: { name: string } }).voice.name;
    const avatar = (await (await t.request('/v1/avatars/atlas-002', { auth: null })).json()) as { default_voice: string };
    assert.equal(voice, avatar.default_voice);
    const done = events.find((e) => e.event === 'done')!.data as { id: string };
    const stored = (await (await t.request(`/v1/conversations/${id}`)).json()) as { messages: { id: string; audio_url: string | null }[] };
    const message = stored.messages.find((m) => m.id === done.id)!;
    const whole = readMp3Info(new Uint8Array(await (await fetch(message.audio_url!)).arrayBuffer()));
    assert.equal(whole.durationMs, readMp3Info(mp3).durationMs * audio.length);
  });

  it('a vendor failure mid-reply keeps the text: fallback speaks on, and the reply still completes', async () => {
    const reply = 'Lisbon is lovely in spring. The trams climb the seven hills all day long. Would you like a three day plan?';
    const scripted = await startTestServer({
      providersFromConfig: true,
      aiProviders: [scriptedProvider({ reply, delayMs: 5 })],
      env: { GOOGLE_API_KEY: 'AIza-test-secret-0000', GOOGLE_TTS_BASE_URL: google.url, TTS_FALLBACK: 'local' },
    });
    after(() => scripted.close());
    const { id } = (await (await scripted.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'google' } })).json()) as { id: string };
    // The first sentence is spoken by Google; from then on Google fails and local takes over.
    let sentences = 0;
    const res = await scripted.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'Help me plan a trip to Lisbon?', stream: true } });
    const events = await readSse(res, (event) => {
      if (event.event === 'audio' && ++sentences === 1) failNext = 1000;
    });
    failNext = 0;
    const text = events.filter((e) => e.event === 'message').map((e) => (e.data as { delta: string }).delta).join('');
    const audio = events.filter((e) => e.event === 'audio');
    assert.ok(events.some((e) => e.event === 'done'));
    const stored = (await (await scripted.request(`/v1/conversations/${id}`)).json()) as { messages: { role: string; content: string; audio_url: string | null; audio_error?: string | null }[] };
    const message = stored.messages.at(-1)!;
    assert.equal(text, reply);
    assert.equal(message.content, reply);
    assert.equal(audio.length, 3);
    // Every sentence was still spoken (Google first, then local) …
    assert.deepEqual(audio.map((e) => (e.data as { seq: number }).seq), audio.map((_, i) => i));
    // … but clips of two engines (24 kHz and 22.05 kHz MP3) cannot be joined into one file.
    assert.equal(message.audio_url, null);
    assert.match(message.audio_error ?? '', /could not be joined/);
  });
});
