/**
 * Service-added latency to the first streamed delta. A client POSTs a message with `stream: true`
 * and times the arrival of the first `event: message`; the AI provider yields its first delta at
 * once, so that time is the service's own (authentication, validation, storing the user message,
 * starting the reply, SSE framing). The rest of each reply streams over `STREAM_MS` (10 more
 * deltas), so at concurrency N there are N streams open while new ones start: N workers, each
 * starting its next stream when its last one ends, with staggered starts.
 *
 * The baseline is a raw `node:http` server answering the same request with the same event
 * timing, timed by the same client in the same run; "added" is the service's percentile minus
 * the baseline's. Servers run in child processes, the client in this one.
 *
 *   npm run build && node dist/bench/ai-first-delta.js [--streams 200] [--concurrency 1,50]
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { AIProvider } from '../core/index.js';
import { percentile, startBenchServer } from './support/bench-server.js';

const STREAM_MS = 500;
const LATER_DELTAS = 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** First delta at once, then the rest of the reply paced over {@link STREAM_MS}. */
function pacedProvider(): AIProvider {
  return {
    id: 'local',
    name: 'paced',
    description: 'First delta at once, then paced (benchmarks)',
    kind: 'offline',
    configured: true,
    defaultModel: 'paced',
    models: [{ id: 'paced', name: 'paced', contextWindow: 1, capabilities: ['chat', 'streaming'] }],
    chatModel: () => ({
      provider: 'local',
      modelId: 'paced',
      async *stream() {
        yield { type: 'text-delta', delta: 'Hello' };
        for (let i = 0; i < LATER_DELTAS; i++) {
          await sleep(STREAM_MS / LATER_DELTAS);
          yield { type: 'text-delta', delta: ' there' };
        }
        yield { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: LATER_DELTAS + 1 } };
      },
    }),
  };
}

interface Target {
  url: string;
  key: string;
}

async function serveService(): Promise<void> {
  const server = await startBenchServer({
    aiProviders: [pacedProvider()],
    speechProviders: [],
    defaultTtsProvider: 'browser',
  });
  process.once('disconnect', () => void server.close().then(() => process.exit(0)));
  process.send!({ url: server.url, key: server.key });
}

/** The floor: read the JSON body, answer the same SSE events with the same timing. */
async function serveBaseline(): Promise<void> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', async () => {
      JSON.parse(body || '{}');
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write('event: message\ndata: {"delta":"Hello"}\n\n');
      for (let i = 0; i < LATER_DELTAS; i++) {
        await sleep(STREAM_MS / LATER_DELTAS);
        res.write('event: message\ndata: {"delta":" there"}\n\n');
      }
      res.end('event: done\ndata: {}\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.once('disconnect', () => process.exit(0));
  process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, key: '' });
}

async function start(role: 'service' | 'baseline'): Promise<{ child: ChildProcess; target: Target }> {
  const child = fork(fileURLToPath(import.meta.url), [role]);
  const target = await new Promise<Target>((resolve) => child.once('message', (m) => resolve(m as Target)));
  return { child, target };
}

const json = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

async function createConversations(target: Target, count: number): Promise<string[]> {
  if (!target.key) return Array.from({ length: count }, (_, i) => `c${i}`);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${target.url}/v1/conversations`, {
      method: 'POST',
      headers: json(target.key),
      body: JSON.stringify({ avatar_id: 'luna-001', tts_provider: 'browser' }),
    });
    ids.push(((await res.json()) as { id: string }).id);
  }
  return ids;
}

/** Milliseconds from sending the request until the first `event: message` arrives; drains the rest. */
async function firstDelta(target: Target, conversationId: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${target.url}/v1/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: json(target.key),
    body: JSON.stringify({ content: 'Hi!', stream: true }),
  });
  if (res.status !== 200) throw new Error(`status ${res.status}: ${await res.text()}`);
  let first = NaN;
  let seen = '';
  for await (const chunk of res.body!.pipeThrough(new TextDecoderStream())) {
    if (Number.isNaN(first)) {
      seen += chunk;
      if (seen.includes('event: message')) first = performance.now() - started;
    }
  }
  return first;
}

/** `concurrency` workers, one conversation each, run streams back to back; `perWorker` timed each. */
async function measure(target: Target, concurrency: number, perWorker: number): Promise<number[]> {
  const conversations = await createConversations(target, concurrency);
  const samples: number[] = [];
  await Promise.all(
    conversations.map(async (id, worker) => {
      await sleep((STREAM_MS * worker) / concurrency);
      await firstDelta(target, id); // warm-up
      for (let i = 0; i < perWorker; i++) samples.push(await firstDelta(target, id));
    }),
  );
  return samples;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { streams: { type: 'string', default: '200' }, concurrency: { type: 'string', default: '1,50' } } });
  const levels = values.concurrency.split(',').map(Number);
  const service = await start('service');
  const baseline = await start('baseline');
  const round = (n: number) => Math.round(n * 100) / 100;
  const results = [];
  try {
    for (const concurrency of levels) {
      const perWorker = Math.max(4, Math.ceil(Number(values.streams) / concurrency));
      const base = await measure(baseline.target, concurrency, perWorker);
      const svc = await measure(service.target, concurrency, perWorker);
      results.push({
        concurrency,
        samples: svc.length,
        service_ms: { p50: round(percentile(svc, 50)), p99: round(percentile(svc, 99)) },
        baseline_node_http_ms: { p50: round(percentile(base, 50)), p99: round(percentile(base, 99)) },
        added_ms: {
          p50: round(percentile(svc, 50) - percentile(base, 50)),
          p99: round(percentile(svc, 99) - percentile(base, 99)),
        },
      });
    }
  } finally {
    service.child.disconnect();
    baseline.child.disconnect();
  }
  console.log(
    JSON.stringify(
      { benchmark: 'service-added latency to the first streamed delta (SSE, provider answers at once, streams open 500 ms)', results, target: 'added p50 <= 2 ms, p99 <= 10 ms' },
      null,
      2,
    ),
  );
}

const role = process.argv[2];
if (role === 'service') await serveService();
else if (role === 'baseline') await serveBaseline();
else await main();
