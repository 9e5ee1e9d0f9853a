/**
 * Soak test: steady mixed traffic against a real server in its own process, sampling the
 * server's memory, active handles and open file descriptors, and checking that none of them grows
 * without bound after a warm-up.
 *
 *   npm run soak                                   # builds, then 10 minutes
 *   npm run build && node dist/bench/soak.js [--duration=600] [--rate=20] [--sample=5]
 *       [--concurrency=16] [--slow-sse=2] [--slow-ws=2] [--slow-ms=20000] [--seed=1] [--json=FILE]
 *
 * The server is bench/support/soak-server.ts (`avatar-service serve` plus an enterprise account
 * with limits far above the load, and heap / handle figures on SIGUSR2, after a full GC). Traffic
 * (paced at `rate` operations per second in total, one operation = one request, one realtime
 * message or one connection): REST reads and conversations (create, message, read, audio, end,
 * delete), SSE streamed replies, socket.io and WebSocket conversations, slow readers (SSE clients
 * that stop reading, WebSocket clients that never read) and abrupt disconnects mid-reply, over
 * the offline engines (local AI; local speech making real MP3s, or `browser` speech for some
 * conversations). `test/server/soak.test.ts` runs the same driver for 60 s. Method and recorded
 * results: bench/README.md, "Soak (10 minutes)".
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo, Socket as NetSocket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { io as connect } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import WebSocket from 'ws';
import type { ClientToServerEvents, ServerToClientEvents } from '../core/index.js';
import { mulberry32 } from '../core/providers/local/phrase-picker.js';
import { sleep } from '../core/util/sleep.js';

// ───────────────────────────── options and results ─────────────────────────────

export interface SoakOptions {
  /** Seconds of traffic. */
  durationS: number;
  /** Operations per second, all kinds together. */
  rate: number;
  /** Seconds between samples of the server. */
  sampleEveryS: number;
  /** Scenario workers (conversations in flight at most, besides the slow clients). */
  concurrency: number;
  /** SSE clients that stop reading mid-reply, always running (one after another each). */
  slowSse: number;
  /** WebSocket clients that never read, always running. */
  slowWs: number;
  /** How long a slow client stays paused, ms. */
  slowMs: number;
  /** Share of the run that is warm-up (not in the growth fit). */
  warmupFraction: number;
  /** Seconds to wait after every client closed before the final samples. */
  settleS: number;
  seed: number;
  /** Called with each sample as it is taken (the CLI prints the table live). */
  onSample?: (sample: Sample) => void;
}

export const defaultSoakOptions: SoakOptions = {
  durationS: 600,
  rate: 20,
  sampleEveryS: 5,
  concurrency: 16,
  slowSse: 2,
  slowWs: 2,
  slowMs: 20_000,
  warmupFraction: 0.25,
  settleS: 5,
  seed: 1,
};

export type Phase = 'idle' | 'warm-up' | 'traffic' | 'drain' | 'closed';

export interface Sample {
  /** Seconds since traffic started (the idle sample is 0, taken just before). */
  t: number;
  phase: Phase;
  rssMB: number;
  heapMB: number;
  heapTotalMB: number;
  externalMB: number;
  arrayBuffersMB: number;
  handles: number;
  fds: number;
  resources: Record<string, number>;
  /** Connection slots (open SSE streams and sockets) the server counts for the account. */
  slots: number;
  /** Server CPU since the previous sample, % of one core (main thread and speech workers). */
  cpuPct: number;
  /** Client side: scenarios and slow clients running at the time. */
  inflight: number;
  ops: number;
  errors: number;
}

export interface MetricSummary {
  start: number;
  warm: number;
  peak: number;
  end: number;
  /** Least-squares slope over the samples after warm-up (under traffic), per hour. */
  slopePerHour: number;
}

export interface Verdict {
  ok: boolean;
  failures: string[];
  metrics: Record<'rssMB' | 'heapMB' | 'handles' | 'fds' | 'slots', MetricSummary>;
}

export interface SoakResult {
  options: SoakOptions;
  samples: Sample[];
  scenarios: Record<string, number>;
  ops: Record<string, number>;
  errors: Record<string, number>;
  /** Error messages with their counts (`kind: message`). */
  errorDetails: Record<string, number>;
  statuses: Record<string, number>;
  rateLimited: number;
  totalOps: number;
  totalErrors: number;
  /** Lines the server wrote on stderr (it logs unexpected errors there). */
  serverStderr: string[];
  serverExit: string | undefined;
  trafficSeconds: number;
  drainSeconds: number;
  verdict: Verdict;
}

/** Growth bounds (see bench/README.md): heap +30 MB with a slope of +100 MB/h; fds / handles +20; no slot held at the end. */
export const Bounds = { heapGrowthMB: 30, heapSlopeMBPerHour: 100, fdMargin: 20, handleMargin: 20 } as const;

// ───────────────────────────── the server process ─────────────────────────────

interface ServerSample {
  rss: number;
  heap_used: number;
  heap_total: number;
  external: number;
  array_buffers: number;
  handles: number;
  resources: Record<string, number>;
  connection_slots: number;
}

interface SoakServer {
  url: string;
  key: string;
  pid: number;
  stderr: string[];
  exit: string | undefined;
  onExit(listener: () => void): void;
  sample(): Promise<{ server: ServerSample; rssKB: number; fds: number; cpuTicks: number }>;
  stop(): Promise<void>;
}

const launcher = fileURLToPath(new URL('./support/soak-server.js', import.meta.url));

async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as AddressInfo;
  await new Promise((done) => probe.close(done));
  return port;
}

async function startSoakServer(): Promise<SoakServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'avatar-soak-'));
  const port = await freePort();
  // A clean environment: offline engines only, whatever vendor keys the caller's shell holds.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DEV_BOOTSTRAP: 'false',
    ACCESS_LOG: 'false',
  };
  const child: ChildProcess = spawn(process.execPath, [launcher], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  const waiters: ((sample: ServerSample) => void)[] = [];
  const exitListeners: (() => void)[] = [];
  let stopping = false;
  const state: { exit: string | undefined } = { exit: undefined };
  const exited = new Promise<void>((done) =>
    child.once('exit', (code, signal) => {
      state.exit = signal ? `signal ${signal}` : `code ${code}`;
      if (!stopping) for (const listener of exitListeners) listener();
      done();
    }),
  );
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  const ready = new Promise<{ url: string; key: string; pid: number }>((done, fail) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let message: { type?: string } & Record<string, unknown>;
      try {
        message = JSON.parse(line) as typeof message;
      } catch {
        stderr.push(`[stdout] ${line}`);
        return;
      }
      if (message.type === 'ready') done(message as unknown as { url: string; key: string; pid: number });
      else if (message.type === 'sample') waiters.shift()?.(message as unknown as ServerSample);
    });
    void exited.then(() => fail(new Error(`soak server exited (${state.exit}) before it was ready:\n${stderr.join('\n')}`)));
    setTimeout(() => fail(new Error('soak server not ready after 60 s')), 60_000).unref();
  });
  let started;
  try {
    started = await ready;
  } catch (error) {
    child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const pid = child.pid!;
  return {
    ...started,
    pid,
    stderr,
    get exit() {
      return state.exit;
    },
    onExit: (listener) => void exitListeners.push(listener),
    async sample() {
      const server = await new Promise<ServerSample>((done, fail) => {
        const timer = setTimeout(() => {
          const at = waiters.indexOf(take);
          if (at !== -1) waiters.splice(at, 1);
          fail(new Error('the server did not answer a sample request within 30 s'));
        }, 30_000);
        const take = (sample: ServerSample) => {
          clearTimeout(timer);
          done(sample);
        };
        waiters.push(take);
        child.kill('SIGUSR2');
      });
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const rssKB = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? NaN);
      const fds = readdirSync(`/proc/${pid}/fd`).length;
      // utime + stime (fields 14 and 15 of /proc/<pid>/stat; the name in field 2 may hold spaces).
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cpuTicks = Number(fields[11]) + Number(fields[12]);
      return { server, rssKB, fds, cpuTicks };
    },
    async stop() {
      stopping = true;
      if (state.exit === undefined) {
        child.kill('SIGTERM');
        const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(kill);
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

// ───────────────────────────── bookkeeping ─────────────────────────────

class Tally {
  readonly scenarios = new Map<string, number>();
  readonly ops = new Map<string, number>();
  readonly errors = new Map<string, number>();
  readonly errorDetails = new Map<string, number>();
  readonly statuses = new Map<string, number>();
  rateLimited = 0;
  totalOps = 0;
  totalErrors = 0;

  static bump(map: Map<string, number>, key: string): void {
    map.set(key, (map.get(key) ?? 0) + 1);
  }
  op(kind: string): void {
    this.totalOps++;
    Tally.bump(this.ops, kind);
  }
  status(status: number): void {
    Tally.bump(this.statuses, String(status));
    if (status === 429) this.rateLimited++;
  }
  error(kind: string, message: string): void {
    this.totalErrors++;
    Tally.bump(this.errors, kind);
    Tally.bump(this.errorDetails, `${kind}: ${message.replace(/\s+/g, ' ').slice(0, 140)}`);
  }
}

/** An error already counted; ends the scenario without counting it again. */
class Recorded extends Error {}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));


/** Hands out operation slots at a steady rate, first come first served. */
class Pacer {
  #next = 0;
  constructor(private readonly intervalMs: number) {}
  async take(): Promise<void> {
    const now = performance.now();
    const at = Math.max(this.#next, now);
    this.#next = at + this.intervalMs;
    if (at > now) await sleep(at - now);
  }
}

interface Ctx {
  base: string;
  key: string;
  agent: http.Agent;
  tally: Tally;
  pacer: Pacer;
  rng: () => number;
  options: SoakOptions;
  avatars: string[];
  /** Closers of every client connection still open (forced at the end if a scenario hangs). */
  open: Set<() => void>;
  stopping(): boolean;
}

const REST_TIMEOUT_MS = 30_000;
const REPLY_TIMEOUT_MS = 60_000;

const CONTENTS = [
  'Hi! My name is Sam.',
  'How are you today?',
  'Tell me a joke, please.',
  'What is 12 times 7?',
  'Can you help me plan my week?',
  'What do you remember about me?',
  'I feel a bit tired today. Any advice?',
  'Thanks, that was helpful. What else can you do?',
];
/** Longer replies, so a disconnect or a paused reader lands mid-reply (speech still running). */
const LONG_CONTENTS = ['Tell me about yourself and what you can help me with.', 'Can you help me plan my week? I have a lot to do.'];

const pick = <T>(rng: () => number, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
const tts = (ctx: Ctx, localShare: number) => (ctx.rng() < localShare ? 'local' : 'browser');

// ───────────────────────────── HTTP ─────────────────────────────

interface HttpResult {
  status: number;
  json: unknown;
  bytes: number;
}

function httpCall(ctx: Ctx, method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult> {
  return new Promise((done, fail) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method,
        agent: ctx.agent,
        headers: {
          authorization: `Bearer ${ctx.key}`,
          ...(payload !== undefined && { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', fail);
        res.on('end', () => {
          clearTimeout(timer);
          const buffer = Buffer.concat(chunks);
          let json: unknown;
          if ((res.headers['content-type'] ?? '').includes('json')) {
            try {
              json = JSON.parse(buffer.toString('utf8'));
            } catch {
              json = undefined;
            }
          }
          done({ status: res.statusCode ?? 0, json, bytes: buffer.length });
        });
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`timed out after ${REST_TIMEOUT_MS} ms`)), REST_TIMEOUT_MS);
    req.on('error', (error) => {
      clearTimeout(timer);
      fail(error);
    });
    req.end(payload);
  });
}

const errorCode = (json: unknown) => (json as { error?: { code?: string } } | undefined)?.error?.code ?? '';

/** One paced, counted request; a failure is counted and ends the scenario. */
async function rest<T>(ctx: Ctx, kind: string, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T> {
  await ctx.pacer.take();
  ctx.tally.op(kind);
  let result: HttpResult;
  try {
    result = await httpCall(ctx, method, path.startsWith('http') ? path : ctx.base + path, body, headers);
  } catch (error) {
    ctx.tally.error(kind, messageOf(error));
    throw new Recorded();
  }
  ctx.tally.status(result.status);
  if (result.status >= 400) {
    ctx.tally.error(kind, `HTTP ${result.status} ${errorCode(result.json)}`);
    throw new Recorded();
  }
  return result.json as T;
}

async function createConversation(ctx: Ctx, ttsProvider: string): Promise<string> {
  const created = await rest<{ id: string }>(ctx, 'POST /v1/conversations', 'POST', '/v1/conversations', {
    avatar_id: pick(ctx.rng, ctx.avatars),
    tts_provider: ttsProvider,
  });
  return created.id;
}

/** Deletes at the end of a scenario whatever happened; a failure is counted, never thrown. */
async function cleanup(ctx: Ctx, id: string | undefined): Promise<void> {
  if (!id) return;
  try {
    await rest(ctx, 'DELETE /v1/conversations/:id', 'DELETE', `/v1/conversations/${id}`);
  } catch {
    // counted
  }
}

interface SseEvent {
  event: string;
  data: unknown;
}

function sseParser(onEvent: (event: SseEvent) => void): (chunk: string) => void {
  let buffer = '';
  return (chunk) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (!block.trim() || block.startsWith(':')) continue;
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
      let parsed: unknown = data;
      try {
        parsed = JSON.parse(data);
      } catch {
        // keep the text
      }
      onEvent({ event, data: parsed });
    }
  };
}

interface StreamHandle {
  /** Destroys the connection (a client going away mid-reply); the reply then resolves as cut. */
  cut(): void;
  /** Stops reading (response and socket paused) for `ms`, then reads on. */
  pause(ms: number): void;
}

/**
 * POSTs a streamed message (on a connection of its own with `ownConnection`); `onEvent` sees each
 * event with a handle to cut or pause the stream. Resolves with the events when the stream ends.
 */
function sseReply(
  ctx: Ctx,
  id: string,
  content: string,
  control: { onEvent?: (event: SseEvent, handle: StreamHandle) => void; ownConnection?: boolean } = {},
): Promise<{ status: number; events: SseEvent[]; cut: boolean }> {
  return new Promise((done, fail) => {
    const payload = JSON.stringify({ content, stream: true });
    const events: SseEvent[] = [];
    let status = 0;
    let cut = false;
    let settled = false;
    const timeoutMs = REPLY_TIMEOUT_MS + ctx.options.slowMs;
    const req = http.request(
      `${ctx.base}/v1/conversations/${id}/messages`,
      {
        method: 'POST',
        agent: control.ownConnection ? false : ctx.agent,
        headers: {
          authorization: `Bearer ${ctx.key}`,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(payload)),
          accept: 'text/event-stream',
        },
      },
      (res) => {
        status = res.statusCode ?? 0;
        res.setEncoding('utf8');
        const handle: StreamHandle = {
          cut() {
            cut = true;
            req.destroy();
          },
          pause(ms) {
            res.pause();
            res.socket.pause();
            setTimeout(() => {
              res.socket.resume();
              res.resume();
            }, ms);
          },
        };
        const parse = sseParser((event) => {
          events.push(event);
          if (!cut) control.onEvent?.(event, handle);
        });
        res.on('data', (chunk: string) => (status === 200 ? parse(chunk) : events.push({ event: 'body', data: chunk })));
        res.on('end', () => finish());
        res.on('close', () => finish(res.complete ? undefined : new Error('stream closed before its end')));
        res.on('error', (error) => finish(error));
      },
    );
    const close = () => req.destroy();
    ctx.open.add(close);
    const timer = setTimeout(() => req.destroy(new Error(`no end of stream after ${timeoutMs} ms`)), timeoutMs);
    function finish(error?: Error) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ctx.open.delete(close);
      if (error && !cut) fail(error);
      else done({ status, events, cut });
    }
    req.on('error', (error) => finish(error));
    req.end(payload);
  });
}

// ───────────────────────────── realtime clients ─────────────────────────────

type IoClient = Socket<ServerToClientEvents, ClientToServerEvents>;

async function ioConnect(ctx: Ctx): Promise<IoClient> {
  await ctx.pacer.take();
  ctx.tally.op('socket.io connect');
  const client: IoClient = connect(ctx.base, {
    path: '/v1/realtime',
    auth: { token: ctx.key },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    timeout: REST_TIMEOUT_MS,
  });
  const close = () => client.close();
  ctx.open.add(close);
  client.once('disconnect', () => ctx.open.delete(close));
  try {
    await new Promise<void>((done, fail) => {
      client.once('connect', () => done());
      client.once('connect_error', (error: Error & { data?: unknown }) => fail(new Error(`${error.message} ${JSON.stringify(error.data ?? '')}`)));
    });
  } catch (error) {
    client.close();
    ctx.open.delete(close);
    ctx.tally.error('socket.io connect', messageOf(error));
    throw new Recorded();
  }
  return client;
}

async function ioJoin(ctx: Ctx, client: IoClient, id: string): Promise<void> {
  await ctx.pacer.take();
  ctx.tally.op('socket.io join');
  try {
    const ack = await client.timeout(REST_TIMEOUT_MS).emitWithAck('join', { conversation_id: id });
    if (!ack.ok) throw new Error(`join refused: ${JSON.stringify(ack)}`);
  } catch (error) {
    ctx.tally.error('socket.io join', messageOf(error));
    throw new Recorded();
  }
}

/** Waits for the next `done` (or `error`) of a socket.io client. */
function ioReply(client: IoClient, onDelta?: () => void): Promise<void> {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => end(new Error(`no done after ${REPLY_TIMEOUT_MS} ms`)), REPLY_TIMEOUT_MS);
    const onDone = () => end();
    const onError = (error: unknown) => end(new Error(`error event ${JSON.stringify(error)}`));
    const onDisconnect = (reason: string) => end(new Error(`disconnected: ${reason}`));
    const onMessage = () => onDelta?.();
    function end(error?: Error) {
      clearTimeout(timer);
      client.off('done', onDone).off('error', onError).off('disconnect', onDisconnect).off('message', onMessage);
      if (error) fail(error);
      else done();
    }
    client.on('done', onDone).on('error', onError).on('disconnect', onDisconnect).on('message', onMessage);
  });
}

async function wsConnect(ctx: Ctx, id: string): Promise<WebSocket> {
  await ctx.pacer.take();
  ctx.tally.op('WebSocket connect');
  const ws = new WebSocket(`${ctx.base.replace(/^http/, 'ws')}/v1/conversations/${id}/ws`, { headers: { authorization: `Bearer ${ctx.key}` } });
  const close = () => ws.terminate();
  ctx.open.add(close);
  ws.once('close', () => ctx.open.delete(close));
  ws.on('error', () => undefined); // reported through open / replies
  try {
    await new Promise<void>((done, fail) => {
      ws.once('open', () => done());
      ws.once('unexpected-response', (_req, res) => fail(new Error(`HTTP ${res.statusCode}`)));
      ws.once('error', fail);
      setTimeout(() => fail(new Error('no open after 30 s')), REST_TIMEOUT_MS).unref();
    });
  } catch (error) {
    ws.terminate();
    ctx.tally.error('WebSocket connect', messageOf(error));
    throw new Recorded();
  }
  return ws;
}

/** Sends a message frame and waits for the `done` frame. */
function wsReply(ws: WebSocket, content: string, onDelta?: () => void): Promise<void> {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => end(new Error(`no done frame after ${REPLY_TIMEOUT_MS} ms`)), REPLY_TIMEOUT_MS);
    const onFrame = (raw: WebSocket.RawData) => {
      let frame: { type?: string; data?: unknown };
      try {
        frame = JSON.parse(raw.toString()) as typeof frame;
      } catch {
        return end(new Error('a frame that is not JSON'));
      }
      if (frame.type === 'done') end();
      else if (frame.type === 'error') end(new Error(`error frame ${JSON.stringify(frame.data)}`));
      else if (frame.type === 'message') onDelta?.();
    };
    const onClose = (code: number) => end(new Error(`closed (${code})`));
    function end(error?: Error) {
      clearTimeout(timer);
      ws.off('message', onFrame).off('close', onClose);
      if (error) fail(error);
      else done();
    }
    ws.on('message', onFrame).on('close', onClose);
    ws.send(JSON.stringify({ type: 'message', data: { content } }));
  });
}

// ───────────────────────────── scenarios ─────────────────────────────

interface Scenario {
  name: string;
  weight: number;
  run(ctx: Ctx): Promise<void>;
}

const SCENARIOS: Scenario[] = [
  {
    // Reads: health, the avatar list, one avatar.
    name: 'rest reads',
    weight: 25,
    async run(ctx) {
      const r = ctx.rng();
      if (r < 0.4) await rest(ctx, 'GET /health', 'GET', '/health');
      else if (r < 0.75) await rest(ctx, 'GET /v1/avatars', 'GET', '/v1/avatars');
      else await rest(ctx, 'GET /v1/avatars/:id', 'GET', `/v1/avatars/${pick(ctx.rng, ctx.avatars)}`);
    },
  },
  {
    // create → message (JSON reply) → [its MP3] → read → end → delete
    name: 'rest conversation',
    weight: 20,
    async run(ctx) {
      let id: string | undefined;
      try {
        const speech = tts(ctx, 1 / 3);
        id = await createConversation(ctx, speech);
        const reply = await rest<{ audio_url?: string | null; audio_error?: string }>(ctx, 'POST /v1/conversations/:id/messages', 'POST', `/v1/conversations/${id}/messages`, {
          content: pick(ctx.rng, CONTENTS),
        });
        if (reply.audio_error) ctx.tally.error('reply speech', reply.audio_error);
        else if (speech === 'local' && !reply.audio_url) ctx.tally.error('reply speech', 'no audio_url');
        if (reply.audio_url) await rest(ctx, 'GET /v1/audio/*.mp3', 'GET', reply.audio_url, undefined, ctx.rng() < 0.5 ? { range: 'bytes=0-1023' } : {});
        await rest(ctx, 'GET /v1/conversations/:id', 'GET', `/v1/conversations/${id}`);
        await rest(ctx, 'POST /v1/conversations/:id/end', 'POST', `/v1/conversations/${id}/end`);
      } finally {
        await cleanup(ctx, id);
      }
    },
  },
  {
    // create → streamed reply read to the end → read → delete
    name: 'sse conversation',
    weight: 15,
    async run(ctx) {
      let id: string | undefined;
      try {
        const speech = tts(ctx, 1 / 3);
        id = await createConversation(ctx, speech);
        for (let turn = 0; turn < 2; turn++) {
          await ctx.pacer.take();
          ctx.tally.op('POST messages (SSE)');
          try {
            const { status, events } = await sseReply(ctx, id, pick(ctx.rng, CONTENTS));
            ctx.tally.status(status);
            if (status !== 200) throw new Error(`HTTP ${status} ${JSON.stringify(events[0]?.data ?? '')}`);
            const error = events.find((e) => e.event === 'error');
            if (error) throw new Error(`error event ${JSON.stringify(error.data)}`);
            if (!events.some((e) => e.event === 'done')) throw new Error('stream ended without done');
            if (speech === 'local' && !events.some((e) => e.event === 'audio')) ctx.tally.error('reply speech', 'SSE reply without audio events');
          } catch (error) {
            ctx.tally.error('POST messages (SSE)', messageOf(error));
            throw new Recorded();
          }
        }
        await rest(ctx, 'GET /v1/conversations/:id', 'GET', `/v1/conversations/${id}`);
      } finally {
        await cleanup(ctx, id);
      }
    },
  },
  {
    // create → connect → join → two messages, each to its done → disconnect → delete
    name: 'socket.io conversation',
    weight: 12,
    async run(ctx) {
      let id: string | undefined;
      let client: IoClient | undefined;
      try {
        id = await createConversation(ctx, tts(ctx, 1 / 4));
        client = await ioConnect(ctx);
        await ioJoin(ctx, client, id);
        for (let turn = 0; turn < 2; turn++) {
          await ctx.pacer.take();
          ctx.tally.op('socket.io message');
          try {
            const replied = ioReply(client);
            const ack = await client.timeout(REST_TIMEOUT_MS).emitWithAck('message', { content: pick(ctx.rng, CONTENTS) });
            if (!ack.ok) throw new Error(`message refused: ${JSON.stringify(ack)}`);
            await replied;
          } catch (error) {
            ctx.tally.error('socket.io message', messageOf(error));
            throw new Recorded();
          }
        }
      } finally {
        client?.close();
        await cleanup(ctx, id);
      }
    },
  },
  {
    // create → WebSocket → two message frames, each to its done frame → close → delete
    name: 'WebSocket conversation',
    weight: 12,
    async run(ctx) {
      let id: string | undefined;
      let ws: WebSocket | undefined;
      try {
        id = await createConversation(ctx, tts(ctx, 1 / 4));
        ws = await wsConnect(ctx, id);
        for (let turn = 0; turn < 2; turn++) {
          await ctx.pacer.take();
          ctx.tally.op('WebSocket message');
          try {
            await wsReply(ws, pick(ctx.rng, CONTENTS));
          } catch (error) {
            ctx.tally.error('WebSocket message', messageOf(error));
            throw new Recorded();
          }
        }
      } finally {
        ws?.close();
        await cleanup(ctx, id);
      }
    },
  },
  {
    // A client that goes away mid-reply without a goodbye (TCP destroyed), over SSE, socket.io or WebSocket.
    name: 'abrupt disconnect',
    weight: 8,
    async run(ctx) {
      let id: string | undefined;
      const transport = pick(ctx.rng, ['SSE', 'socket.io', 'WebSocket'] as const);
      const kind = `disconnect mid-reply (${transport})`;
      try {
        id = await createConversation(ctx, 'local');
        const content = pick(ctx.rng, LONG_CONTENTS);
        if (transport === 'SSE') {
          await ctx.pacer.take();
          ctx.tally.op(kind);
          const { status, events } = await sseReply(ctx, id, content, {
            ownConnection: true,
            onEvent: (event, handle) => {
              if (event.event === 'message') handle.cut();
            },
          }).catch((error: unknown) => {
            ctx.tally.error(kind, messageOf(error));
            throw new Recorded();
          });
          ctx.tally.status(status);
          if (status !== 200) ctx.tally.error(kind, `HTTP ${status} ${JSON.stringify(events[0]?.data ?? '')}`);
        } else if (transport === 'socket.io') {
          const client = await ioConnect(ctx);
          try {
            await ioJoin(ctx, client, id);
            await ctx.pacer.take();
            ctx.tally.op(kind);
            let timer: ReturnType<typeof setTimeout> | undefined;
            const cut = new Promise<void>((done, fail) => {
              timer = setTimeout(() => fail(new Error('no delta within 60 s')), REPLY_TIMEOUT_MS);
              client.once('message', () => {
                // Destroy the TCP connection under socket.io (engine.io's `ws` WebSocket), no close frame.
                const transport = client.io.engine.transport as unknown as { ws?: { terminate?: () => void } };
                if (typeof transport.ws?.terminate === 'function') transport.ws.terminate();
                else fail(new Error('no ws WebSocket under the socket.io transport to terminate'));
                done();
              });
            });
            client.emit('message', { content });
            try {
              await cut;
            } catch (error) {
              ctx.tally.error(kind, messageOf(error));
              throw new Recorded();
            } finally {
              clearTimeout(timer);
            }
          } finally {
            client.close();
          }
        } else {
          const ws = await wsConnect(ctx, id);
          await ctx.pacer.take();
          ctx.tally.op(kind);
          await wsReply(ws, content, () => ws.terminate()).catch((error: unknown) => {
            if (!/closed/.test(messageOf(error))) ctx.tally.error(kind, messageOf(error));
          });
          ws.terminate();
        }
        await sleep(200);
      } finally {
        await cleanup(ctx, id);
      }
    },
  },
];

/** An SSE client that reads the first event, then stops reading (socket paused) for `slowMs`, then reads the rest. */
async function slowSseClient(ctx: Ctx): Promise<void> {
  const kind = 'slow SSE reader';
  let id: string | undefined;
  try {
    id = await createConversation(ctx, 'local');
    await ctx.pacer.take();
    ctx.tally.op(kind);
    let paused = false;
    const { status, events } = await sseReply(ctx, id, pick(ctx.rng, LONG_CONTENTS), {
      ownConnection: true,
      onEvent: (_event, handle) => {
        if (paused) return;
        paused = true;
        handle.pause(ctx.options.slowMs);
      },
    }).catch((error: unknown) => {
      ctx.tally.error(kind, messageOf(error));
      throw new Recorded();
    });
    ctx.tally.status(status);
    if (status !== 200) ctx.tally.error(kind, `HTTP ${status}`);
    else if (!events.some((e) => e.event === 'done')) ctx.tally.error(kind, `stream ended without done (${events.length} events)`);
  } finally {
    await cleanup(ctx, id);
  }
}

/** A WebSocket client that never reads (socket paused from the start) and sends three messages. */
async function nonReadingWsClient(ctx: Ctx): Promise<void> {
  const kind = 'WebSocket message (never read)';
  let id: string | undefined;
  let ws: WebSocket | undefined;
  try {
    id = await createConversation(ctx, 'local');
    ws = await wsConnect(ctx, id);
    (ws as unknown as { _socket: NetSocket })._socket.pause();
    const started = performance.now();
    for (let i = 0; i < 3; i++) {
      await ctx.pacer.take();
      ctx.tally.op(kind);
      if (ws.readyState !== ws.OPEN) {
        ctx.tally.error(kind, `socket closed by the server (${ws.readyState})`);
        break;
      }
      ws.send(JSON.stringify({ type: 'message', data: { content: pick(ctx.rng, LONG_CONTENTS) } }));
      await sleep(1000);
    }
    await sleep(Math.max(0, ctx.options.slowMs - (performance.now() - started)));
  } finally {
    ws?.terminate();
    await cleanup(ctx, id);
  }
}

// ───────────────────────────── the run ─────────────────────────────

const MB = 1024 * 1024;
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ; 100 on Linux everywhere in practice). */
const TICKS_PER_S = 100;
const round1 = (n: number) => Math.round(n * 10) / 10;

export async function runSoak(overrides: Partial<SoakOptions> = {}): Promise<SoakResult> {
  const options: SoakOptions = { ...defaultSoakOptions, ...overrides };
  const server = await startSoakServer();
  const tally = new Tally();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const samples: Sample[] = [];
  let inflight = 0;
  let stop = false;
  server.onExit(() => {
    stop = true;
  });
  const ctx: Ctx = {
    base: server.url,
    key: server.key,
    agent,
    tally,
    pacer: new Pacer(1000 / options.rate),
    // A seeded generator, so two runs with one seed make the same mix.
    rng: mulberry32(options.seed),
    options,
    avatars: [],
    open: new Set(),
    stopping: () => stop,
  };
  let t0 = performance.now();
  let phase: Phase = 'idle';
  let lastCpu: { ticks: number; at: number } | undefined;
  const warmupMs = options.durationS * 1000 * options.warmupFraction;
  const takeSample = async (): Promise<Sample> => {
    const { server: s, rssKB, fds, cpuTicks } = await server.sample();
    const at = performance.now();
    const cpuPct = lastCpu ? Math.round(((cpuTicks - lastCpu.ticks) / TICKS_PER_S / ((at - lastCpu.at) / 1000)) * 100) : 0;
    lastCpu = { ticks: cpuTicks, at };
    const elapsedMs = performance.now() - t0;
    // A sample due at the end of the warm-up (taken a moment after it) still counts as warm-up.
    const sampledPhase =
      phase === 'warm-up' || phase === 'traffic'
        ? elapsedMs < warmupMs + 1000
          ? 'warm-up'
          : 'traffic'
        : phase === 'drain' && elapsedMs < options.durationS * 1000 + 1000
          ? 'traffic'
          : phase;
    const sample: Sample = {
      t: Math.round(elapsedMs / 1000),
      phase: sampledPhase,
      rssMB: round1((rssKB * 1024) / MB),
      heapMB: round1(s.heap_used / MB),
      heapTotalMB: round1(s.heap_total / MB),
      externalMB: round1(s.external / MB),
      arrayBuffersMB: round1(s.array_buffers / MB),
      handles: s.handles,
      fds,
      resources: s.resources,
      slots: s.connection_slots,
      cpuPct,
      inflight,
      ops: tally.totalOps,
      errors: tally.totalErrors,
    };
    samples.push(sample);
    options.onSample?.(sample);
    return sample;
  };

  let trafficSeconds = 0;
  let drainSeconds = 0;
  try {
    const list = (await (await fetch(`${server.url}/v1/avatars`, { headers: { authorization: `Bearer ${server.key}` } })).json()) as { data?: { id: string }[]; avatars?: { id: string }[] } | { id: string }[];
    const items = Array.isArray(list) ? list : (list.data ?? list.avatars ?? []);
    ctx.avatars = items.map((a) => a.id);
    if (ctx.avatars.length === 0) ctx.avatars = ['luna-001'];

    t0 = performance.now();
    await takeSample(); // idle, before any traffic
    t0 = performance.now();
    const durationMs = options.durationS * 1000;
    const stopTimer = setTimeout(() => (stop = true), durationMs);
    phase = 'warm-up';
    const phaseTimer = setTimeout(() => {
      if (phase === 'warm-up') phase = 'traffic';
    }, warmupMs);

    const loop = async (delayMs: number, body: () => Promise<void>, name: string) => {
      await sleep(delayMs);
      while (!stop) {
        inflight++;
        Tally.bump(tally.scenarios, name);
        try {
          await body();
        } catch (error) {
          if (!(error instanceof Recorded)) tally.error(`scenario ${name}`, messageOf(error));
        } finally {
          inflight--;
        }
      }
    };
    const totalWeight = SCENARIOS.reduce((sum, s) => sum + s.weight, 0);
    const chooseScenario = () => {
      let r = ctx.rng() * totalWeight;
      for (const scenario of SCENARIOS) if ((r -= scenario.weight) < 0) return scenario;
      return SCENARIOS[0]!;
    };
    const workers: Promise<void>[] = [];
    for (let i = 0; i < options.concurrency; i++) {
      workers.push(
        (async () => {
          await sleep((i * 1000) / options.concurrency);
          while (!stop) {
            const scenario = chooseScenario();
            inflight++;
            Tally.bump(tally.scenarios, scenario.name);
            try {
              await scenario.run(ctx);
            } catch (error) {
              if (!(error instanceof Recorded)) tally.error(`scenario ${scenario.name}`, messageOf(error));
            } finally {
              inflight--;
            }
          }
        })(),
      );
    }
    for (let i = 0; i < options.slowSse; i++) workers.push(loop(1500 + i * 3000, () => slowSseClient(ctx), 'slow SSE reader'));
    for (let i = 0; i < options.slowWs; i++) workers.push(loop(3000 + i * 3000, () => nonReadingWsClient(ctx), 'WebSocket never reading'));

    let trafficOver = false;
    const traffic = Promise.all(workers).then(() => {
      trafficOver = true;
    });
    // Samples every `sampleEveryS`, under traffic and while the last scenarios finish.
    for (let n = 1; !trafficOver; n++) {
      const at = t0 + n * options.sampleEveryS * 1000;
      await Promise.race([sleep(Math.max(0, at - performance.now())), traffic]);
      if (trafficOver) break;
      if (stop && phase !== 'drain') phase = 'drain';
      await takeSample();
      if (server.exit !== undefined) break;
    }
    clearTimeout(stopTimer);
    clearTimeout(phaseTimer);
    stop = true;
    trafficSeconds = Math.min(options.durationS, (performance.now() - t0) / 1000);
    const drainStarted = t0 + durationMs;
    // Hung scenarios, if any, are forced after 90 s.
    let drainTimer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([traffic, new Promise<void>((done) => (drainTimer = setTimeout(done, 90_000)))]);
    clearTimeout(drainTimer);
    if (!trafficOver) tally.error('drain', `scenarios still running 90 s after the end: ${inflight}`);
    for (const close of ctx.open) close();
    drainSeconds = Math.max(0, (performance.now() - drainStarted) / 1000);
    agent.destroy();
    if (server.exit === undefined) {
      phase = 'closed';
      await sleep(options.settleS * 1000);
      await takeSample();
      await sleep(2000);
      await takeSample();
    }
  } finally {
    stop = true;
    for (const close of ctx.open) close();
    agent.destroy();
    await server.stop();
  }
  const serverExit = samples.length && samples[samples.length - 1]!.phase === 'closed' ? undefined : server.exit;
  const object = (map: Map<string, number>) => Object.fromEntries([...map].sort((a, b) => b[1] - a[1]));
  return {
    options,
    samples,
    scenarios: object(tally.scenarios),
    ops: object(tally.ops),
    errors: object(tally.errors),
    errorDetails: object(tally.errorDetails),
    statuses: object(tally.statuses),
    rateLimited: tally.rateLimited,
    totalOps: tally.totalOps,
    totalErrors: tally.totalErrors,
    serverStderr: server.stderr,
    serverExit,
    trafficSeconds: Math.round(trafficSeconds),
    drainSeconds: Math.round(drainSeconds),
    verdict: judge(samples),
  };
}

// ───────────────────────────── growth check ─────────────────────────────

/** Least-squares slope of y over x. */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  if (n < 2) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i]! - mx) ** 2;
    sxy += (xs[i]! - mx) * (ys[i]! - my);
  }
  return sxx === 0 ? 0 : sxy / sxx;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * Warm-up level: the median of the samples in the second half of the warm-up (the first half is
 * JIT, caches and the speech worker starting). Slope: least squares over the samples under
 * traffic after warm-up. End: the last sample, taken after every client closed. Fails when the
 * heap ends more than 30 MB above the warm-up level while still rising at ≥ 100 MB/h, or when
 * fds or handles end more than 20 above the warm-up level, or when the account still holds a
 * connection slot (open SSE stream or socket, as the server counts them) once every client left.
 */
export function judge(samples: readonly Sample[]): Verdict {
  const warm = samples.filter((s) => s.phase === 'warm-up');
  const warmLate = warm.slice(Math.floor(warm.length / 2));
  const after = samples.filter((s) => s.phase === 'traffic');
  const end = samples.at(-1);
  const summarize = (key: 'rssMB' | 'heapMB' | 'handles' | 'fds' | 'slots'): MetricSummary => {
    const value = (s: Sample) => s[key];
    return {
      start: samples[0] ? value(samples[0]) : NaN,
      warm: warmLate.length ? round1(median(warmLate.map(value))) : NaN,
      peak: Math.max(...samples.map(value)),
      end: end ? value(end) : NaN,
      slopePerHour: round1(slope(after.map((s) => s.t / 3600), after.map(value))),
    };
  };
  const metrics = { rssMB: summarize('rssMB'), heapMB: summarize('heapMB'), handles: summarize('handles'), fds: summarize('fds'), slots: summarize('slots') };
  const failures: string[] = [];
  if (!end || end.phase !== 'closed') failures.push('no sample after the clients closed (did the server die?)');
  if (warmLate.length === 0 || after.length < 2) failures.push('too few samples for a growth check (run longer or sample more often)');
  const heap = metrics.heapMB;
  if (heap.end - heap.warm > Bounds.heapGrowthMB && heap.slopePerHour >= Bounds.heapSlopeMBPerHour) {
    failures.push(`heap grew ${round1(heap.end - heap.warm)} MB over the warm-up level (${heap.warm} → ${heap.end} MB) and rises ${heap.slopePerHour} MB/h`);
  }
  if (metrics.fds.end - metrics.fds.warm > Bounds.fdMargin) {
    failures.push(`open fds ${metrics.fds.end} after every client closed, ${metrics.fds.end - metrics.fds.warm} above the warm-up level ${metrics.fds.warm}`);
  }
  if (metrics.handles.end - metrics.handles.warm > Bounds.handleMargin) {
    failures.push(`active handles ${metrics.handles.end} after every client closed, ${metrics.handles.end - metrics.handles.warm} above the warm-up level ${metrics.handles.warm}`);
  }
  if (metrics.slots.end > 0) failures.push(`${metrics.slots.end} connection slots still held after every client closed (a lease never released)`);
  return { ok: failures.length === 0, failures, metrics };
}

// ───────────────────────────── report ─────────────────────────────

const pad = (value: string | number, width: number) => String(value).padStart(width);
export const SAMPLE_HEADER = `${pad('t s', 5)}  ${'phase'.padEnd(7)} ${pad('RSS MB', 7)} ${pad('heap MB', 7)} ${pad('ext MB', 6)} ${pad('handles', 7)} ${pad('fds', 5)} ${pad('slots', 5)} ${pad('CPU %', 5)} ${pad('clients', 7)} ${pad('ops', 6)} ${pad('errors', 6)}`;
export const formatSample = (s: Sample) =>
  `${pad(s.t, 5)}  ${s.phase.padEnd(7)} ${pad(s.rssMB.toFixed(1), 7)} ${pad(s.heapMB.toFixed(1), 7)} ${pad(s.externalMB.toFixed(1), 6)} ${pad(s.handles, 7)} ${pad(s.fds, 5)} ${pad(s.slots, 5)} ${pad(s.cpuPct, 5)} ${pad(s.inflight, 7)} ${pad(s.ops, 6)} ${pad(s.errors, 6)}`;

/** The idle sample, one sample per `everyS` seconds of traffic, and the closed samples. */
export function compactSamples(samples: readonly Sample[], everyS: number): Sample[] {
  const picked: Sample[] = [];
  let next = 0;
  for (const s of samples) {
    if (s.phase === 'idle' || s.phase === 'closed' || s.phase === 'drain') picked.push(s);
    else if (s.t >= next) {
      picked.push(s);
      next = (Math.floor(s.t / everyS) + 1) * everyS;
    }
  }
  return picked;
}

export function formatReport(result: SoakResult, { allSamples = true }: { allSamples?: boolean } = {}): string {
  const o = result.options;
  const lines: string[] = [];
  const rows = (record: Record<string, number>) => Object.entries(record).map(([k, v]) => `  ${pad(v, 7)}  ${k}`);
  lines.push(
    `soak: ${o.durationS} s of traffic at ${o.rate} ops/s, ${o.concurrency} workers + ${o.slowSse} slow SSE readers + ${o.slowWs} non-reading WebSockets (paused ${o.slowMs / 1000} s), samples every ${o.sampleEveryS} s, seed ${o.seed}`,
  );
  if (allSamples) lines.push('', 'samples (server process; heap after a full GC):', SAMPLE_HEADER, ...result.samples.map(formatSample));
  const compactEvery = o.durationS >= 300 ? 60 : 10;
  lines.push('', `samples every ${compactEvery} s:`, SAMPLE_HEADER, ...compactSamples(result.samples, compactEvery).map(formatSample));
  lines.push('', `scenarios started (${Object.values(result.scenarios).reduce((a, b) => a + b, 0)}):`, ...rows(result.scenarios));
  lines.push(
    '',
    `operations (${result.totalOps} in ${result.trafficSeconds} s of traffic + ${result.drainSeconds} s drain = ${(result.totalOps / Math.max(1, result.trafficSeconds + result.drainSeconds)).toFixed(1)}/s):`,
    ...rows(result.ops),
  );
  lines.push('', `HTTP statuses: ${Object.entries(result.statuses).map(([k, v]) => `${k}×${v}`).join(', ')}; 429s: ${result.rateLimited}`);
  lines.push('', `errors: ${result.totalErrors}`, ...rows(result.errorDetails));
  if (result.serverExit) lines.push('', `SERVER EXITED DURING THE RUN: ${result.serverExit}`);
  if (result.serverStderr.length) lines.push('', `server stderr (${result.serverStderr.length} lines, first 20):`, ...result.serverStderr.slice(0, 20).map((l) => `  ${l}`));
  const m = result.verdict.metrics;
  lines.push('', `metric          start   warm-up    peak     end   slope after warm-up`);
  for (const [name, key, unit] of [
    ['RSS MB', 'rssMB', 'MB/h'],
    ['heap MB', 'heapMB', 'MB/h'],
    ['handles', 'handles', '/h'],
    ['fds', 'fds', '/h'],
    ['conn. slots', 'slots', '/h'],
  ] as const) {
    const x = m[key];
    lines.push(`${name.padEnd(12)} ${pad(x.start, 8)} ${pad(x.warm, 9)} ${pad(x.peak, 7)} ${pad(x.end, 7)}   ${x.slopePerHour} ${unit}`);
  }
  const last = result.samples.at(-1);
  if (last) lines.push('', `active resources at the end: ${Object.entries(last.resources).map(([k, v]) => `${k}×${v}`).join(', ')}`);
  lines.push('', result.verdict.ok ? 'growth check: PASS' : `growth check: FAIL\n${result.verdict.failures.map((f) => `  - ${f}`).join('\n')}`);
  return lines.join('\n');
}

// ───────────────────────────── CLI ─────────────────────────────

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: String(defaultSoakOptions.durationS) },
      rate: { type: 'string', default: String(defaultSoakOptions.rate) },
      sample: { type: 'string', default: String(defaultSoakOptions.sampleEveryS) },
      concurrency: { type: 'string', default: String(defaultSoakOptions.concurrency) },
      'slow-sse': { type: 'string', default: String(defaultSoakOptions.slowSse) },
      'slow-ws': { type: 'string', default: String(defaultSoakOptions.slowWs) },
      'slow-ms': { type: 'string', default: String(defaultSoakOptions.slowMs) },
      seed: { type: 'string', default: String(defaultSoakOptions.seed) },
      json: { type: 'string' },
    },
  });
  const number = (name: keyof typeof values) => {
    const n = Number(values[name]);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number`);
    return n;
  };
  const options: Partial<SoakOptions> = {
    durationS: number('duration'),
    rate: number('rate'),
    sampleEveryS: number('sample'),
    concurrency: number('concurrency'),
    slowSse: number('slow-sse'),
    slowWs: number('slow-ws'),
    slowMs: number('slow-ms'),
    seed: number('seed'),
  };
  console.log(`soak: ${options.durationS} s at ${options.rate} ops/s; sampling the server every ${options.sampleEveryS} s`);
  console.log(SAMPLE_HEADER);
  const result = await runSoak({ ...options, onSample: (s) => console.log(formatSample(s)) });
  console.log(`\n${formatReport(result, { allSamples: false })}`);
  if (values.json) writeFileSync(values.json, JSON.stringify(result, null, 2));
  process.exitCode = result.verdict.ok ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
