/** How long after a failure `/health` reports the storage unavailable (unless a later call succeeds). */
const FAILURE_MEMORY_MS = 30_000;

/**
 * What a storage engine knows of its own health: the last call that failed for a reason of the
 * engine's (a full disk, a database that is down), forgotten once a later call succeeds or
 * {@link FAILURE_MEMORY_MS} pass. `problem()` is what `/health` reports.
 */
export class FailureMonitor {
  #failedAt = 0;
  #reason = '';
  #succeededAt = 0;

  failed(reason: string): void {
    this.#failedAt = Date.now();
    this.#reason = reason;
  }

  succeeded(): void {
    this.#succeededAt = Date.now();
  }

  /** The reason calls are failing, or undefined when they are not (as far as anyone has tried lately). */
  problem(): string | undefined {
    const recent = Date.now() - this.#failedAt < FAILURE_MEMORY_MS && this.#failedAt > this.#succeededAt;
    return recent ? this.#reason : undefined;
  }
}
