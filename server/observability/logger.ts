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
 * Where JSON lines go: stdout unless a file descriptor or path is given, written synchronously —
 * a line is out when the call returns, whatever happens to the process next. (An asynchronous
 * destination, which batches lines, measured no cheaper per request here: bench/README.md,
 * api-throughput.)
 */
export function jsonDestination(dest: number | string = 1): DestinationStream {
  return pino.destination({ dest, sync: true });
}

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
