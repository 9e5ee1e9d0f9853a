import { ErrorCode, ServiceError } from '../errors.js';
import { readMp3Info } from './mp3-info.js';

/**
 * Joins MP3 clips into one stream by concatenating their audio frames. Tags (ID3v2, ID3v1) and
 * Xing/Info frames are dropped, because a Xing frame in the middle of a stream would announce the
 * wrong length. Every clip must have the same MPEG version, sample rate and channel count — the
 * things a decoder cannot change mid-stream — else a `ServiceError` (`unsupported_media_type`)
 * names the first clip that differs. Bitrates may differ (the result is then VBR).
 *
 * Clips from the `local` speech engine always share one format, so its sentences can be joined.
 */
export function concatMp3(clips: readonly Uint8Array[]): Uint8Array {
  const infos = clips.map((clip, index) => {
    try {
      return readMp3Info(clip);
    } catch (error) {
      throw new ServiceError(
        ErrorCode.unsupportedMediaType,
        `Clip ${index} cannot be concatenated: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  });
  const first = infos[0];
  if (!first) return new Uint8Array(0);

  let length = 0;
  infos.forEach((info, index) => {
    if (info.version !== first.version || info.sampleRate !== first.sampleRate || info.channels !== first.channels) {
      throw new ServiceError(
        ErrorCode.unsupportedMediaType,
        `Clip ${index} is MPEG-${info.version} ${info.sampleRate} Hz ${info.channels} ch, clip 0 is ` +
          `MPEG-${first.version} ${first.sampleRate} Hz ${first.channels} ch: MP3 clips must share one format`,
      );
    }
    length += info.audioEnd - info.audioStart;
  });

  const out = new Uint8Array(length);
  let offset = 0;
  infos.forEach((info, index) => {
    out.set(clips[index]!.subarray(info.audioStart, info.audioEnd), offset);
    offset += info.audioEnd - info.audioStart;
  });
  return out;
}
