import { Worker } from 'node:worker_threads';
import { ErrorCode, ServiceError } from '../../errors.js';
import type { ClipRequest, ClipResult, SpeechWorkerData, WorkerRequest, WorkerResponse } from './worker-protocol.js';

export interface SpeechWorkerPoolSettings {
  /** Most worker threads at once; each synthesizes one clip at a time. */
  size: number;
  workerData: SpeechWorkerData;
  /** The worker entry; `speech-worker.js` next to this module unless told. */
  workerUrl?: URL;
}

interface Job {
  id: number;
  request: ClipRequest;
  /** Queue order: earliest first, then first come (see `SpeechRequest.neededAt`). */
  neededAt: number;
  resolve: (result: ClipResult) => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
  settled: boolean;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  /** The worker said its next espeak-ng instance is ready and has had no request since. */
  warm: boolean;
  /** The worker has said how preparing an instance went at least once (see {@link SpeechWorkerPool.warm}). */
  reported: boolean;
}

/** The rejection for an aborted signal: its reason when that is an abort error, else a new one. */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && (reason.name === 'AbortError' || reason.name === 'TimeoutError')) return reason;
  return new DOMException('The speech request was aborted', 'AbortError');
}

/**
 * A pool of speech worker threads, so synthesis and MP3 encoding never block the host's event
 * loop and requests of different conversations run in parallel (one clip per worker at a time;
 * waiting requests start by `neededAt`, so a reply's first sentence overtakes later sentences of
 * replies already playing). Workers start on the first request that needs one,
 * or all at once with {@link warm}; each keeps its next espeak-ng instance ready while idle, and a
 * request goes to an idle worker whose instance is ready before one still preparing it. Workers
 * are `unref()`ed while idle (an idle pool never keeps a process alive) and are terminated by
 * {@link close}. An aborted request is rejected at once; if a worker was already on it, the
 * worker finishes and the result is dropped. A worker that crashes is replaced on demand.
 */
export class SpeechWorkerPool {
  readonly #settings: Required<SpeechWorkerPoolSettings>;
  readonly #slots: Slot[] = [];
  readonly #queue: Job[] = [];
  readonly #warmWaiters = new Set<() => void>();
  #nextId = 1;
  #closed = false;

  constructor(settings: SpeechWorkerPoolSettings) {
    if (!Number.isInteger(settings.size) || settings.size < 1) {
      throw new RangeError(`poolSize must be a positive integer, got ${settings.size}`);
    }
    this.#settings = Object.freeze({ workerUrl: new URL('./speech-worker.js', import.meta.url), ...settings });
  }

  /** Worker threads currently running (busy or idle). */
  get workerCount(): number {
    return this.#slots.length;
  }

  /** Workers synthesizing a clip right now. */
  get busyCount(): number {
    return this.#slots.filter((slot) => slot.job !== null).length;
  }

  /** Idle workers whose next espeak-ng instance is ready. */
  get warmCount(): number {
    return this.#slots.filter((slot) => slot.warm && slot.job === null).length;
  }

  /** Most worker threads at once. */
  get size(): number {
    return this.#settings.size;
  }

  /**
   * Starts every worker now, so that no request waits for a thread, a wasm compile or an
   * espeak-ng instance. Resolves when each idle worker has said whether its instance is ready (or
   * the pool closed); {@link warmCount} tells how many are.
   */
  async warm(): Promise<void> {
    if (this.#closed) return;
    while (this.#slots.length < this.#settings.size) this.#spawn();
    this.#dispatch();
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (this.#closed || this.#slots.every((slot) => slot.reported || slot.job !== null)) {
          this.#warmWaiters.delete(check);
          resolve();
        }
      };
      this.#warmWaiters.add(check);
      check();
    });
  }

  /**
   * Synthesizes on the first free worker. Waiting requests start earliest `neededAt` first (when
   * the listener would run out of audio; now unless told), first come among equals.
   */
  run(request: ClipRequest, signal?: AbortSignal, neededAt: number = performance.now()): Promise<ClipResult> {
    if (this.#closed) return Promise.reject(new ServiceError(ErrorCode.unavailable, 'The local speech engine is closed'));
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<ClipResult>((resolve, reject) => {
      const job: Job = {
        id: this.#nextId++,
        request,
        neededAt,
        resolve,
        reject,
        signal,
        onAbort: () => {
          const queued = this.#queue.indexOf(job);
          if (queued >= 0) this.#queue.splice(queued, 1);
          this.#settle(job, () => reject(abortReason(signal!)));
        },
        settled: false,
      };
      signal?.addEventListener('abort', job.onAbort, { once: true });
      let at = this.#queue.length;
      while (at > 0 && this.#queue[at - 1]!.neededAt > neededAt) at--;
      this.#queue.splice(at, 0, job);
      this.#dispatch();
    });
  }

  /** Terminates every worker; queued and running requests reject with `unavailable`. */
  async close(): Promise<void> {
    this.#closed = true;
    const closed = new ServiceError(ErrorCode.unavailable, 'The local speech engine was closed');
    for (const job of this.#queue.splice(0)) this.#settle(job, () => job.reject(closed));
    const slots = this.#slots.splice(0);
    for (const slot of slots) if (slot.job) this.#settle(slot.job, () => slot.job!.reject(closed));
    for (const check of [...this.#warmWaiters]) check();
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      // A ready instance first; then a new worker; then an idle one still preparing its instance.
      let slot = this.#slots.find((s) => s.job === null && s.warm);
      if (!slot && this.#slots.length < this.#settings.size) slot = this.#spawn();
      slot ??= this.#slots.find((s) => s.job === null);
      if (!slot) return;
      const job = this.#queue.shift()!;
      slot.job = job;
      slot.warm = false;
      slot.worker.ref(); // a request in flight keeps the process alive
      const message: WorkerRequest = { type: 'synthesize', id: job.id, request: job.request };
      slot.worker.postMessage(message);
    }
  }

  #spawn(): Slot {
    // Workers inherit the host's Node flags (loaders, say) except those Node refuses in a worker:
    // --input-type, and process-wide ones such as --expose-gc, which fail the whole list.
    let worker: Worker;
    try {
      const execArgv = process.execArgv.filter((flag) => !flag.startsWith('--input-type'));
      worker = new Worker(this.#settings.workerUrl, { workerData: this.#settings.workerData, execArgv });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
      worker = new Worker(this.#settings.workerUrl, { workerData: this.#settings.workerData, execArgv: [] });
    }
    const slot: Slot = { worker, job: null, warm: false, reported: false };
    worker.unref();
    worker.on('message', (response: WorkerResponse) => {
      if (response.type === 'warm') {
        // Stale when a request took that instance meanwhile; the worker says so again after it.
        slot.reported = true;
        if (slot.job !== null) return;
        slot.warm = response.ok;
        for (const check of [...this.#warmWaiters]) check();
        this.#dispatch();
        return;
      }
      const job = slot.job;
      if (!job || job.id !== response.id) return;
      slot.job = null;
      worker.unref();
      if (response.type === 'done') {
        this.#settle(job, () => job.resolve(response.result));
      } else {
        const message = `local speech: ${response.message}`;
        this.#settle(job, () => job.reject(new ServiceError(response.code, message, { isRetryable: response.code === 'internal_error' })));
      }
      this.#dispatch();
    });
    const lost = (why: string): void => {
      const index = this.#slots.indexOf(slot);
      if (index < 0) return;
      this.#slots.splice(index, 1);
      const job = slot.job;
      slot.job = null;
      if (job) this.#settle(job, () => job.reject(new ServiceError(ErrorCode.internalError, `local speech worker ${why}`, { isRetryable: true })));
      for (const check of [...this.#warmWaiters]) check();
      if (!this.#closed) this.#dispatch();
    };
    worker.on('error', (error) => lost(`crashed: ${error.message}`));
    worker.on('exit', (code) => lost(`exited with code ${code}`));
    this.#slots.push(slot);
    return slot;
  }

  #settle(job: Job, settle: () => void): void {
    if (job.settled) return;
    job.settled = true;
    job.signal?.removeEventListener('abort', job.onAbort);
    settle();
  }
}
