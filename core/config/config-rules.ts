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
