import { ServiceError } from '../errors.js';

/**
 * Runs a Redis command; a failure (Redis unreachable, a command refused) becomes 503
 * `unavailable` with a retry delay, so a request meeting it is refused rather than let through
 * unlimited, and the caller is told to come back.
 */
export async function orUnavailable<T>(what: string, command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (error) {
    throw new ServiceError('unavailable', `${what} is temporarily unavailable; try again shortly`, { cause: error, retryAfterS: 5 });
  }
}
