/**
 * Time to the first `audio` event vs. time to the last one, for a 5-sentence reply streamed over
 * SSE with the local speech engine (real synthesis + MP3 encoding). With pipelined speech the
 * first sentence is heard long before the last is ready. Two generation paces: instant, and a
 * typical LLM pace of 20 words per second.
 *
 *   npm run build && node dist/bench/sse-first-audio.js [--runs 8]
 */
import { parseArgs } from 'node:util';
import type { AIProvider } from '../core/index.js';
import { createLocalSpeechProvider } from '../core/index.js';
import { percentile, startBenchServer } from './support/bench-server.js';

const REPLY = [
  'Thanks for asking about our opening hours.',
  'We are open every day from nine in the morning until six in the evening.',
  'On public holidays we close a little earlier, at four.',
  'The cafe on the first floor keeps the same hours as the galleries.',
  'Is there anything else I can help you plan for your visit?',
].join(' ');

function pacedProvider(wordsPerSecond: number | undefined): AIProvider {
  const words = REPLY.match(/\S+\s*/g)!;
  return {
    id: 'local',
    name: 'paced',
    description: 'Streams a fixed reply at a set pace (benchmarks)',
    kind: 'offline',
    configured: true,
    defaultModel: 'paced',
    models: [{ id: 'paced', name: 'paced', contextWindow: 1, capabilities: ['chat', 'streaming'] }],
    chatModel: () => ({
      provider: 'local',
      modelId: 'paced',
      async *stream() {
        for (const word of words) {
          if (wordsPerSecond) await new Promise((r) => setTimeout(r, 1000 / wordsPerSecond));
          yield { type: 'text-delta', delta: word };
        }
        yield { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: words.length } };
      },
    }),
  };
}

async function measure(pace: number | undefined, runs: number) {
  const speech = createLocalSpeechProvider();
  const server = await startBenchServer({ aiProviders: [pacedProvider(pace)], speechProviders: [speech] });
  const firsts: number[] = [];
  const lasts: number[] = [];
  try {
    for (let run = -1; run < runs; run++) {
      const res = await fetch(`${server.url}/v1/conversations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ avatar_id: 'luna-001' }),
      });
      const { id } = (await res.json()) as { id: string };
      const start = performance.now();
      const stream = await fetch(`${server.url}/v1/conversations/${id}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'When are you open?', stream: true }),
      });
      const text = stream.body!.pipeThrough(new TextDecoderStream());
      const audioTimes: number[] = [];
      for await (const chunk of text) {
        for (const _ of chunk.matchAll(/^event: audio$/gm)) audioTimes.push(performance.now() - start);
      }
      if (audioTimes.length !== 5) throw new Error(`expected 5 audio events, got ${audioTimes.length}`);
      if (run >= 0) {
        firsts.push(audioTimes[0]!);
        lasts.push(audioTimes[4]!);
      }
    }
  } finally {
    await server.close();
  }
  return {
    pace: pace ? `${pace} words/s` : 'instant',
    first_audio_ms_p50: Math.round(percentile(firsts, 50)),
    last_audio_ms_p50: Math.round(percentile(lasts, 50)),
    ratio_p50: Number((percentile(firsts, 50) / percentile(lasts, 50)).toFixed(3)),
  };
}

const { values } = parseArgs({ options: { runs: { type: 'string', default: '8' } } });
const runs = Number(values.runs);
const results = [await measure(undefined, runs), await measure(20, runs)];
console.log(JSON.stringify({ benchmark: 'first vs last audio event, 5-sentence reply, SSE, local speech', runs, results, target: 'ratio <= 0.3' }, null, 2));
