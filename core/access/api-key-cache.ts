import type { ApiKeyRecord } from '../ports/store.js';
import { LruCache } from '../util/lru-cache.js';

export interface ApiKeyCacheOptions {
  /** Keys kept (least recently used forgotten first). Default 10 000. */
  maxEntries?: number;
  /**
   * How long a key read from the store is trusted without reading it again: the bound on how
   * late a revocation made by **another process** is seen (one made through this process's
   * service is seen on the next request). Default 5 000 ms.
   */
  ttlMs?: number;
  now?: () => number;
}

/**
 * The principal cache: API key records by digest and by id, so authenticating a key (or a
 * session, which checks the key that minted it) reads the store at most once per `ttlMs`.
 *
 * Correctness: `AccountService.revokeApiKey` drops the key before it returns, so a revoked key is
 * refused on the very next request in this process. Several processes (scale-out) each have a
 * cache; until revocations travel between them, a key revoked through one is refused by the
 * others within `ttlMs`. {@link invalidate} is the hook for that: a pub/sub subscriber calls it
 * with the key id another process published (`AccountService.onKeyRevoked` is the publishing side).
 */
export class ApiKeyCache {
  readonly #byHash: LruCache<string, ApiKeyRecord>;
  /** Id → digest, to drop a key known by id. */
  readonly #hashOfId = new Map<string, string>();

  constructor(options: ApiKeyCacheOptions = {}) {
    this.#byHash = new LruCache({ maxEntries: options.maxEntries ?? 10_000, ttlMs: options.ttlMs ?? 5_000, ...(options.now && { now: options.now }) });
  }

  byHash(hash: string): ApiKeyRecord | undefined {
    return this.#byHash.get(hash);
  }

  byId(id: string): ApiKeyRecord | undefined {
    const hash = this.#hashOfId.get(id);
    if (hash === undefined) return undefined;
    const key = this.#byHash.get(hash);
    if (key === undefined) this.#hashOfId.delete(id);
    return key;
  }

  remember(key: ApiKeyRecord): void {
    this.#byHash.set(key.hash, key);
    this.#hashOfId.set(key.id, key.hash);
    // The id index follows the digest cache: it never holds more ids than the cache has room for.
    if (this.#hashOfId.size > 2 * this.#byHash.size + 1_000) {
      for (const [id, hash] of this.#hashOfId) if (this.#byHash.get(hash)?.id !== id) this.#hashOfId.delete(id);
    }
  }

  /** Forgets a key: the next request that presents it reads the store. */
  invalidate(keyId: string): void {
    const hash = this.#hashOfId.get(keyId);
    this.#hashOfId.delete(keyId);
    if (hash !== undefined) this.#byHash.delete(hash);
  }

  clear(): void {
    this.#byHash.clear();
    this.#hashOfId.clear();
  }
}
