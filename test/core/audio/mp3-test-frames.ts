/** Hand-made MP3 streams for the audio tests: valid frame headers with zeroed bodies. */
import { encodeMp3FrameHeader, parseMp3FrameHeader } from '../../../core/audio/mp3-frame-header.js';

export type Format = Parameters<typeof encodeMp3FrameHeader>[0];
/** A stream of `count` silent-bodied frames of one format (valid headers, zero payload). */
export function makeFrames(format: Format, count: number, firstBody?: (frame: Uint8Array) => void): Uint8Array {
  const frames: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const header = encodeMp3FrameHeader(format);
    const { frameLength } = parseMp3FrameHeader(header, 0)!;
    const frame = new Uint8Array(frameLength);
    frame.set(header);
    if (i === 0) firstBody?.(frame);
    frames.push(frame);
  }
  return join(...frames);
}

export function join(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

