import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { concatMp3 } from '../../../core/audio/concat-mp3.js';
import { createMp3ClipEncoder, hasClipFormat, speechMp3Format } from '../../../core/audio/mp3-clip-encoder.js';
import { readMp3Info } from '../../../core/audio/mp3-info.js';
import { join, makeFrames } from './mp3-test-frames.js';

const speech = { version: 2, sampleRate: 22050, bitrateKbps: 48, channels: 1 } as const;

function tone(seconds: number, sampleRate: number, hz: number): Float32Array {
  return Float32Array.from({ length: Math.round(seconds * sampleRate) }, (_, i) => 0.4 * Math.sin((2 * Math.PI * hz * i) / sampleRate));
}

describe('concatMp3', () => {
  it('joins frames and drops tags', () => {
    const tag = Uint8Array.of(0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 5, 1, 2, 3, 4, 5);
    const joined = concatMp3([join(tag, makeFrames(speech, 4)), makeFrames(speech, 6)]);
    const info = readMp3Info(joined);
    assert.equal(info.frameCount, 10);
    assert.equal(info.audioStart, 0);
  });

  it('refuses clips of different formats', () => {
    assert.throws(() => concatMp3([makeFrames(speech, 2), makeFrames({ ...speech, channels: 2 }, 2)]), /Clip 1 is MPEG-2 22050 Hz 2 ch/);
    assert.throws(() => concatMp3([makeFrames(speech, 2), Uint8Array.of(1, 2, 3)]), /Clip 1 cannot be concatenated/);
  });

  it('returns nothing for no clips', () => {
    assert.equal(concatMp3([]).length, 0);
  });
});

describe('createMp3ClipEncoder (real LAME output)', () => {
  it('makes tag-free CBR clips of the speech format that concatenate', async () => {
    const encoder = await createMp3ClipEncoder();
    const a = encoder.encode(tone(1, 22050, 220), 22050);
    const b = encoder.encode(tone(2, 22050, 330), 22050);
    const infoA = readMp3Info(a);
    const infoB = readMp3Info(b);
    assert.ok(hasClipFormat(infoA) && hasClipFormat(infoB), JSON.stringify(infoA));
    assert.equal(infoA.audioStart, 0, 'no ID3 tag or Xing frame');
    assert.equal(infoA.audioEnd, a.length);
    // LAME pads up to whole frames plus its delay: a little longer than the input, never shorter.
    assert.ok(infoA.durationMs >= 1000 && infoA.durationMs < 1200, String(infoA.durationMs));
    const joined = readMp3Info(concatMp3([a, b]));
    assert.equal(joined.frameCount, infoA.frameCount + infoB.frameCount);
    assert.ok(Math.abs(joined.durationMs - (infoA.durationMs + infoB.durationMs)) < 1e-6);
    assert.equal(joined.sampleRate, speechMp3Format.sampleRate);
  });

  it('resamples input at another rate to the clip format', async () => {
    const encoder = await createMp3ClipEncoder();
    const info = readMp3Info(encoder.encode(tone(1, 44100, 440), 44100));
    assert.ok(hasClipFormat(info));
    assert.ok(info.durationMs >= 1000 && info.durationMs < 1200, String(info.durationMs));
  });
});
