/**
 * A bounded map that forgets its least recently used entry when full, and (with `ttlMs`) every
 * entry older than that. The in-process read caches (API keys, conversation bodies) are built on it.
 *
 * Recency is kept by the Map's insertion order, approximately: moving an entry to the newest end
 * costs a delete and a set, so a hit moves it only once more than `maxEntries / 2` insertions
 * happened since it was last inserted or moved. A read entry is therefore kept for at least
 * `maxEntries / 2 - 1` further insertions, and the hottest entries (read on every request) are
 * not moved on every read.
 */
export class LruCache<K, V> {
  readonly #entries = new Map<K, { value: V; expiresAt: number; tick: number }>();
  /** Counts insertions (and moves to the end): an entry's distance from the newest. */
  #tick = 0;
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  readonly #now: () => number;

  /** `ttlMs`: Infinity keeps entries until they are pushed out or deleted. */
  constructor(options: { maxEntries: number; ttlMs?: number; now?: () => number }) {
    if (!Number.isInteger(options.maxEntries) || options.maxEntries < 1) throw new RangeError('maxEntries must be a positive integer');
    this.#maxEntries = options.maxEntries;
    this.#ttlMs = options.ttlMs ?? Infinity;
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    // Most recently used last: re-inserting moves it to the end of the Map's order.
    if (this.#tick - entry.tick > this.#maxEntries / 2) {
      this.#entries.delete(key);
      entry.tick = ++this.#tick;
      this.#entries.set(key, entry);
    }
    return entry.value;
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: this.#ttlMs === Infinity ? Infinity : this.#now() + this.#ttlMs, tick: ++this.#tick });
    if (this.#entries.size > this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value as K);
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
