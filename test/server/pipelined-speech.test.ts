import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readMp3Info } from '../../core/audio/mp3-info.js';
import { scriptedProvider } from '../support/scripted-provider.js';
import { readSse } from '../support/sse-client.js';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

const REPLY =
  'Welcome back to the museum tour. Our next room holds paintings from 1850 to 1900, e.g. the Impressionists. ' +
  'Dr. Rivera restored most of them herself! Would you like the short tour or the long one? Either way, take your time.';

interface AudioEvent {
  url: string;
  seq: number;
  text: string;
  duration_ms: number;
  visemes?: { viseme: string; start_ms: number; end_ms: number; weight: number }[];
}

describe('Pipelined speech over SSE', () => {
  let t: TestServer;
  before(async () => (t = await startTestServer({ aiProviders: [scriptedProvider({ reply: REPLY, delayMs: 40 })] })));
  after(() => t.close());

  it('speaks each sentence as it completes, in order, and stores one MP3 equal to the sum of the clips', async () => {
    const created = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'sofia-003' } });
    const { id } = (await created.json()) as { id: string };
    const res = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'Where next?', stream: true } });
    const order: string[] = [];
    const events = await readSse(res, (e) => void order.push(e.event));

    const audio = events.filter((e) => e.event === 'audio').map((e) => e.data as AudioEvent);
    assert.deepEqual(
      audio.map((a) => a.text),
      [
        'Welcome back to the museum tour.',
        'Our next room holds paintings from 1850 to 1900, e.g. the Impressionists.',
        'Dr. Rivera restored most of them herself!',
        'Would you like the short tour or the long one?',
        'Either way, take your time.',
      ],
    );
    assert.deepEqual(audio.map((a) => a.seq), [0, 1, 2, 3, 4]);
    // Pipelined: the first sentence's audio arrives while text is still streaming.
    const firstAudio = order.indexOf('audio');
    assert.ok(firstAudio > 0 && order.slice(firstAudio).includes('message'), 'audio interleaves with text deltas');

    let sum = 0;
    for (const clip of audio) {
      const bytes = new Uint8Array(await (await fetch(clip.url)).arrayBuffer());
      const info = readMp3Info(bytes);
      assert.ok(Math.abs(info.durationMs - clip.duration_ms) <= 30, `clip ${clip.seq} duration matches its event`);
      sum += info.durationMs;
      assert.ok(clip.visemes && clip.visemes.length > 0, 'the local engine gives visemes');
      let previous = 0;
      for (const cue of clip.visemes) {
        assert.ok(['aa', 'ih', 'ou', 'ee', 'oh', 'sil'].includes(cue.viseme));
        assert.ok(cue.start_ms >= previous - 1 && cue.end_ms >= cue.start_ms && cue.end_ms <= info.durationMs + 60);
        assert.ok(cue.weight >= 0 && cue.weight <= 1);
        previous = cue.start_ms;
      }
    }

    const done = events.at(-1)!;
    assert.equal(done.event, 'done');
    const history = (await (await t.request(`/v1/conversations/${id}`)).json()) as { messages: { id: string; audio_url: string | null; usage: { tts_characters: number } }[] };
    const stored = history.messages.find((m) => m.id === (done.data as { id: string }).id)!;
    assert.ok(stored.audio_url);
    const whole = readMp3Info(new Uint8Array(await (await fetch(stored.audio_url)).arrayBuffer()));
    assert.ok(Math.abs(whole.durationMs - sum) <= sum * 0.05, `whole ${whole.durationMs} ms vs clips ${sum} ms`);
    assert.equal(stored.usage.tts_characters, audio.reduce((n, a) => n + [...a.text].length, 0));
  });

  it('keeps the text and reports audio_error when speech fails mid-reply', async () => {
    let calls = 0;
    const local = t.service.speech.list()[0]!;
    const flaky = {
      ...local,
      id: 'local',
      available: () => local.available(),
      voices: () => local.voices(),
      close: async () => undefined,
      async synthesize(request: Parameters<typeof local.synthesize>[0]) {
        if (++calls === 2) throw new Error('engine crashed');
        return local.synthesize(request);
      },
    };
    const failing = await startTestServer({ aiProviders: [scriptedProvider({ reply: REPLY })], speechProviders: [flaky] });
    try {
      const { id } = (await (await failing.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } })).json()) as { id: string };
      const res = await failing.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'go on' } });
      assert.equal(res.status, 200);
      const message = (await res.json()) as { content: string; audio_url: string | null; audio_error?: string };
      assert.equal(message.content, REPLY);
      assert.equal(message.audio_url, null);
      assert.match(message.audio_error ?? '', /local speech failed: engine crashed/);
    } finally {
      await failing.close();
    }
  });
});
