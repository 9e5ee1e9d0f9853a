export { parseMp3FrameHeader, encodeMp3FrameHeader, type Mp3FrameHeader } from './mp3-frame-header.js';
export { readMp3Info, type Mp3Info } from './mp3-info.js';
export { concatMp3 } from './concat-mp3.js';
export { readWavPcm, type WavPcm } from './wav-pcm.js';
export {
  createMp3ClipEncoder,
  hasClipFormat,
  lameDecoderDelaySamples,
  speechMp3Format,
  type Mp3ClipEncoder,
  type Mp3ClipFormat,
} from './mp3-clip-encoder.js';
