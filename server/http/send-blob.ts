import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { BlobInfo, BlobStore } from '../../core/index.js';
import { NotFoundError, ServiceError, isValidBlobKey } from '../../core/index.js';
import { PRECOMPRESSED, isCurrentVariant } from '../precompress.js';
import type { PrecompressedEncoding } from '../precompress.js';
import { acceptedPrecompressed, acceptsCompression, compressibleType } from './compression.js';

export interface SendBlobOptions {
  contentType: string;
  cacheControl: string;
  /**
   * The store may hold variants made at build (`<key>.br`, server/precompress.ts): a client that
   * accepts one gets it as is, so static files are not compressed per request.
   */
  precompressed?: boolean;
}

/**
 * Serves a blob with HTTP caching and single byte ranges: ETag / If-None-Match → 304,
 * `Range: bytes=a-b` → 206 with Content-Range, an unsatisfiable range → 416 (a JSON error). Unknown or
 * malformed keys are 404: a key is never turned into a path before it is validated.
 *
 * ETags are strong and name the representation: `"<size>-<mtime>"` for the file as stored,
 * `"<size>-<mtime>-br"` for its brotli variant, and so on. A compressible file without a current
 * variant is compressed on the fly by the compression middleware, whose output is not
 * byte-for-byte stable: its ETag is then weak (`W/"…"`), which still answers If-None-Match.
 * Ranges always address the stored bytes, so a Range request is answered from them uncompressed.
 */
export async function sendBlob(ctx: Context, blobs: BlobStore, key: string, options: SendBlobOptions): Promise<void> {
  const info = isValidBlobKey(key) ? await blobs.stat(key) : undefined;
  if (!info) throw new NotFoundError('file', key);
  const range = parseRange(ctx.get('range'), info.size);
  if (range === 'unsatisfiable') {
    // An error like any other (JSON in the API's style), with the size the client can ask within.
    ctx.set('Content-Range', `bytes */${info.size}`);
    throw new ServiceError('range_not_satisfiable', `The range ${ctx.get('range')} is outside the file's ${info.size} bytes`);
  }
  const identity = `${info.size.toString(16)}-${Math.floor(info.modifiedAt).toString(16)}`;
  // Encoded when the client takes br or gzip: from a variant made at build when there is a current
  // one in an encoding it takes, else per request by the compression middleware.
  const encoded = !range && compressibleType(options.contentType) && acceptsCompression(ctx);
  const wanted = encoded ? acceptedPrecompressed(ctx) : undefined;
  const variant = wanted && options.precompressed ? await currentVariant(blobs, key, info, wanted) : undefined;
  const etag = variant ? `"${identity}-${variant.encoding}"` : encoded ? `W/"${identity}"` : `"${identity}"`;
  ctx.set({
    'Content-Type': options.contentType,
    'Cache-Control': options.cacheControl,
    'Accept-Ranges': 'bytes',
    ETag: etag,
    'Last-Modified': new Date(info.modifiedAt).toUTCString(),
  });
  if (matchesIfNoneMatch(ctx.get('if-none-match'), etag)) {
    ctx.status = 304;
    return;
  }
  if (variant) {
    ctx.status = 200;
    ctx.set('Content-Encoding', variant.encoding);
    ctx.length = variant.size;
  } else if (range) {
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
    ctx.length = range.end - range.start + 1;
  } else {
    ctx.status = 200;
    ctx.length = info.size;
  }
  // HEAD: the headers of GET and no body (a `null` body would turn the status into 204).
  if (ctx.method !== 'HEAD') ctx.body = Readable.from(blobs.read(variant?.key ?? key, range ?? undefined));
}

/** The stored variant of `key` in `encoding`, when there is one made from the current file. */
async function currentVariant(blobs: BlobStore, key: string, source: BlobInfo, encoding: PrecompressedEncoding) {
  const variantKey = key + PRECOMPRESSED.find((p) => p.encoding === encoding)!.suffix;
  const info = isValidBlobKey(variantKey) ? await blobs.stat(variantKey) : undefined;
  return info && isCurrentVariant(source.modifiedAt, info.modifiedAt) ? { key: variantKey, encoding, size: info.size } : undefined;
}

/** If-None-Match: `*` or a list of tags, compared weakly (RFC 9110 §13.1.2). */
function matchesIfNoneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/** One `bytes=` range (suffix and open-ended forms included); multiple ranges fall back to the whole file. */
function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    // `bytes=5-2` is not a range at all (RFC 9110 §14.1.1): ignored, the whole file is sent.
    if (match[2] !== '' && Number(match[2]) < start) return undefined;
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}
