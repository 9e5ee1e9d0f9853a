import { hash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Owner } from '../../core/index.js';
import { LruCache } from '../../core/index.js';
import type { Serializer } from './serializer.js';

/**
 * A resource already serialized in the response style, with its entity tag: what a route returns
 * instead of a resource when the response can be cached or answered with 304 (server/http/
 * mount-routes.ts sends it through the serializer's `successJson`).
 *
 * The tag is weak (`W/"…"`): it names the resource's content (a digest of its JSON), not the
 * bytes on the wire, which differ by request id in the envelope style and by compression. Being
 * a digest, it is the same in every process and for every cache state: a 304 is never wrong.
 */
export class JsonRepresentation {
  #encoded: Partial<Record<JsonEncoding, Promise<Buffer>>> = {};
  #byteLength: number | undefined;

  constructor(
    readonly json: string,
    readonly etag: string,
  ) {}

  /**
   * The JSON's length in UTF-8 bytes (its `Content-Length`), counted on first use and kept: a
   * cached read is counted once. (Keeping the encoded bytes instead saved a cached read ≈ 1 µs
   * but cost every uncached read ≈ 5 µs more than counting and letting the socket encode.)
   */
  get byteLength(): number {
    return (this.#byteLength ??= Buffer.byteLength(this.json));
  }

  /**
   * The JSON compressed with `encoding`, made on first use (in libuv's thread pool, off the event
   * loop) and kept with the representation: a cached read is compressed once, not once per
   * request. Brotli at quality 4 and gzip at zlib's default level, as the compression middleware
   * does for other responses.
   */
  encoded(encoding: JsonEncoding): Promise<Buffer> {
    let compressed = this.#encoded[encoding];
    if (compressed === undefined) {
      const made = encoding === 'br' ? compressBrotli(this.json, BROTLI_OPTIONS) : compressGzip(this.json);
      // A failure is not kept: the next request tries again.
      made.catch(() => {
        if (this.#encoded[encoding] === made) delete this.#encoded[encoding];
      });
      this.#encoded[encoding] = compressed = made;
    }
    return compressed;
  }

  static of(serializer: Serializer, resource: unknown): JsonRepresentation {
    const json = serializer.resourceJson(resource);
    return new JsonRepresentation(json, `W/"${hash('sha1', json, 'base64url')}"`);
  }

  /** Whether an `If-None-Match` header names this representation (weak comparison, RFC 9110 §13.1.2). */
  matches(ifNoneMatch: string): boolean {
    if (ifNoneMatch.trim() === '*') return true;
    const opaque = this.etag.slice(2);
    for (const tag of ifNoneMatch.split(',')) {
      const trimmed = tag.trim();
      if ((trimmed.startsWith('W/') ? trimmed.slice(2) : trimmed) === opaque) return true;
    }
    return false;
  }
}

/** The compressions a {@link JsonRepresentation} is sent with. */
export type JsonEncoding = 'br' | 'gzip';

const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };
const compressBrotli = promisify(brotliCompress);
const compressGzip = promisify(gzip);

interface Entry {
  version: number;
  accountId: string;
  mode: string;
  representation: JsonRepresentation;
}

/**
 * Conversation reads served from their serialized body, keyed by the conversation's version
 * (core `ConversationVersions`: every write to the conversation or its messages through this
 * process changes it, so a cached body is never served after a write here). The owner is kept
 * with the body and checked on every hit, exactly as the store's read checks it. Bounded: at
 * most `maxEntries` bodies, each trusted for `ttlMs` — the bound on how late a write by another
 * process is seen, until those travel between processes (`ConversationVersions.invalidate`).
 */
export class ConversationReadCache {
  readonly #entries: LruCache<string, Entry>;
  readonly #serializer: Serializer;
  readonly #versionOf: (conversationId: string) => number;

  constructor(options: { serializer: Serializer; versionOf: (conversationId: string) => number; maxEntries?: number; ttlMs: number; now?: () => number }) {
    this.#serializer = options.serializer;
    this.#versionOf = options.versionOf;
    this.#entries = new LruCache({ maxEntries: options.maxEntries ?? 2_000, ttlMs: options.ttlMs, ...(options.now && { now: options.now }) });
  }

  /** The conversation's representation for `owner`: cached if current, else from `load` (which throws 404 and the like). */
  async read(owner: Owner, conversationId: string, load: () => Promise<unknown>): Promise<JsonRepresentation> {
    // The version is taken before reading: a write during the read makes this entry stale at once.
    const version = this.#versionOf(conversationId);
    const hit = this.#current(owner, conversationId, version);
    if (hit) return hit;
    const representation = JsonRepresentation.of(this.#serializer, await load());
    this.#entries.set(conversationId, { version, accountId: owner.accountId, mode: owner.mode, representation });
    return representation;
  }

  #current(owner: Owner, conversationId: string, version: number): JsonRepresentation | undefined {
    const hit = this.#entries.get(conversationId);
    return hit && hit.version === version && hit.accountId === owner.accountId && hit.mode === owner.mode ? hit.representation : undefined;
  }
}
