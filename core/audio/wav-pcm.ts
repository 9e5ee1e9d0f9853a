import { ErrorCode, ServiceError } from '../errors.js';

/** Decoded 16-bit PCM from a WAV file, as floats in −1…1, one array per channel. */
export interface WavPcm {
  sampleRate: number;
  channels: Float32Array[];
}

function fourCc(view: DataView, offset: number): string {
  return String.fromCharCode(view.getUint8(offset), view.getUint8(offset + 1), view.getUint8(offset + 2), view.getUint8(offset + 3));
}

/**
 * Reads a RIFF/WAVE file with 16-bit integer PCM (what espeak-ng writes). A `data` chunk whose
 * declared size runs past the end (writers that stream and never patch the size) is read up to
 * the end of the bytes. Throws `ServiceError` (`unsupported_media_type`) for anything else.
 */
export function readWavPcm(bytes: Uint8Array): WavPcm {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (why: string): ServiceError => new ServiceError(ErrorCode.unsupportedMediaType, `Not a 16-bit PCM WAV: ${why}`);
  if (bytes.length < 12 || fourCc(view, 0) !== 'RIFF' || fourCc(view, 8) !== 'WAVE') throw fail('no RIFF/WAVE header');

  let offset = 12;
  let sampleRate = 0;
  let channelCount = 0;
  while (offset + 8 <= bytes.length) {
    const id = fourCc(view, offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (view.getUint16(body, true) !== 1) throw fail('the format is not integer PCM');
      channelCount = view.getUint16(body + 2, true);
      sampleRate = view.getUint32(body + 4, true);
      if (view.getUint16(body + 14, true) !== 16) throw fail('the samples are not 16-bit');
    } else if (id === 'data') {
      if (!sampleRate || !channelCount) throw fail('the data chunk comes before the fmt chunk');
      const end = Math.min(bytes.length, body + size);
      const frames = Math.floor((end - body) / (2 * channelCount));
      const channels = Array.from({ length: channelCount }, () => new Float32Array(frames));
      for (let i = 0; i < frames; i++) {
        for (let c = 0; c < channelCount; c++) {
          channels[c]![i] = view.getInt16(body + (i * channelCount + c) * 2, true) / 32768;
        }
      }
      return { sampleRate, channels };
    }
    offset = body + size + (size & 1);
  }
  throw fail('no data chunk');
}
