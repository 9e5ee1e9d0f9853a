import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { visemesFromAlignment } from '../../../../core/speech/elevenlabs/alignment-visemes.js';

function align(text: string, stepS: number) {
  const characters = [...text];
  return {
    characters,
    character_start_times_seconds: characters.map((_, i) => i * stepS),
    character_end_times_seconds: characters.map((_, i) => (i + 1) * stepS),
  };
}

describe('visemesFromAlignment', () => {
  it('closes the lips on p/b/m, opens them on vowels, and merges equal neighbours', () => {
    const cues = visemesFromAlignment(align('mama', 0.1), 400)!;
    assert.deepEqual(
      cues.map((c) => [c.viseme, c.startMs, c.endMs, c.weight]),
      [
        ['sil', 0, 100, 0],
        ['aa', 100, 200, 1],
        ['sil', 200, 300, 0],
        ['aa', 300, 400, 1],
      ],
    );
  });

  it('reads accented letters by their base letter and other scripts as an open mouth', () => {
    const cues = visemesFromAlignment(align('é', 0.1), 100)!;
    assert.equal(cues[0]!.viseme, 'ee');
    const kana = visemesFromAlignment(align('こ', 0.1), 100)!;
    assert.equal(kana[0]!.viseme, 'ih');
  });

  it('clips cues to the clip and never lets them overlap', () => {
    const overlapping = {
      characters: ['a', 'o', 'u'],
      character_start_times_seconds: [0, 0.05, 0.2],
      character_end_times_seconds: [0.1, 0.2, 0.5],
    };
    const cues = visemesFromAlignment(overlapping, 300)!;
    let end = 0;
    for (const cue of cues) {
      assert.ok(cue.startMs >= end && cue.endMs > cue.startMs && cue.endMs <= 300, JSON.stringify(cue));
      end = cue.endMs;
    }
    assert.equal(cues[cues.length - 1]!.endMs, 300);
  });

  it('gives up (undefined) on arrays of different lengths', () => {
    assert.equal(visemesFromAlignment({ characters: ['a'], character_start_times_seconds: [], character_end_times_seconds: [0.1] }, 100), undefined);
  });
});
