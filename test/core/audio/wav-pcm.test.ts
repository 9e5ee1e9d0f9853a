import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readWavPcm } from '../../../core/audio/wav-pcm.js';

function wav(samples: number[], sampleRate = 22050, declaredDataSize?: number): Uint8Array {
  const bytes = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, s: string): void => [...s].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, declaredDataSize ?? samples.length * 2, true);
  samples.forEach((s, i) => view.setInt16(44 + i * 2, s, true));
  return bytes;
}

describe('readWavPcm', () => {
  it('reads 16-bit mono PCM as floats', () => {
    const pcm = readWavPcm(wav([0, 16384, -32768]));
    assert.equal(pcm.sampleRate, 22050);
    assert.deepEqual([...pcm.channels[0]!], [0, 0.5, -1]);
  });

  it('reads a data chunk whose size was never patched up to the end', () => {
    assert.equal(readWavPcm(wav([1, 2, 3], 22050, 0x7fffffff)).channels[0]!.length, 3);
  });

  it('refuses what is not a WAV', () => {
    assert.throws(() => readWavPcm(Uint8Array.of(0xff, 0xf3, 0x60, 0xc4)), /Not a 16-bit PCM WAV/);
  });
});
