import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ipaToVisemeSlots, splitIpaPhonemes } from '../../../../core/speech/local/ipa-visemes.js';
import { buildVisemeTimeline } from '../../../../core/speech/local/phoneme-viseme-timeline.js';
import { VisemeName } from '../../../../core/speech/speech-provider.js';

describe('ipaToVisemeSlots', () => {
  it('splits espeak-ng IPA into phonemes, keeping tied sounds together', () => {
    // "brown fox" as espeak-ng --ipa=3 prints it (ZWJ ties the diphthong).
    const phonemes = splitIpaPhonemes('bɹˈa\u200dʊn fˈɑːks');
    assert.deepEqual(phonemes.map((p) => p.sounds.join('')), ['b', 'ɹ', 'aʊ', 'n', 'f', 'ɑ', 'k', 's']);
    assert.equal(phonemes[5]!.long, true);
  });

  it('maps vowels to mouth shapes, diphthongs to two, lips-closed consonants to sil', () => {
    assert.deepEqual(ipaToVisemeSlots('bɹˈa\u200dʊn').map((s) => s.viseme), ['sil', 'ih', 'aa', 'ou', 'ih']);
    assert.deepEqual(ipaToVisemeSlots('sˈiː').map((s) => s.viseme), ['ih', 'ee']);
    assert.deepEqual(ipaToVisemeSlots('wˈo\u200dʊ').map((s) => s.viseme), ['ou', 'oh', 'ou']);
    assert.deepEqual(ipaToVisemeSlots('(\u200de\u200dn)tʃ'), [{ viseme: 'ih', duration: 0.55, openness: 0.35 }, { viseme: 'ou', duration: 0.55, openness: 0.35 }]);
  });
});

describe('buildVisemeTimeline', () => {
  const sampleRate = 22050;
  // 0.2 s silence, 0.5 s tone, 0.3 s silence, 0.4 s tone, 0.1 s silence
  const parts: [number, boolean][] = [[0.2, false], [0.5, true], [0.3, false], [0.4, true], [0.1, false]];
  const samples = new Float32Array(Math.round(1.5 * sampleRate));
  let at = 0;
  for (const [seconds, loud] of parts) {
    const n = Math.round(seconds * sampleRate);
    if (loud) for (let i = 0; i < n; i++) samples[at + i] = 0.5 * Math.sin(i / 5);
    at += n;
  }
  const clauses = [ipaToVisemeSlots('həlˈo\u200dʊ'), ipaToVisemeSlots('ma\u200dɪ fɹˈɛnd')];

  it('puts speech over the loud parts and sil over the pauses', () => {
    const cues = buildVisemeTimeline({ samples, sampleRate, clauses, offsetMs: 50, durationMs: 1600 });
    let end = 0;
    for (const cue of cues) {
      assert.ok(VisemeName.includes(cue.viseme));
      assert.ok(cue.startMs >= end && cue.endMs > cue.startMs, JSON.stringify(cue));
      assert.ok(cue.weight >= 0 && cue.weight <= 1);
      end = cue.endMs;
    }
    assert.equal(cues[0]!.startMs, 0);
    assert.equal(cues.at(-1)!.endMs, 1600);
    const at = (ms: number) => cues.find((c) => c.startMs <= ms && ms < c.endMs)!;
    assert.equal(at(100).viseme, 'sil'); // leading silence (+50 ms decoder delay)
    assert.equal(at(950).viseme, 'sil'); // the pause between clauses
    assert.notEqual(at(500).viseme, 'sil');
    assert.notEqual(at(1300).viseme, 'sil');
    // The first clause ("hello") ends before the pause, the second ("my friend") starts after it.
    assert.equal(at(730).viseme, 'ou'); // last sound of "hello"
    assert.equal(at(1055).viseme, 'sil'); // "m" of "my": lips closed
  });

  it('is all sil for silent audio', () => {
    const cues = buildVisemeTimeline({ samples: new Float32Array(22050), sampleRate, clauses, offsetMs: 50, durationMs: 1000 });
    assert.deepEqual(cues, [{ viseme: 'sil', startMs: 0, endMs: 1000, weight: 0 }]);
  });
});
