import { ErrorCode, ServiceError } from '../errors.js';
import { parseMp3FrameHeader, type Mp3FrameHeader } from './mp3-frame-header.js';

/** What an MP3 byte stream holds, measured from its audio frames. */
export interface Mp3Info {
  /** 1 (MPEG-1), 2 (MPEG-2) or 2.5 (MPEG-2.5). */
  version: 1 | 2 | 2.5;
  sampleRate: number;
  channels: 1 | 2;
  /** The bitrate of every frame for CBR; the average for a stream whose frames differ. */
  bitrateKbps: number;
  constantBitrate: boolean;
  /** Audio frames, not counting a Xing/Info/VBRI metadata frame. */
  frameCount: number;
  /** frameCount × samples per frame ÷ sample rate, in milliseconds. */
  durationMs: number;
  /** Byte range of the audio frames: what is left without ID3v2, Xing/Info and ID3v1. */
  audioStart: number;
  audioEnd: number;
}

function notMp3(message: string): ServiceError {
  return new ServiceError(ErrorCode.unsupportedMediaType, `Not an MP3 stream: ${message}`);
}

/** Size of an ID3v2 tag at the start of `bytes`, 0 when there is none. */
function id3v2Length(bytes: Uint8Array): number {
  if (bytes.length < 10 || bytes[0] !== 0x49 || bytes[1] !== 0x44 || bytes[2] !== 0x33) return 0; // "ID3"
  const size = ((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f);
  const hasFooter = (bytes[5]! & 0x10) !== 0;
  return 10 + size + (hasFooter ? 10 : 0);
}

function asciiAt(bytes: Uint8Array, offset: number, text: string): boolean {
  if (offset + text.length > bytes.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[offset + i] !== text.charCodeAt(i)) return false;
  return true;
}

/**
 * Whether the frame at `offset` is a metadata frame (LAME/Xing "Xing" or "Info", Fraunhofer
 * "VBRI") rather than audio. Such a frame decodes to silence in players that do not know it, so it
 * is not counted and is dropped when clips are concatenated.
 */
function isMetadataFrame(bytes: Uint8Array, offset: number, header: Mp3FrameHeader): boolean {
  const sideInfo = header.version === 1 ? (header.channels === 1 ? 17 : 32) : header.channels === 1 ? 9 : 17;
  const candidates = [offset + 4 + sideInfo, offset + 6 + sideInfo];
  for (const at of candidates) if (asciiAt(bytes, at, 'Xing') || asciiAt(bytes, at, 'Info')) return true;
  return asciiAt(bytes, offset + 36, 'VBRI');
}

/**
 * Walks the frames of an MP3 stream (MPEG-1/2/2.5 Layer III): skips a leading ID3v2 tag, a
 * Xing/Info/VBRI frame and a trailing ID3v1 tag, and requires every audio frame to share version,
 * sample rate and channel count. Throws a `ServiceError` (`unsupported_media_type`) that says what
 * was found where, for anything else.
 *
 * @example
 * const { durationMs, sampleRate } = readMp3Info(await readFile('clip.mp3'));
 */
export function readMp3Info(bytes: Uint8Array): Mp3Info {
  let offset = id3v2Length(bytes);
  if (offset > bytes.length) throw notMp3('the ID3v2 tag is longer than the data');
  let end = bytes.length;
  if (end - offset >= 128 && asciiAt(bytes, end - 128, 'TAG')) end -= 128; // ID3v1

  const first = parseMp3FrameHeader(bytes, offset);
  if (!first) {
    const found = Array.from(bytes.subarray(offset, offset + 4), (b) => b.toString(16).padStart(2, '0')).join(' ');
    throw notMp3(`no Layer III frame header at byte ${offset} (found ${found || 'end of data'})`);
  }
  if (isMetadataFrame(bytes, offset, first)) offset += first.frameLength;
  const audioStart = offset;

  let frameCount = 0;
  let totalKbps = 0;
  let constantBitrate = true;
  while (offset < end) {
    const header = parseMp3FrameHeader(bytes, offset);
    if (!header) throw notMp3(`lost frame sync at byte ${offset} after ${frameCount} frames`);
    if (header.version !== first.version || header.sampleRate !== first.sampleRate || header.channels !== first.channels) {
      throw notMp3(
        `frame ${frameCount} at byte ${offset} is MPEG-${header.version} ${header.sampleRate} Hz ` +
          `${header.channels} ch, the stream started as MPEG-${first.version} ${first.sampleRate} Hz ${first.channels} ch`,
      );
    }
    if (offset + header.frameLength > end) throw notMp3(`frame ${frameCount} at byte ${offset} is truncated`);
    if (header.bitrateKbps !== first.bitrateKbps) constantBitrate = false;
    totalKbps += header.bitrateKbps;
    frameCount++;
    offset += header.frameLength;
  }
  if (frameCount === 0) throw notMp3('it holds no audio frames');

  return {
    version: first.version,
    sampleRate: first.sampleRate,
    channels: first.channels,
    bitrateKbps: constantBitrate ? first.bitrateKbps : Math.round(totalKbps / frameCount),
    constantBitrate,
    frameCount,
    durationMs: (frameCount * first.samplesPerFrame * 1000) / first.sampleRate,
    audioStart,
    audioEnd: offset,
  };
}
