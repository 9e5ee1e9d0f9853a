/**
 * Real-time factor of the `local` speech engine: wall time of `synthesize()` (espeak-ng + MP3
 * encoding + visemes, in the worker, plus the message hop) ÷ duration of the audio it made.
 *
 *   npx tsc -p tsconfig.json && node dist/bench/local-speech-rtf.js
 *
 * Two warm figures: `back_to_back` sends each sentence as soon as the previous one is done (the
 * worker has no idle time to pre-start the next espeak-ng instance), `paced` leaves 400 ms between
 * sentences, as when a chat model streams sentences (the next instance is ready when asked).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createLocalSpeechProvider } from '../core/speech/local/index.js';

const sentences = [
  'Hello, and welcome to our store.',
  'The quick brown fox jumps over the lazy dog near the river bank.',
  'I can help you choose a plan that fits your budget and your needs.',
  'Our support team is available every day from nine in the morning until six in the evening.',
  'Would you like me to send a summary of this conversation to your email address?',
  'That is a great question.',
  'Let me check the details for you, it will only take a moment.',
  'Thank you for your patience, and have a wonderful day!',
];
const voices = ['en-US-Neural2-F', 'en-US-Neural2-D', 'en-GB-Neural2-A', 'en-GB-Neural2-B'];

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}
const round = (n: number): number => Math.round(n * 10000) / 10000;

async function main(): Promise<void> {
  const speech = createLocalSpeechProvider({ poolSize: 1 });
  try {
    if (!(await speech.available())) throw new Error('espeak-ng is not installed');
    const coldStart = performance.now();
    await speech.synthesize({ text: sentences[0]!, voiceId: voices[0]! });
    const coldFirstCallMs = performance.now() - coldStart;

    const measure = async (paceMs: number): Promise<{ rtf: number[]; ms: number[]; audioMs: number }> => {
      const rtf: number[] = [];
      const ms: number[] = [];
      let audioMs = 0;
      for (let round = 0; round < 2; round++) {
        for (const [i, text] of sentences.entries()) {
          if (paceMs > 0) await sleep(paceMs);
          const start = performance.now();
          const result = await speech.synthesize({ text, voiceId: voices[i % voices.length]! });
          const elapsed = performance.now() - start;
          rtf.push(elapsed / result.durationMs);
          ms.push(elapsed);
          audioMs += result.durationMs;
        }
      }
      return { rtf, ms, audioMs };
    };
    const backToBack = await measure(0);
    const paced = await measure(400);
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

    console.log(
      JSON.stringify(
        {
          rtf_p50: round(percentile(backToBack.rtf, 0.5)),
          rtf_mean: round(mean(backToBack.rtf)),
          rtf_p90: round(percentile(backToBack.rtf, 0.9)),
          paced_rtf_p50: round(percentile(paced.rtf, 0.5)),
          paced_rtf_mean: round(mean(paced.rtf)),
          paced_rtf_p90: round(percentile(paced.rtf, 0.9)),
          cold_first_call_ms: Math.round(coldFirstCallMs),
          call_ms_p50: Math.round(percentile(backToBack.ms, 0.5)),
          paced_call_ms_p50: Math.round(percentile(paced.ms, 0.5)),
          clips: backToBack.rtf.length + paced.rtf.length,
          audio_seconds: Math.round((backToBack.audioMs + paced.audioMs) / 100) / 10,
          pool_size: 1,
          format: '22050 Hz mono 48 kbps CBR MP3',
        },
        null,
        2,
      ),
    );
  } finally {
    await speech.close();
  }
}

await main();
