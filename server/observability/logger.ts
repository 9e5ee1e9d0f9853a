import { openSync, writeSync } from 'node:fs';
import { pino } from 'pino';
import type { DestinationStream, Logger } from 'pino';
import type { LogLevel } from '../config.js';

export type { Logger };

/**
 * The server's log: one JSON object per line (`time` ISO 8601, `level` by name, `msg`, and the
 * fields of the line, e.g. `req_id` on request lines), on stdout ({@link jsonDestination})
 * unless `destination` is given. Parts of the server log through children that add `component`.
 */
export function createLogger(level: LogLevel, destination: DestinationStream = jsonDestination()): Logger {
  return pino({ level, base: null, timestamp: isoTime(), formatters: { level: (label: string) => ({ level: label }) } }, destination);
}

/**
 * Where JSON lines go: stdout unless a file descriptor or path is given. Lines logged in one turn
 * of the event loop are written together, synchronously, when the turn ends (`setImmediate`) —
 * one system call per turn instead of one per line. On these machines a request line written on
 * its own cost ≈ 15 µs of a cached read's ≈ 75 µs, batched ≈ 5 µs (bench/README.md,
 * api-throughput); pino's own asynchronous mode, which writes from libuv's thread pool, measured
 * slower than writing each line. At light traffic a line still leaves at the end of its turn.
 * Lines pending when the process exits (an uncaught exception included) are written then; only
 * a process killed outright (SIGKILL) or a crash of the machine loses the last turn's lines.
 */
export function jsonDestination(dest: number | string = 1): DestinationStream {
  if (dest === 1) return (stdout ??= new TurnBatchedLines(1));
  return new TurnBatchedLines(typeof dest === 'number' ? dest : openSync(dest, 'a'));
}

/** The stdout destination, shared by every logger of the process. */
let stdout: TurnBatchedLines | undefined;
/** Destinations with lines not yet written; the exit hook writes them. */
const unwritten = new Set<TurnBatchedLines>();
let exitHooked = false;

class TurnBatchedLines implements DestinationStream {
  #pending = '';
  readonly #fd: number;

  constructor(fd: number) {
    this.#fd = fd;
  }

  write(line: string): void {
    if (this.#pending === '') {
      setImmediate(() => this.flush());
      unwritten.add(this);
      if (!exitHooked) {
        exitHooked = true;
        process.once('exit', () => {
          for (const destination of unwritten) destination.flush();
        });
      }
    }
    this.#pending += line;
  }

  flush(): void {
    const lines = this.#pending;
    this.#pending = '';
    unwritten.delete(this);
    if (lines !== '') writeAll(this.#fd, lines);
  }
}

/**
 * Writes all of `text`: a pipe may take part of it, or none for a moment (EAGAIN), when its
 * reader is slow. A reader gone for good (EPIPE) or a full disk loses the lines rather than the
 * server.
 */
function writeAll(fd: number, text: string): void {
  // Encoded once (writing a string would encode it anyway, and its length in bytes is needed).
  let left = Buffer.from(text);
  for (let attempts = 0; left.length > 0 && attempts < 1_000; ) {
    try {
      // A part may be taken: go on from the byte it stopped at.
      left = left.subarray(writeSync(fd, left));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      attempts++;
      Atomics.wait(BACKOFF, 0, 0, 1); // 1 ms
    }
  }
}

const BACKOFF = new Int32Array(new SharedArrayBuffer(4));

/** pino's `,"time":"<ISO 8601>"`, made once per millisecond rather than once per line. */
function isoTime(): () => string {
  let at = Number.NaN;
  let field = '';
  return () => {
    const now = Date.now();
    if (now !== at) {
      at = now;
      field = `,"time":"${new Date(now).toISOString()}"`;
    }
    return field;
  };
}

/** An error as log fields: its message and stack (pino's `err` serializer does the same for `err`). */
export function errorFields(error: unknown): { err?: unknown } {
  if (error === undefined || error === null) return {};
  return { err: error instanceof Error ? error : { message: String(error) } };
}

/**
 * A destination that turns each JSON line into text for a person at a terminal
 * (`LOG_FORMAT=pretty`, the default when stdout is a terminal):
 * `11:36:56.933 INFO  request req_id=req_… method=POST path=/v1/conversations status=201 ms=6.8`,
 * an error's stack on the lines below. Written synchronously, like the JSON.
 */
export function prettyDestination(out: { write(text: string): unknown }): DestinationStream {
  return {
    write(line: string) {
      const { time, level, msg, err, ...fields } = JSON.parse(line) as Record<string, unknown> & { err?: { stack?: string; message?: string } };
      const clock = typeof time === 'string' ? time.slice(11, 23) : '';
      const rest = Object.entries(fields)
        .map(([key, value]) => ` ${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
        .join('');
      const stack = err ? `\n  ${(err.stack ?? err.message ?? '').replace(/\n/g, '\n  ')}` : '';
      out.write(`${clock} ${String(level).toUpperCase().padEnd(5)} ${String(msg ?? '')}${rest}${stack}\n`);
    },
  };
}
