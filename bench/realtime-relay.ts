/**
 * socket.io at scale. The server runs in a child process (so its memory is its own); clients run
 * here. (1) N conversations, each with one joined socket, all send a message at once; an instant
 * provider stamps each delta with the time it produced it, and clients measure provider → client
 * relay latency (both processes read the same clock). (2) M idle authenticated sockets: server RSS.
 *
 *   npm run build && node dist/bench/realtime-relay.js [--conversations 500] [--idle 5000]
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { io as connect } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import { instantProvider, percentile, startBenchServer } from './support/bench-server.js';

const now = () => performance.timeOrigin + performance.now();
const DELTAS = 20;

async function serve(): Promise<void> {
  const server = await startBenchServer({
    aiProviders: [instantProvider(() => Array.from({ length: DELTAS }, () => `t=${now().toFixed(3)} `))],
    speechProviders: [],
    defaultTtsProvider: 'browser',
  });
  process.on('message', (message) => {
    if (message === 'memory') {
      global.gc?.();
      process.send!({ memory: process.memoryUsage() });
    }
  });
  process.once('disconnect', () => void server.close().then(() => process.exit(0)));
  process.send!({ url: server.url, key: server.key });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { conversations: { type: 'string', default: '500' }, idle: { type: 'string', default: '5000' } } });
  const conversations = Number(values.conversations);
  const idleCount = Number(values.idle);
  const child = fork(fileURLToPath(import.meta.url), ['serve'], { execArgv: ['--expose-gc'] });
  const { url, key } = await new Promise<{ url: string; key: string }>((resolve) => child.once('message', (m) => resolve(m as { url: string; key: string })));
  const memory = () =>
    new Promise<NodeJS.MemoryUsage>((resolve) => {
      child.once('message', (m) => resolve((m as { memory: NodeJS.MemoryUsage }).memory));
      child.send('memory');
    });
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
  const open = (): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const socket = connect(url, { path: '/v1/realtime', auth: { token: key }, transports: ['websocket'], reconnection: false, forceNew: true });
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  const baseline = await memory();

  // (1) Concurrent streaming conversations.
  const sockets: Socket[] = [];
  for (let i = 0; i < conversations; i++) {
    const res = await fetch(`${url}/v1/conversations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ avatar_id: 'luna-001', tts_provider: 'browser' }),
    });
    const { id } = (await res.json()) as { id: string };
    const socket = await open();
    const ack = (await socket.timeout(10_000).emitWithAck('join', { conversation_id: id })) as { ok: boolean };
    if (!ack.ok) throw new Error('join failed');
    sockets.push(socket);
  }
  const latencies: number[] = [];
  let done = 0;
  const finished = new Promise<void>((resolve) => {
    for (const socket of sockets) {
      socket.on('message', ({ delta }: { delta: string }) => latencies.push(now() - Number(delta.slice(2))));
      socket.on('done', () => ++done === sockets.length && resolve());
    }
  });
  const started = performance.now();
  for (const socket of sockets) socket.emit('message', { content: 'hello' });
  await finished;
  const wall = performance.now() - started;
  const streaming = await memory();
  for (const socket of sockets) socket.close();

  // (2) Idle sockets.
  const idle: Socket[] = [];
  for (let i = 0; i < idleCount; i += 100) idle.push(...(await Promise.all(Array.from({ length: Math.min(100, idleCount - i) }, open))));
  await new Promise((r) => setTimeout(r, 1000));
  const idleMemory = await memory();
  for (const socket of idle) socket.close();
  child.disconnect();

  console.log(
    JSON.stringify(
      {
        benchmark: 'socket.io relay: provider delta → client, and idle sockets',
        conversations,
        deltas_per_reply: DELTAS,
        relay_latency_ms: { p50: Number(percentile(latencies, 50).toFixed(2)), p99: Number(percentile(latencies, 99).toFixed(2)), max: Number(percentile(latencies, 100).toFixed(2)) },
        all_replies_ms: Math.round(wall),
        server_rss_mb: { baseline: mb(baseline.rss), while_streaming: mb(streaming.rss), [`with_${idleCount}_idle_sockets`]: mb(idleMemory.rss) },
        server_heap_per_idle_socket_kb: Number(((idleMemory.heapUsed - baseline.heapUsed) / idleCount / 1024).toFixed(1)),
        targets: { p99_ms: '<= 20', idle_5000_rss_mb: '< 256' },
      },
      null,
      2,
    ),
  );
}

if (process.argv[2] === 'serve') await serve();
else await main();
