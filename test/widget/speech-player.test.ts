import { expect, waitUntil } from '@open-wc/testing';
import { SpeechPlayer } from '../../widget/audio/speech-player.js';
import { dominantViseme, mouthOpenness } from '../../widget/audio/mouth-weights.js';
import type { WireViseme } from '../../core/protocol/realtime-protocol.js';

const RATE = 24000;
const POLL = { timeout: 20000, interval: 10 } as const;

/** A phase of a test clip: a tone (voice-like: 180 Hz with harmonics) at `level` (0…1) or silence. */
type Phase = { seconds: number; level: number };

/** Encodes mono float samples as a 16-bit PCM WAV file (decodeAudioData reads it like MP3). */
function encodeWav(samples: Float32Array, rate = RATE): ArrayBuffer {
  const buffer = new ArrayBuffer(44 + samples.length * 2);
  const view = new DataView(buffer);
  const text = (offset: number, s: string) => [...s].forEach((c, i) => view.setUint8(offset + i, c.charCodeAt(0)));
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  samples.forEach((s, i) => view.setInt16(44 + i * 2, Math.max(-1, Math.min(1, s)) * 0x7fff, true));
  return buffer;
}

/** Tone bursts and silences, rendered with an OfflineAudioContext, as WAV bytes. */
async function clip(phases: Phase[]): Promise<ArrayBuffer> {
  const seconds = phases.reduce((s, p) => s + p.seconds, 0);
  const offline = new OfflineAudioContext(1, Math.round(seconds * RATE), RATE);
  const gain = offline.createGain();
  gain.connect(offline.destination);
  gain.gain.setValueAtTime(0, 0);
  let t = 0;
  for (const p of phases) {
    gain.gain.setValueAtTime(p.level, t);
    t += p.seconds;
  }
  for (const [freq, amp] of [[180, 0.6], [360, 0.25], [720, 0.15]] as const) {
    const osc = offline.createOscillator();
    osc.frequency.value = freq;
    const g = offline.createGain();
    g.gain.value = amp;
    osc.connect(g).connect(gain);
    osc.start(0);
  }
  const rendered = await offline.startRendering();
  return encodeWav(rendered.getChannelData(0));
}

const silence = (seconds: number) => clip([{ seconds, level: 0 }]);

/** Samples `fn` on every animation frame until `until()` is true. */
async function sampleFrames(fn: () => void, until: () => boolean, timeoutMs = 20000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!until()) {
    if (performance.now() > end) throw new Error('timed out sampling');
    fn();
    await new Promise((r) => requestAnimationFrame(r));
  }
}

function rms(analyser: AnalyserNode): number {
  const data = new Float32Array(analyser.fftSize);
  analyser.getFloatTimeDomainData(data);
  return Math.sqrt(data.reduce((s, v) => s + v * v, 0) / data.length);
}

describe('SpeechPlayer', () => {
  let context: AudioContext;
  let tap: AnalyserNode;
  let player: SpeechPlayer;

  beforeEach(async () => {
    context = new AudioContext();
    await context.resume();
    // Everything the player outputs goes through `tap`, so the tests can hear it.
    tap = context.createAnalyser();
    tap.fftSize = 2048;
    tap.connect(context.destination);
    player = new SpeechPlayer({ context, destination: tap });
  });

  afterEach(async () => {
    player.dispose();
    await context.close();
  });

  it('plays clips in seq order, back to back with no gap, whatever order they arrive in', async () => {
    const [a, b, c] = await Promise.all([silence(0.25), silence(0.15), silence(0.2)]);
    const clips: number[] = [];
    let starts = 0;
    let idle = false;
    player.addEventListener('clip', (e) => clips.push((e as CustomEvent<{ seq: number }>).detail.seq));
    player.addEventListener('start', () => starts++);
    player.addEventListener('idle', () => (idle = true));

    player.enqueue({ seq: 2, bytes: c! });
    player.enqueue({ seq: 0, bytes: a! });
    player.enqueue({ seq: 1, bytes: b! });
    await waitUntil(() => player.schedule.length === 3, 'all three scheduled', POLL);
    expect(player.playing).to.equal(true);

    const schedule = player.schedule;
    expect(schedule.map((s) => s.seq)).to.deep.equal([0, 1, 2]);
    expect(schedule[1]!.start, 'clip 1 starts where clip 0 ends').to.equal(schedule[0]!.end);
    expect(schedule[2]!.start, 'clip 2 starts where clip 1 ends').to.equal(schedule[1]!.end);
    expect(schedule[0]!.end - schedule[0]!.start).to.be.closeTo(0.25, 0.001);

    await waitUntil(() => idle, 'idle after the last clip', POLL);
    expect(clips).to.deep.equal([0, 1, 2]);
    expect(starts).to.equal(1);
    expect(player.playing).to.equal(false);
    expect(context.currentTime).to.be.at.least(schedule[2]!.end);
  });

  it('a later clip waits for an earlier one that is still downloading', async () => {
    const bytes = await silence(0.1);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const fetchStub = (async (input: RequestInfo | URL) => {
      if (String(input).endsWith('/0.wav')) await gate;
      return new Response(bytes.slice(0), { headers: { 'content-type': 'audio/wav' } });
    }) as typeof fetch;
    player.dispose();
    player = new SpeechPlayer({ context, destination: tap, fetch: fetchStub });

    player.enqueue({ seq: 0, url: '/audio/0.wav' });
    player.enqueue({ seq: 1, url: '/audio/1.wav' });
    await new Promise((r) => setTimeout(r, 200));
    expect(player.schedule.length, 'nothing plays before clip 0').to.equal(0);
    release();
    await waitUntil(() => player.schedule.length === 2, 'both scheduled', POLL);
    expect(player.schedule.map((s) => s.seq)).to.deep.equal([0, 1]);
    expect(player.schedule[1]!.start).to.equal(player.schedule[0]!.end);
  });

  it('skips a clip that fails to load, reports it, and plays the rest', async () => {
    const bytes = await silence(0.1);
    const fetchStub = (async (input: RequestInfo | URL) =>
      String(input).endsWith('/1.wav') ? new Response('gone', { status: 404 }) : new Response(bytes.slice(0))) as typeof fetch;
    player.dispose();
    player = new SpeechPlayer({ context, destination: tap, fetch: fetchStub });
    const errors: number[] = [];
    player.addEventListener('error', (e) => errors.push((e as CustomEvent<{ seq: number }>).detail.seq));
    let idle = false;
    player.addEventListener('idle', () => (idle = true));
    for (const seq of [0, 1, 2]) player.enqueue({ seq, url: `/audio/${seq}.wav` });
    await waitUntil(() => idle, 'idle', POLL);
    expect(errors).to.deep.equal([1]);
    expect(player.schedule.map((s) => s.seq)).to.deep.equal([0, 2]);
  });

  it('opens the mouth in the loud bursts and closes it in the silences (audio analysis)', async () => {
    // loud, quiet, loud, quiet — 0.4 s each.
    const bytes = await clip([
      { seconds: 0.4, level: 1 },
      { seconds: 0.4, level: 0 },
      { seconds: 0.4, level: 1 },
      { seconds: 0.4, level: 0 },
    ]);
    player.enqueue({ seq: 0, bytes });
    await waitUntil(() => player.schedule.length === 1, 'scheduled', POLL);
    const { start, end } = player.schedule[0]!;
    const loud: number[] = [];
    const quiet: number[] = [];
    await sampleFrames(
      () => {
        const open = mouthOpenness(player.mouth());
        const t = player.audibleTime - start;
        const phase = Math.floor(t / 0.4);
        const within = t - phase * 0.4;
        // Leave the edges to the smoothing: only the middle of each phase counts.
        if (t < 0 || within < 0.12 || within > 0.36) return;
        (phase % 2 === 0 ? loud : quiet).push(open);
      },
      () => player.audibleTime > end,
    );
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(loud.length).to.be.greaterThan(3);
    expect(quiet.length).to.be.greaterThan(3);
    expect(mean(loud), 'open while loud').to.be.greaterThan(0.5);
    // Frames come late on a loaded machine, so the smoothing's tail can reach into a quiet phase:
    // the bar is relative to the loud phases, and never above 0.2.
    expect(mean(quiet), 'closed while quiet').to.be.lessThan(Math.min(0.2, mean(loud) / 4));
  });

  it('follows a given viseme timeline at the playback position', async () => {
    const visemes: WireViseme[] = [
      { viseme: 'aa', start_ms: 0, end_ms: 300, weight: 1 },
      { viseme: 'ou', start_ms: 300, end_ms: 600, weight: 0.8 },
      { viseme: 'ee', start_ms: 600, end_ms: 900, weight: 0.9 },
      { viseme: 'sil', start_ms: 900, end_ms: 1200, weight: 0 },
    ];
    // Constant loud audio: if the analysis were used instead, the shape would not change.
    player.enqueue({ seq: 0, bytes: await clip([{ seconds: 1.2, level: 1 }]), visemes, durationMs: 1200 });
    await waitUntil(() => player.schedule.length === 1, 'scheduled', POLL);
    const { start, end } = player.schedule[0]!;
    const seen: Record<string, string[]> = { aa: [], ou: [], ee: [], sil: [] };
    await sampleFrames(
      () => {
        const ms = (player.audibleTime - start) * 1000;
        const mouth = player.mouth();
        const window = visemes.find((v) => ms >= v.start_ms + 60 && ms < v.end_ms - 60);
        if (window) seen[window.viseme]!.push(dominantViseme(mouth) ?? 'sil');
      },
      () => player.audibleTime > end,
    );
    for (const v of ['aa', 'ou', 'ee', 'sil']) {
      expect(seen[v]!.length, `samples in the ${v} window`).to.be.greaterThan(2);
      expect(seen[v]!.every((d) => d === v), `${v} dominates its window: ${seen[v]!.join(',')}`).to.equal(true);
    }
  });

  it('stop() silences at once, drops the queue and resets the order', async () => {
    const loud = await clip([{ seconds: 1.5, level: 1 }]);
    let idle = 0;
    const clips: number[] = [];
    player.addEventListener('idle', () => idle++);
    player.addEventListener('clip', (e) => clips.push((e as CustomEvent<{ seq: number }>).detail.seq));
    player.enqueue({ seq: 0, bytes: loud });
    player.enqueue({ seq: 1, bytes: loud });
    player.enqueue({ seq: 2, bytes: loud });
    await waitUntil(() => player.schedule.length >= 1 && rms(tap) > 0.05, 'sound comes out', POLL);

    player.stop();
    expect(player.playing).to.equal(false);
    expect(idle).to.equal(1);
    expect(mouthOpenness(player.mouth())).to.equal(0);
    await waitUntil(() => rms(tap) < 1e-4, 'silent', POLL);
    await new Promise((r) => setTimeout(r, 300));
    expect(clips.filter((s) => s > 0), 'later clips never start').to.deep.equal([]);

    // The next reply starts from seq 0 again.
    player.enqueue({ seq: 0, bytes: await silence(0.05) });
    await waitUntil(() => idle === 2, 'next reply plays', POLL);
    expect(player.schedule.map((s) => s.seq)).to.deep.equal([0]);
  });

  it('muted: no sound, but the mouth still moves', async () => {
    player.muted = true;
    player.enqueue({ seq: 0, bytes: await clip([{ seconds: 1, level: 1 }]) });
    await waitUntil(() => player.schedule.length === 1, 'scheduled', POLL);
    const { start, end } = player.schedule[0]!;
    let maxOpen = 0;
    let maxLevel = 0;
    await sampleFrames(
      () => {
        maxOpen = Math.max(maxOpen, mouthOpenness(player.mouth()));
        if (player.audibleTime > start + 0.1) maxLevel = Math.max(maxLevel, rms(tap));
      },
      () => player.audibleTime > end,
    );
    expect(maxLevel, 'output level').to.be.lessThan(1e-4);
    expect(maxOpen, 'mouth').to.be.greaterThan(0.5);
  });
});
