import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

describe('Avatars and personas API', () => {
  let t: TestServer;
  before(async () => (t = await startTestServer()));
  after(() => t.close());

  it('lists six avatars with every field of the specification, marked as presets', async () => {
    const res = await t.request('/v1/avatars', { auth: null });
    assert.equal(res.status, 200);
    const { avatars } = (await res.json()) as { avatars: Record<string, unknown>[] };
    assert.equal(avatars.length, 6);
    for (const avatar of avatars) {
      assert.deepEqual(Object.keys(avatar).sort(), ['default_voice', 'description', 'id', 'model_url', 'name', 'preset', 'preview_url', 'tags']);
      assert.equal(avatar.preset, true);
      assert.match(String(avatar.id), /^[a-z]+-\d{3}$/);
      assert.match(String(avatar.default_voice), /^[a-z]{2}-[A-Z]{2}-Neural2-[A-Z]$/);
      assert.equal(avatar.model_url, `${t.url}/assets/avatars/${avatar.id}.vrm`);
      assert.equal(avatar.preview_url, `${t.url}/assets/avatars/${avatar.id}.png`);
    }
  });

  it('returns avatar detail with animations, voice and traits; 404 for unknown ids', async () => {
    const detail = (await (await t.request('/v1/avatars/atlas-002', { auth: null })).json()) as {
      animations: Record<string, string>;
      voice: { default: string; alternatives: string[] };
      traits: { personality: string; speaking_style: string };
    };
    assert.deepEqual(Object.keys(detail.animations).sort(), ['idle', 'talking', 'thinking']);
    assert.equal(detail.voice.default, 'en-US-Neural2-D');
    assert.ok(detail.voice.alternatives.length >= 1);
    assert.ok(detail.traits.personality && detail.traits.speaking_style);
    const missing = await t.request('/v1/avatars/nobody-000', { auth: null });
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { error: { code: string } }).error.code, 'not_found');
  });

  it('lists personas, by vertical and by id', async () => {
    const { personas } = (await (await t.request('/v1/personas', { auth: null })).json()) as { personas: { id: string; vertical: string; system_prompt: string; greeting: string; suggested_avatar_id: string }[] };
    assert.ok(personas.length >= 12);
    assert.ok(new Set(personas.map((p) => p.vertical)).size >= 6);
    const education = (await (await t.request('/v1/personas/education', { auth: null })).json()) as { personas: { vertical: string }[] };
    assert.ok(education.personas.length >= 2);
    assert.ok(education.personas.every((p) => p.vertical === 'education'));
    const first = personas[0]!;
    const one = (await (await t.request(`/v1/personas/id/${first.id}`, { auth: null })).json()) as typeof first;
    assert.deepEqual(one, first);
    const unknownVertical = await t.request('/v1/personas/astrology', { auth: null });
    assert.equal(unknownVertical.status, 404);
    assert.match(((await unknownVertical.json()) as { error: { message: string } }).error.message, /education/);
    assert.equal((await t.request('/v1/personas/id/nope', { auth: null })).status, 404);
  });
});

describe('Audio files', () => {
  let t: TestServer;
  let url: string;
  let bytes: Uint8Array;
  before(async () => {
    t = await startTestServer();
    const created = (await (await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'kenji-004' } })).json()) as { id: string };
    const reply = (await (await t.request(`/v1/conversations/${created.id}/messages`, { method: 'POST', json: { content: 'Hello!' } })).json()) as { audio_url: string };
    url = reply.audio_url;
    bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
  });
  after(() => t.close());

  it('serves MP3 with long-lived caching and ETags', async () => {
    const res = await fetch(url);
    assert.equal(res.headers.get('content-type'), 'audio/mpeg');
    assert.match(res.headers.get('cache-control') ?? '', /max-age=31536000/);
    assert.equal(res.headers.get('accept-ranges'), 'bytes');
    assert.equal(Number(res.headers.get('content-length')), bytes.length);
    const etag = res.headers.get('etag')!;
    await res.arrayBuffer();
    assert.equal((await fetch(url, { headers: { 'if-none-match': etag } })).status, 304);
  });

  it('answers byte ranges', async () => {
    const res = await fetch(url, { headers: { range: 'bytes=10-109' } });
    assert.equal(res.status, 206);
    assert.equal(res.headers.get('content-range'), `bytes 10-109/${bytes.length}`);
    assert.deepEqual(new Uint8Array(await res.arrayBuffer()), bytes.slice(10, 110));
    const suffix = await fetch(url, { headers: { range: 'bytes=-20' } });
    assert.deepEqual(new Uint8Array(await suffix.arrayBuffer()), bytes.slice(-20));
    const beyond = await fetch(url, { headers: { range: `bytes=${bytes.length + 5}-` } });
    assert.equal(beyond.status, 416);
    assert.equal(beyond.headers.get('content-range'), `bytes */${bytes.length}`);
    for (const range of ['bytes=20-10', 'bytes=abc', 'items=0-5', 'bytes=0-1,4-5']) {
      const whole = await fetch(url, { headers: { range } });
      assert.equal(whole.status, 200, `${range} is ignored`);
      assert.equal((await whole.arrayBuffer()).byteLength, bytes.length);
    }
  });

  it('404s unknown and malformed names, never reaching outside the audio folder', async () => {
    for (const name of ['aud_00000000000000000000000000.mp3', 'x.mp3', '..%2F..%2Favatar.db', '..%2Fjwt-secret', 'aud_%2e%2e.mp3', 'avatar.db']) {
      const res = await t.request(`/v1/audio/${name}`, { auth: null });
      assert.equal(res.status, 404, name);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'not_found');
    }
  });
});
