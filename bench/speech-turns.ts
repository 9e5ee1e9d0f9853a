/**
 * Spoken turns over the real server with the offline engines: N conversations at once, each
 * sending its next message as soon as its last reply is done (SSE), every reply 4 sentences
 * spoken by the `local` engine (espeak-ng in worker threads). Per concurrency: first audio event
 * and reply done (p50 / p95, from the request), turns/s, and bytes of audio on disk per turn.
 *
 *   npm run build && node dist/bench/speech-turns.js [--turns 8] [--concurrency 1,10] [--workers N]
 *
 * `--workers` is the local engine's pool size (default: the CPU count, as the server's
 * `LOCAL_SPEECH_WORKERS`). The floor — espeak-ng's own work per sentence in one warm worker with
 * nothing else running — is measured in the same run and reported beside the turns.
 */
import { readdir, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createLocalSpeechProvider } from '../core/index.js';
import { instantProvider, percentile, startBenchServer, type BenchServer } from './support/bench-server.js';

const SENTENCES = [
  'Thanks for asking about our opening hours.',
  'We are open every day from nine in the morning until six in the evening.',
  'On public holidays we close a little earlier, at four.',
  'Is there anything else I can help you plan for your visit?',
];

interface Turn {
  firstAudioMs: number;
  doneMs: number;
}

async function createConversation(server: BenchServer): Promise<string> {
  const res = await fetch(`${server.url}/v1/conversations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ avatar_id: 'luna-001' }),
  });
  if (res.status !== 201) throw new Error(`create conversation: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** One streamed turn; fails unless every sentence was spoken and the reply completed. */
async function turn(server: BenchServer, conversationId: string): Promise<Turn> {
  const start = performance.now();
  const res = await fetch(`${server.url}/v1/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ content: 'When are you open?', stream: true }),
  });
  if (res.status !== 200) throw new Error(`send: ${res.status} ${await res.text()}`);
  let firstAudioMs = NaN;
  let audio = 0;
  let body = '';
  for await (const chunk of res.body!.pipeThrough(new TextDecoderStream())) {
    body += chunk;
    const found = chunk.match(/^event: audio$/gm)?.length ?? 0;
    if (found > 0 && audio === 0) firstAudioMs = performance.now() - start;
    audio += found;
  }
  const doneMs = performance.now() - start;
  if (audio !== SENTENCES.length || !/^event: done$/m.test(body)) {
    throw new Error(`expected ${SENTENCES.length} audio events and done, got ${audio}: ${body.slice(-300)}`);
  }
  return { firstAudioMs, doneMs };
}

async function diskBytes(dir: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) total += (await stat(join(dir, name))).size;
  return total;
}

async function measure(concurrency: number, turnsEach: number, workers: number) {
  // Passed as a variable: builds of the service without the `warm` setting ignore it.
  const settings = { poolSize: workers, warm: true };
  const speech = createLocalSpeechProvider(settings);
  const server = await startBenchServer({ aiProviders: [instantProvider(() => SENTENCES.map((s) => `${s} `))], speechProviders: [speech] });
  try {
    const conversations = await Promise.all(Array.from({ length: concurrency }, () => createConversation(server)));
    // Warm-up: one turn per conversation, not counted (wasm compile, first instances, JIT).
    await Promise.all(conversations.map((id) => turn(server, id)));
    const audioDir = join(server.dataDir, 'audio');
    const bytesBefore = await diskBytes(audioDir);
    const turns: Turn[] = [];
    const started = performance.now();
    await Promise.all(
      conversations.map(async (id) => {
        for (let i = 0; i < turnsEach; i++) turns.push(await turn(server, id));
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const bytesPerTurn = ((await diskBytes(audioDir)) - bytesBefore) / turns.length;
    const firsts = turns.map((t) => t.firstAudioMs);
    const dones = turns.map((t) => t.doneMs);
    return {
      concurrency,
      turns: turns.length,
      first_audio_ms: { p50: Math.round(percentile(firsts, 50)), p95: Math.round(percentile(firsts, 95)) },
      reply_done_ms: { p50: Math.round(percentile(dones, 50)), p95: Math.round(percentile(dones, 95)) },
      turns_per_s: Number((turns.length / seconds).toFixed(2)),
      disk_bytes_per_turn: Math.round(bytesPerTurn),
    };
  } finally {
    await server.close();
  }
}

/** espeak-ng's own work per sentence: one warm worker, one sentence at a time, nothing else running. */
async function floor(): Promise<{ sentence_ms_p50: number; turn_cpu_ms: number }> {
  const speech = createLocalSpeechProvider({ poolSize: 1 });
  try {
    const ms: number[] = [];
    for (let round = -1; round < 4; round++) {
      for (const text of SENTENCES) {
        await new Promise((resolve) => setTimeout(resolve, 100)); // the next instance is ready
        const start = performance.now();
        await speech.synthesize({ text, voiceId: 'en-US-Neural2-F' });
        if (round >= 0) ms.push(performance.now() - start);
      }
    }
    const p50 = percentile(ms, 50);
    return { sentence_ms_p50: Math.round(p50 * 10) / 10, turn_cpu_ms: Math.round(p50 * SENTENCES.length) };
  } finally {
    await speech.close();
  }
}

const { values } = parseArgs({
  options: {
    turns: { type: 'string', default: '8' },
    concurrency: { type: 'string', default: '1,10' },
    workers: { type: 'string', default: String(availableParallelism()) },
  },
});
const workers = Number(values.workers);
const results = [];
for (const concurrency of values.concurrency.split(',').map(Number)) results.push(await measure(concurrency, Number(values.turns), workers));
console.log(
  JSON.stringify(
    {
      benchmark: `spoken turns, ${SENTENCES.length}-sentence replies, SSE, local speech, ${workers} worker(s)`,
      cpus: availableParallelism(),
      results,
      floor: await floor(),
      target: 'first audio p50 at 10 concurrent <= 150 ms; turns/s >= 2x before; disk per turn halved',
    },
    null,
    2,
  ),
);
