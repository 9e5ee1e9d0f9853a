import compressible from 'compressible';
import compress from 'koa-compress';
import type { Context, Middleware } from 'koa';
import { PRECOMPRESSED } from '../precompress.js';
import type { PrecompressedEncoding } from '../precompress.js';

/**
 * Whether a response of this media type is worth compressing: text, JSON, JavaScript, SVG and VRM
 * (`model/gltf-binary`) are (mime-db's list, as koa-compress decides by default); MP3 and PNG are
 * already compressed. Server-Sent Events never are: a compressor holds bytes until its block
 * fills, and each event must reach the client when it is sent (the SSE writer also sends
 * `Cache-Control: no-transform`, which the middleware honours).
 */
export function compressibleType(type: string): boolean {
  return !/^text\/event-stream\b/i.test(type) && compressible(type) === true;
}

/**
 * gzip and brotli for compressible responses made per request (JSON, error bodies, files without
 * a current precompressed variant), with `Vary: Accept-Encoding` on every response. Static files
 * that have variants made at build (server/precompress.ts) are sent as such by `sendBlob` and pass
 * through untouched (brotli only; a gzip client gets them compressed here). Only br and gzip,
 * the two encodings every browser speaks, so a response's encoding does not change with the Node
 * version (Node 22 adds zstd).
 * Partial content (206), HEAD, 304 and responses under 1 KiB are left alone by koa-compress.
 */
export function compression(): Middleware {
  const compressing = compress({ filter: compressibleType, threshold: COMPRESSION_THRESHOLD, deflate: false, zstd: false });
  // Without Accept-Encoding the answer is identity whatever the response (API clients rarely send
  // one): skip the negotiation, keep the Vary header.
  return (ctx, next) => {
    if (ctx.get('accept-encoding') !== '') return compressing(ctx, next);
    ctx.vary('Accept-Encoding');
    return next();
  };
}

/** Responses smaller than this many bytes are sent uncompressed (a compressed frame would save little). */
export const COMPRESSION_THRESHOLD = 1024;

/**
 * How to send a body of `bytes` bytes already in memory (a cached JSON representation): brotli
 * whenever the client's Accept-Encoding allows it, else gzip if it does, else as is — the rule
 * of the precompressed static files; bodies under {@link COMPRESSION_THRESHOLD} as is.
 */
export function encodingFor(ctx: Context, bytes: number): 'br' | 'gzip' | undefined {
  if (bytes < COMPRESSION_THRESHOLD || ctx.get('accept-encoding') === '') return undefined;
  if (ctx.acceptsEncodings('br') === 'br') return 'br';
  return ctx.acceptsEncodings('gzip') === 'gzip' ? 'gzip' : undefined;
}

/**
 * Whether the client takes a compression the middleware applies (br or gzip): a compressible
 * response to it is then encoded, either from a precompressed variant or per request.
 */
export function acceptsCompression(ctx: Context): boolean {
  return (['br', 'gzip'] as const).some((encoding) => ctx.acceptsEncodings(encoding) === encoding);
}

/**
 * The encoding of a precompressed variant the client takes: brotli whenever its Accept-Encoding
 * allows it (browsers list it after gzip at the same weight); undefined for a client that does
 * not (no header means identity, as koa-compress reads it).
 */
export function acceptedPrecompressed(ctx: Context): PrecompressedEncoding | undefined {
  return PRECOMPRESSED.find(({ encoding }) => ctx.acceptsEncodings(encoding) === encoding)?.encoding;
}
