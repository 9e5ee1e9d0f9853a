/**
 * One MPEG audio Layer III frame header (the 4 bytes that start every MP3 frame), decoded.
 * Layers I and II are not MP3 and are treated as "no frame here".
 */
export interface Mp3FrameHeader {
  /** 1 (MPEG-1), 2 (MPEG-2) or 2.5 (MPEG-2.5). */
  version: 1 | 2 | 2.5;
  sampleRate: number;
  bitrateKbps: number;
  channels: 1 | 2;
  /** Whether a 16-bit CRC follows the header. */
  hasCrc: boolean;
  padding: boolean;
  /** Bytes of this frame including its header. */
  frameLength: number;
  /** PCM samples per channel this frame decodes to (1152 for MPEG-1, 576 otherwise). */
  samplesPerFrame: number;
}

const bitratesMpeg1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320] as const;
const bitratesMpeg2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160] as const;
const sampleRates = {
  1: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  2.5: [11025, 12000, 8000],
} as const;

/**
 * Decodes the Layer III frame header at `offset`, or returns null when the bytes there are not a
 * valid one (no sync word, reserved or "free"/"bad" fields, another layer, or too few bytes).
 */
export function parseMp3FrameHeader(bytes: Uint8Array, offset: number): Mp3FrameHeader | null {
  if (offset < 0 || offset + 4 > bytes.length) return null;
  const b1 = bytes[offset + 1]!;
  const b2 = bytes[offset + 2]!;
  const b3 = bytes[offset + 3]!;
  if (bytes[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;

  const versionBits = (b1 >> 3) & 0x03;
  if (versionBits === 1) return null;
  const version = versionBits === 3 ? 1 : versionBits === 2 ? 2 : 2.5;
  if (((b1 >> 1) & 0x03) !== 1) return null; // 01 = Layer III

  const bitrateIndex = b2 >> 4;
  const sampleRateIndex = (b2 >> 2) & 0x03;
  if (bitrateIndex === 0 || bitrateIndex === 15 || sampleRateIndex === 3) return null;

  const bitrateKbps = (version === 1 ? bitratesMpeg1 : bitratesMpeg2)[bitrateIndex]!;
  const sampleRate = sampleRates[version][sampleRateIndex]!;
  const padding = ((b2 >> 1) & 0x01) === 1;
  const samplesPerFrame = version === 1 ? 1152 : 576;
  // Bytes per frame = samples/8 × bitrate / sample rate (+1 padding byte).
  const frameLength = Math.floor(((samplesPerFrame / 8) * bitrateKbps * 1000) / sampleRate) + (padding ? 1 : 0);

  return {
    version,
    sampleRate,
    bitrateKbps,
    channels: b3 >> 6 === 3 ? 1 : 2,
    hasCrc: (b1 & 0x01) === 0,
    padding,
    frameLength,
    samplesPerFrame,
  };
}

/**
 * Builds a valid Layer III frame header (4 bytes); the inverse of {@link parseMp3FrameHeader}.
 * Used to make synthetic MP3 streams in tests and to describe a format precisely.
 */
export function encodeMp3FrameHeader(header: {
  version: 1 | 2 | 2.5;
  sampleRate: number;
  bitrateKbps: number;
  channels: 1 | 2;
  padding?: boolean;
}): Uint8Array {
  const bitrateIndex = (header.version === 1 ? bitratesMpeg1 : bitratesMpeg2).indexOf(
    header.bitrateKbps as never,
  );
  const sampleRateIndex = (sampleRates[header.version] as readonly number[]).indexOf(header.sampleRate);
  if (bitrateIndex <= 0 || sampleRateIndex < 0) {
    throw new RangeError(
      `No MPEG-${header.version} Layer III header for ${header.bitrateKbps} kbps at ${header.sampleRate} Hz`,
    );
  }
  const versionBits = header.version === 1 ? 3 : header.version === 2 ? 2 : 0;
  return Uint8Array.of(
    0xff,
    0xe0 | (versionBits << 3) | (1 << 1) | 1, // Layer III, no CRC
    (bitrateIndex << 4) | (sampleRateIndex << 2) | (header.padding ? 2 : 0),
    header.channels === 1 ? 0xc0 : 0x00,
  );
}
