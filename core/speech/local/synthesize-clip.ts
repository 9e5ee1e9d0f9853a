import { readWavPcm } from '../../audio/wav-pcm.js';
import { lameDecoderDelaySamples, type Mp3ClipEncoder } from '../../audio/mp3-clip-encoder.js';
import { readMp3Info } from '../../audio/mp3-info.js';
import type { EspeakRuntime } from './espeak-runtime.js';
import { ipaToVisemeSlots } from './ipa-visemes.js';
import { buildVisemeTimeline } from './phoneme-viseme-timeline.js';
import type { ClipRequest, ClipResult } from './worker-protocol.js';

const wavPath = '/speech.wav';

/**
 * Text → MP3 (+ visemes) with one espeak-ng run: `-w` writes the audio and `--ipa=3` prints the
 * phonemes of each clause in the same pass, so visemes cost no second synthesis.
 */
export async function synthesizeClip(
  runtime: EspeakRuntime,
  encoder: Mp3ClipEncoder,
  request: ClipRequest,
  now: () => number,
): Promise<ClipResult> {
  const started = now();
  // `--` ends the options, so text that starts with "-" is spoken, not parsed.
  const args = ['-w', wavPath, ...(request.visemes ? ['--ipa=3'] : []), '-v', request.engineVoice, '--', request.text];
  const output = await runtime.run(args, wavPath);
  if (output.exitStatus !== 0 || !output.wav) {
    throw new Error(`espeak-ng failed (exit ${output.exitStatus}): ${output.stderr.join(' ').trim() || 'no audio written'}`);
  }
  const pcm = readWavPcm(output.wav);
  const samples = pcm.channels[0] ?? new Float32Array(0);
  const synthesized = now();

  const audio = encoder.encode(samples, pcm.sampleRate);
  const { durationMs } = readMp3Info(audio);
  const encoded = now();

  const visemes = request.visemes
    ? buildVisemeTimeline({
        samples,
        sampleRate: pcm.sampleRate,
        clauses: output.stdout.map(ipaToVisemeSlots),
        offsetMs: (lameDecoderDelaySamples * 1000) / encoder.format.sampleRate,
        durationMs,
      })
    : undefined;
  const done = now();

  return {
    audio,
    durationMs,
    ...(visemes ? { visemes } : {}),
    timings: { synthesisMs: synthesized - started, encodeMs: encoded - synthesized, visemeMs: done - encoded },
  };
}
