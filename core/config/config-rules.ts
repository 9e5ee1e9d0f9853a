/**
 * The rules a configuration value must follow, shared by every host: `createAvatarService` checks
 * its options with them, and the server checks its environment variables with the same functions,
 * so an embedding app and an operator read the same words. Each returns the problem (the part of
 * the message after the name of the option or variable) or `undefined` when the value is fine.
 */

/** Shortest HS256 secret accepted: long enough that it cannot be guessed offline from a token. */
export const MIN_SECRET_LENGTH = 32;

export function secretProblem(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return `is required: at least ${MIN_SECRET_LENGTH} random characters, e.g. openssl rand -base64 32`;
  if (typeof value !== 'string') return `must be a string, got ${typeof value}`;
  if (value.length < MIN_SECRET_LENGTH) return `must be at least ${MIN_SECRET_LENGTH} characters (got ${value.length}); e.g. openssl rand -base64 32`;
  return undefined;
}

export function absoluteUrlProblem(value: string): string | undefined {
  try {
    new URL(value);
    return undefined;
  } catch {
    return `must be an absolute URL, got '${value}'`;
  }
}

/** An engine or provider id that none of the registered ones has. */
export function unknownIdProblem(id: string, known: readonly string[]): string | undefined {
  return known.includes(id) ? undefined : `'${id}' is not one of ${known.join(', ')}`;
}

const RETENTION_UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };
/** Shortest retention: an hour, so a reply's audio is never swept while it is being played. */
export const MIN_RETENTION_MS = 3_600_000;

/** `30d`, `12h`, `90m` in milliseconds; undefined when it is not such a duration. */
export function parseRetention(value: string): number | undefined {
  const match = /^(\d+)(m|h|d)$/.exec(value.trim());
  return match ? Number(match[1]) * RETENTION_UNIT_MS[match[2]!]! : undefined;
}

/** A retention period (`AUDIO_RETENTION`, `CONVERSATION_RETENTION`, the core's `retention` option): a duration of at least an hour. */
export function retentionProblem(value: unknown): string | undefined {
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? parseRetention(value) : undefined;
  if (ms === undefined || !Number.isFinite(ms)) return `must be a duration like 30d, 12h or 90m (or off), got '${String(value)}'`;
  if (ms < MIN_RETENTION_MS) return `must be at least 1h, got '${String(value)}'`;
  return undefined;
}
