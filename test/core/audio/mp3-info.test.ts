import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServiceError } from '../../../core/errors.js';
import { encodeMp3FrameHeader, parseMp3FrameHeader } from '../../../core/audio/mp3-frame-header.js';
import { join, makeFrames, type Format } from './mp3-test-frames.js';
import { readMp3Info } from '../../../core/audio/mp3-info.js';

const speech: Format = { version: 2, sampleRate: 22050, bitrateKbps: 48, channels: 1 };

function id3v2(bodyLength: number): Uint8Array {
  const tag = new Uint8Array(10 + bodyLength);
  tag.set([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, (bodyLength >> 7) & 0x7f, bodyLength & 0x7f]);
  return tag;
}

describe('parseMp3FrameHeader', () => {
  it('decodes MPEG-2 Layer III 22050 Hz mono 48 kbps', () => {
    const header = parseMp3FrameHeader(Uint8Array.of(0xff, 0xf3, 0x60, 0xc4), 0);
    assert.deepEqual(header, {
      version: 2, sampleRate: 22050, bitrateKbps: 48, channels: 1, hasCrc: false, padding: false, frameLength: 156, samplesPerFrame: 576,
    });
  });

  it('decodes MPEG-1 44100 Hz stereo 128 kbps with padding', () => {
    const header = parseMp3FrameHeader(encodeMp3FrameHeader({ version: 1, sampleRate: 44100, bitrateKbps: 128, channels: 2, padding: true }), 0);
    assert.equal(header?.frameLength, 418);
    assert.equal(header?.samplesPerFrame, 1152);
  });

  it('rejects other layers, reserved fields and missing sync', () => {
    assert.equal(parseMp3FrameHeader(Uint8Array.of(0xff, 0xfd, 0x60, 0xc4), 0), null); // Layer II
    assert.equal(parseMp3FrameHeader(Uint8Array.of(0xff, 0xf3, 0xf0, 0xc4), 0), null); // bad bitrate
    assert.equal(parseMp3FrameHeader(Uint8Array.of(0xff, 0xf3, 0x6c, 0xc4), 0), null); // reserved rate
    assert.equal(parseMp3FrameHeader(Uint8Array.of(0x52, 0x49, 0x46, 0x46), 0), null);
    assert.equal(parseMp3FrameHeader(Uint8Array.of(0xff, 0xf3), 0), null);
  });
});

describe('readMp3Info', () => {
  it('counts frames and derives the duration', () => {
    const info = readMp3Info(makeFrames(speech, 100));
    assert.equal(info.frameCount, 100);
    assert.equal(info.sampleRate, 22050);
    assert.equal(info.channels, 1);
    assert.equal(info.bitrateKbps, 48);
    assert.equal(info.constantBitrate, true);
    assert.equal(info.durationMs, (100 * 576 * 1000) / 22050);
  });

  it('skips an ID3v2 tag, a Xing frame and an ID3v1 tag', () => {
    const xing = makeFrames(speech, 1, (frame) => frame.set([0x58, 0x69, 0x6e, 0x67], 4 + 9));
    const id3v1 = new Uint8Array(128);
    id3v1.set([0x54, 0x41, 0x47]);
    const tag = id3v2(300);
    const info = readMp3Info(join(tag, xing, makeFrames(speech, 10), id3v1));
    assert.equal(info.frameCount, 10);
    assert.equal(info.audioStart, tag.length + xing.length);
  });

  it('reports the average bitrate of a VBR stream', () => {
    const info = readMp3Info(join(makeFrames(speech, 2), makeFrames({ ...speech, bitrateKbps: 24 }, 2)));
    assert.equal(info.constantBitrate, false);
    assert.equal(info.bitrateKbps, 36);
  });

  it('throws a clear error on input that is not MP3', () => {
    const wav = new TextEncoder().encode('RIFF\0\0\0\0WAVEfmt ');
    assert.throws(() => readMp3Info(wav), (error: unknown) => {
      assert.ok(error instanceof ServiceError);
      assert.equal(error.code, 'unsupported_media_type');
      assert.match(error.message, /Not an MP3 stream: no Layer III frame header at byte 0 \(found 52 49 46 46\)/);
      return true;
    });
    assert.throws(() => readMp3Info(new Uint8Array(0)), /Not an MP3 stream/);
  });

  it('throws on lost sync, truncation and a format change mid-stream', () => {
    assert.throws(() => readMp3Info(join(makeFrames(speech, 3), Uint8Array.of(1, 2, 3, 4, 5))), /lost frame sync at byte 468/);
    assert.throws(() => readMp3Info(makeFrames(speech, 3).subarray(0, 400)), /truncated/);
    assert.throws(() => readMp3Info(join(makeFrames(speech, 2), makeFrames({ ...speech, sampleRate: 24000 }, 2))), /24000 Hz/);
  });
});
