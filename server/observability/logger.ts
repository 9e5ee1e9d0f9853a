import { pino } from 'pino';
import type { DestinationStream, Logger } from 'pino';
import type { LogLevel } from '../config.js';

export type { Logger };

/**
 * The server's log: one JSON object per line (`time` ISO 8601, `level` by name, `msg`, and the
 * fields of the line, e.g. `req_id` on request lines), on stdout unless `destination` is given.
 * Parts of the server log through children that add `component`.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: null,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** An error as log fields: its message and stack (pino's `err` serializer does the same for `err`). */
export function errorFields(error: unknown): { err?: unknown } {
  if (error === undefined || error === null) return {};
  return { err: error instanceof Error ? error : { message: String(error) } };
}
