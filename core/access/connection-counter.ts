/** A held connection slot; `release` is idempotent, so every close path may call it. */
export interface ConnectionLease {
  release(): void;
}

/**
 * Counts open long-lived connections (SSE streams, sockets) per key. `acquire` returns undefined
 * when `max` are already open.
 */
export interface ConnectionCounter {
  acquire(key: string, max: number): Promise<ConnectionLease | undefined>;
  count(key: string): Promise<number>;
}

export class MemoryConnectionCounter implements ConnectionCounter {
  readonly #open = new Map<string, number>();

  async acquire(key: string, max: number): Promise<ConnectionLease | undefined> {
    const current = this.#open.get(key) ?? 0;
    if (current >= max) return undefined;
    this.#open.set(key, current + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const left = (this.#open.get(key) ?? 1) - 1;
        if (left <= 0) this.#open.delete(key);
        else this.#open.set(key, left);
      },
    };
  }

  async count(key: string): Promise<number> {
    return this.#open.get(key) ?? 0;
  }
}
