/**
 * Entry point of a local-speech worker thread: keeps one warm espeak-ng runtime and one MP3
 * encoder, answers {@link WorkerRequest}s one at a time, and prepares the next espeak-ng instance
 * while idle, posting `warm` when it is ready. Started by `SpeechWorkerPool`; not meant to be imported.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createMp3ClipEncoder, type Mp3ClipEncoder } from '../../audio/mp3-clip-encoder.js';
import { EspeakRuntime } from './espeak-runtime.js';
import { synthesizeClip } from './synthesize-clip.js';
import type { SpeechWorkerData, WorkerRequest, WorkerResponse } from './worker-protocol.js';

const port = parentPort;
if (!port) throw new Error('speech-worker.js must run in a worker thread');
const { engineModuleUrl } = workerData as SpeechWorkerData;

// Both load once per thread; a failure is reported to every request as "unavailable".
const ready: Promise<{ runtime: EspeakRuntime; encoder: Mp3ClipEncoder }> = Promise.all([
  EspeakRuntime.load(engineModuleUrl),
  createMp3ClipEncoder(),
]).then(([runtime, encoder]) => {
  announceWarm(runtime);
  return { runtime, encoder };
});
ready.catch(() => post({ type: 'warm', ok: false })); // reported per request below

port.on('message', (message: WorkerRequest) => {
  void handle(message);
});

async function handle(message: WorkerRequest): Promise<void> {
  let engine: Awaited<typeof ready>;
  try {
    engine = await ready;
  } catch (error) {
    post({ type: 'failed', id: message.id, code: 'unavailable', message: `espeak-ng could not be started: ${describe(error)}` });
    return;
  }
  try {
    const result = await synthesizeClip(engine.runtime, engine.encoder, message.request, () => performance.now());
    post({ type: 'done', id: message.id, result }, [result.audio.buffer as ArrayBuffer]);
  } catch (error) {
    post({ type: 'failed', id: message.id, code: 'internal_error', message: describe(error) });
  }
  // Warm the next instance once the answer is on its way.
  setImmediate(() => announceWarm(engine.runtime));
}

/** Prepares the next espeak-ng instance and tells the pool when it is ready. */
function announceWarm(runtime: EspeakRuntime): void {
  runtime.prepare().then(
    () => post({ type: 'warm', ok: true }),
    () => post({ type: 'warm', ok: false }), // the next request tries again and reports a failure
  );
}

function post(response: WorkerResponse, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(response, transfer);
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  // Emscripten's file system throws plain objects ({ name: 'ErrnoError', errno, … }).
  if (typeof error === 'object' && error !== null) {
    const { name, errno, code } = error as { name?: unknown; errno?: unknown; code?: unknown };
    return [name, code, errno !== undefined && `errno ${String(errno)}`].filter(Boolean).join(' ') || 'unknown error';
  }
  return String(error);
}
