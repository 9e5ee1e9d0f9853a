import type { Mp3Info } from './mp3-info.js';

/** The one MP3 format of a clip encoder: every clip it makes has it, so clips concatenate. */
export interface Mp3ClipFormat {
  /** An MPEG-2 rate (16000, 22050, 24000) keeps 576-sample frames (26 ms at 22050 Hz). */
  sampleRate: 8000 | 11025 | 12000 | 16000 | 22050 | 24000 | 32000 | 44100 | 48000;
  channels: 1;
  /** Constant bitrate: every frame the same size, so durations follow from byte counts too. */
  bitrateKbps: 8 | 16 | 24 | 32 | 40 | 48 | 64 | 80 | 96 | 112 | 128 | 160;
}

/**
 * Speech clips: 22050 Hz mono 48 kbps CBR (MPEG-2 Layer III). 22050 Hz is espeak-ng's native rate
 * (no resampling) and covers the speech band; 48 kbps is where mono speech at that rate stops
 * gaining audibly from more bits.
 */
export const speechMp3Format: Mp3ClipFormat = Object.freeze({ sampleRate: 22050, channels: 1, bitrateKbps: 48 });

/**
 * Samples of silence a decoder puts before the first input sample of a LAME-encoded stream that
 * has no LAME/Xing gapless header: 576 (encoder delay) + 529 (decoder delay), per LAME's technical
 * FAQ. The clips carry no such header (so they concatenate), therefore timelines that refer to the
 * input PCM (visemes) are shifted by this much to line up with what is heard.
 */
export const lameDecoderDelaySamples = 1105;

/** Encodes mono PCM clips into MP3 of one fixed format, reusing one wasm LAME instance. */
export interface Mp3ClipEncoder {
  readonly format: Mp3ClipFormat;
  /** `samples` are floats in −1…1 at `sampleRate` (resampled to the format's rate if different). */
  encode(samples: Float32Array, sampleRate: number): Uint8Array;
}

/** The structural subset of wasm-media-encoders' encoder this module uses. */
interface WasmMp3Encoder {
  configure(params: { channels: 1; sampleRate: number; bitrate: Mp3ClipFormat['bitrateKbps']; outputSampleRate: Mp3ClipFormat['sampleRate'] }): void;
  encode(samples: readonly Float32Array[]): Uint8Array;
  finalize(): Uint8Array;
}

/**
 * Creates an encoder backed by wasm-media-encoders (LAME compiled to wasm, MIT). The package is
 * imported on first use so hosts that never encode never load it. Output has no ID3 tag and no
 * Xing/Info frame: `readMp3Info(clip).durationMs` is its length and `concatMp3` can join clips.
 *
 * Not safe for concurrent use from several async contexts: `encode` is synchronous, so one
 * encoder per thread is enough.
 */
export async function createMp3ClipEncoder(format: Mp3ClipFormat = speechMp3Format): Promise<Mp3ClipEncoder> {
  const { createMp3Encoder } = await import('wasm-media-encoders');
  const encoder: WasmMp3Encoder = await createMp3Encoder();
  return {
    format,
    encode(samples, sampleRate) {
      encoder.configure({ channels: 1, sampleRate, bitrate: format.bitrateKbps, outputSampleRate: format.sampleRate });
      // The encoder's output views its wasm memory and are overwritten by the next call: copy.
      const body = encoder.encode([samples]).slice();
      const tail = encoder.finalize();
      const out = new Uint8Array(body.length + tail.length);
      out.set(body, 0);
      out.set(tail, body.length);
      return out;
    },
  };
}

/** Whether an MP3 (as read by `readMp3Info`) has exactly the clip format. */
export function hasClipFormat(info: Mp3Info, format: Mp3ClipFormat = speechMp3Format): boolean {
  return info.sampleRate === format.sampleRate && info.channels === format.channels && info.constantBitrate && info.bitrateKbps === format.bitrateKbps;
}
