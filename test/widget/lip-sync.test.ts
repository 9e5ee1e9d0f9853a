import { expect } from '@open-wc/testing';
import { AudioMouthAnalyser, mouthFromFeatures } from '../../widget/audio/audio-mouth-analyser.js';
import { BrowserSpeech, pickVoice, syllableVisemes, type SpeechSynthesisLike } from '../../widget/audio/browser-speech.js';
import { dominantViseme, mouthOpenness, type MouthWeights } from '../../widget/audio/mouth-weights.js';
import { VisemeTimeline } from '../../widget/audio/viseme-timeline.js';

const sum = (w: MouthWeights) => w.aa + w.ih + w.ou + w.ee + w.oh;

describe('VisemeTimeline', () => {
  const timeline = new VisemeTimeline([
    // Deliberately unsorted.
    { viseme: 'ou', start_ms: 200, end_ms: 400, weight: 0.6 },
    { viseme: 'aa', start_ms: 0, end_ms: 200, weight: 1 },
    { viseme: 'sil', start_ms: 400, end_ms: 600, weight: 0 },
    { viseme: 'ee', start_ms: 600, end_ms: 620, weight: 1 },
  ]);

  it('holds a segment’s viseme at its weight inside the segment', () => {
    expect(timeline.sample(100)).to.deep.equal({ aa: 1, ih: 0, ou: 0, ee: 0, oh: 0 });
    expect(timeline.sample(300).ou).to.be.closeTo(0.6, 1e-9);
    expect(dominantViseme(timeline.sample(300))).to.equal('ou');
  });

  it('cross-fades at a boundary, never over-opening', () => {
    const edge = timeline.sample(200);
    expect(edge.aa).to.be.greaterThan(0.2);
    expect(edge.ou).to.be.greaterThan(0.1);
    for (let t = -50; t < 700; t += 5) expect(sum(timeline.sample(t))).to.be.at.most(1 + 1e-9);
  });

  it('closes the mouth on sil, before the start and after the end', () => {
    expect(mouthOpenness(timeline.sample(500))).to.equal(0);
    expect(mouthOpenness(timeline.sample(-100))).to.equal(0);
    expect(mouthOpenness(timeline.sample(1000))).to.equal(0);
  });

  it('lets a very short segment still peak', () => {
    expect(timeline.sample(610).ee).to.be.closeTo(1, 1e-9);
    expect(timeline.durationMs).to.equal(620);
  });
});

describe('mouthFromFeatures (loudness and spectral shape)', () => {
  const shape = { low: 0.2, mid: 0.6, high: 0.2 };

  it('maps −34 dBFS (closed) … −12 dBFS (open)', () => {
    expect(mouthOpenness(mouthFromFeatures({ rmsDb: -Infinity, ...shape }))).to.equal(0);
    expect(mouthOpenness(mouthFromFeatures({ rmsDb: -40, ...shape }))).to.equal(0);
    expect(mouthOpenness(mouthFromFeatures({ rmsDb: -23, ...shape }))).to.be.closeTo(0.5, 1e-6);
    expect(mouthOpenness(mouthFromFeatures({ rmsDb: -12, ...shape }))).to.be.closeTo(1, 1e-6);
    expect(mouthOpenness(mouthFromFeatures({ rmsDb: 0, ...shape }))).to.be.closeTo(1, 1e-6);
  });

  it('picks the vowel shape from where the energy sits', () => {
    const loud = -10;
    expect(dominantViseme(mouthFromFeatures({ rmsDb: loud, low: 0.1, mid: 0.8, high: 0.1 }))).to.equal('aa');
    expect(dominantViseme(mouthFromFeatures({ rmsDb: loud, low: 0.9, mid: 0.05, high: 0.05 }))).to.equal('ou');
    expect(dominantViseme(mouthFromFeatures({ rmsDb: loud, low: 0.1, mid: 0.05, high: 0.85 }))).to.equal('ee');
    expect(dominantViseme(mouthFromFeatures({ rmsDb: loud, low: 0.45, mid: 0.5, high: 0.05 }))).to.equal('oh');
    expect(dominantViseme(mouthFromFeatures({ rmsDb: loud, low: 0.3, mid: 0.3, high: 0.4 }))).to.equal('ih');
  });
});

describe('AudioMouthAnalyser on rendered audio', () => {
  /** Renders a sine at `hz` and `dbfs` and analyses 0.25 s in (OfflineAudioContext.suspend). */
  async function analyse(hz: number, dbfs: number): Promise<MouthWeights> {
    const rate = 24000;
    const offline = new OfflineAudioContext(1, rate * 0.5, rate);
    const analyser = new AudioMouthAnalyser(offline);
    const osc = offline.createOscillator();
    osc.frequency.value = hz;
    const gain = offline.createGain();
    // A sine's RMS is its amplitude / √2.
    gain.gain.value = 10 ** (dbfs / 20) * Math.SQRT2;
    osc.connect(gain).connect(analyser.input).connect(offline.destination);
    osc.start(0);
    let result: MouthWeights | undefined;
    void offline.suspend(0.25).then(() => {
      result = analyser.sample();
      void offline.resume();
    });
    await offline.startRendering();
    return result!;
  }

  it('opens with loudness', async () => {
    expect(mouthOpenness(await analyse(700, -40)), '−40 dBFS').to.equal(0);
    const half = mouthOpenness(await analyse(700, -23));
    expect(half, '−23 dBFS').to.be.greaterThan(0.35).and.lessThan(0.65);
    expect(mouthOpenness(await analyse(700, -6)), '−6 dBFS').to.be.greaterThan(0.95);
  });

  it('shapes the mouth by frequency: low → ou, mid → aa, high → ee', async () => {
    expect(dominantViseme(await analyse(250, -6))).to.equal('ou');
    expect(dominantViseme(await analyse(800, -6))).to.equal('aa');
    expect(dominantViseme(await analyse(2500, -6))).to.equal('ee');
  });
});

describe('BrowserSpeech', () => {
  /** A stand-in for speechSynthesis that records utterances; the test fires their events. */
  class FakeSynthesis implements SpeechSynthesisLike {
    spoken: SpeechSynthesisUtterance[] = [];
    cancelled = 0;
    speak(u: SpeechSynthesisUtterance): void {
      this.spoken.push(u);
    }
    cancel(): void {
      this.cancelled++;
    }
    getVoices(): SpeechSynthesisVoice[] {
      return [];
    }
  }

  const boundary = (u: SpeechSynthesisUtterance, charIndex: number, charLength: number) =>
    u.onboundary?.call(u, { name: 'word', charIndex, charLength } as SpeechSynthesisEvent);
  const fire = (u: SpeechSynthesisUtterance, kind: 'onstart' | 'onend') => u[kind]?.call(u, {} as SpeechSynthesisEvent);

  let now = 0;
  let synthesis: FakeSynthesis;
  let speech: BrowserSpeech;

  beforeEach(() => {
    now = 1000;
    synthesis = new FakeSynthesis();
    speech = new BrowserSpeech({ lang: 'en-US', synthesis, now: () => now });
  });

  it('is available in Chromium', () => {
    expect(BrowserSpeech.available()).to.equal(true);
  });

  it('picks a voice by hint, else by language', () => {
    const voices = [
      { name: 'Alpha', lang: 'de-DE' },
      { name: 'Bravo English', lang: 'en-US' },
      { name: 'Charlie Female', lang: 'en-GB' },
    ];
    expect(pickVoice(voices, 'en-US')?.name).to.equal('Bravo English');
    expect(pickVoice(voices, 'en-US', 'female')?.name).to.equal('Charlie Female');
    expect(pickVoice(voices, 'en-AU')?.name).to.equal('Bravo English');
    expect(pickVoice(voices, 'fr-FR')).to.equal(undefined);
    speech.speak('Hi.');
    expect(synthesis.spoken[0]!.lang).to.equal('en-US');
  });

  it('opens the mouth on each word boundary, shaped by its vowels, and lets it close', () => {
    const events: string[] = [];
    speech.addEventListener('start', () => events.push('start'));
    speech.addEventListener('idle', () => events.push('idle'));
    speech.speak('Who sees a cat');
    const u = synthesis.spoken[0]!;
    fire(u, 'onstart');
    expect(mouthOpenness(speech.mouth())).to.equal(0);

    boundary(u, 4, 4); // "sees"
    now += 60;
    const sees = speech.mouth();
    expect(mouthOpenness(sees)).to.be.greaterThan(0.5);
    expect(dominantViseme(sees)).to.equal('ee');
    now += 600;
    expect(mouthOpenness(speech.mouth()), 'decayed').to.be.lessThan(0.05);

    boundary(u, 0, 3); // "Who"
    now += 60;
    expect(dominantViseme(speech.mouth())).to.equal('oh');

    fire(u, 'onend');
    expect(events).to.deep.equal(['start', 'idle']);
  });

  it('paces syllables from the text when the voice sends no boundary events', () => {
    speech.speak('banana banana');
    const u = synthesis.spoken[0]!;
    fire(u, 'onstart');
    let opened = 0;
    for (let i = 0; i < 100; i++) {
      now += 20;
      if (mouthOpenness(speech.mouth()) > 0.4) opened++;
    }
    expect(opened).to.be.greaterThan(10);
  });

  it('stop() cancels, closes the mouth and reports idle', () => {
    let idle = 0;
    speech.addEventListener('idle', () => idle++);
    speech.speak('one');
    speech.speak('two');
    fire(synthesis.spoken[0]!, 'onstart');
    boundary(synthesis.spoken[0]!, 0, 3);
    now += 50;
    speech.stop();
    expect(synthesis.cancelled).to.equal(1);
    expect(idle).to.equal(1);
    expect(mouthOpenness(speech.mouth())).to.equal(0);
    expect(speech.playing).to.equal(false);
  });

  it('splits words into syllable visemes', () => {
    expect(syllableVisemes('hello')).to.deep.equal(['ee', 'oh']);
    expect(syllableVisemes('banana')).to.deep.equal(['aa', 'aa', 'aa']);
    expect(syllableVisemes('rhythm')).to.deep.equal(['ih']);
  });
});
