import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createUnzip } from 'node:zlib';
import type { Context, Middleware, Next } from 'koa';
import { ErrorCode, ServiceError } from '../../core/index.js';

/** The methods whose JSON bodies are read; a body on any other method is left unread. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** Whitespace JSON allows, then the first character of an object or an array. */
const OBJECT_OR_ARRAY = /^[\x20\x09\x0a\x0d]*[[{]/;

/**
 * The body parser of a JSON route: an `application/json` body of POST, PUT or PATCH becomes
 * `ctx.state.body`. The body is decoded as its `Content-Encoding` says (`identity`, `gzip`,
 * `deflate`, `br`; another is 415) and read as UTF-8 up to `limitBytes` decoded bytes (413 past
 * them, refused from `Content-Length` before reading when it says so). Strict JSON: an empty body
 * is `{}`, the top level must be an object or an array, and a `__proto__` key anywhere is refused
 * (400), so nothing downstream can copy it onto a prototype. Other requests leave
 * `ctx.state.body` unset. A body the decoder cannot decode fails with zlib's error, which the
 * route's mounting words as a 400.
 */
export function jsonBody(limitBytes: number): Middleware {
  return async (ctx: Context, next: Next) => {
    if (BODY_METHODS.has(ctx.method) && ctx.is('application/json')) {
      ctx.state.body = parseStrict(await readText(ctx.req, limitBytes));
    }
    await next();
  };
}

/** A `"__proto__"` key, any of its letters possibly written as a `\u` escape. */
const PROTO_KEY = /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;

function parseStrict(text: string): unknown {
  if (text === '') return {};
  if (!OBJECT_OR_ARRAY.test(text)) throw new ServiceError(ErrorCode.invalidRequest, 'The request body must be a JSON object');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ServiceError(ErrorCode.invalidRequest, 'The request body is not valid JSON');
  }
  if (PROTO_KEY.test(text) && hasPrototypeKey(value)) {
    throw new ServiceError(ErrorCode.invalidRequest, 'The request body must not contain a "__proto__" key');
  }
  return value;
}

/** Whether any object in `value` has an own `__proto__` key; a walk without recursion, for any depth. */
function hasPrototypeKey(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object') continue;
    if (Object.hasOwn(item, '__proto__')) return true;
    for (const child of Object.values(item)) stack.push(child);
  }
  return false;
}

function tooLarge(limitBytes: number): ServiceError {
  const limit = limitBytes % (1024 * 1024) === 0 ? `${limitBytes / 1024 / 1024} MiB` : `${limitBytes} bytes`;
  return new ServiceError(ErrorCode.payloadTooLarge, `The request body is larger than the limit of ${limit}`);
}

/** The request body, decoded and as text, or the refusal that stopped reading it. */
function readText(request: IncomingMessage, limitBytes: number): Promise<string> {
  const coding = request.headers['content-encoding'] ?? 'identity';
  let decoder: Transform | undefined;
  switch (coding) {
    case 'identity':
      if (Number(request.headers['content-length'] ?? 0) > limitBytes) return Promise.reject(tooLarge(limitBytes));
      break;
    case 'gzip':
    case 'deflate':
      decoder = createUnzip();
      break;
    case 'br':
      decoder = createBrotliDecompress();
      break;
    default:
      return Promise.reject(new ServiceError(ErrorCode.unsupportedMediaType, `Content-Encoding ${coding} is not supported: send the body as is, or in gzip, deflate or br`));
  }
  const source: Readable = decoder ? request.pipe(decoder) : request;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = (error: unknown) => {
      cleanup();
      // Read no more of the body (as raw-body does: the request is paused), and end the decoder
      // so nothing it still holds can surface later as an error nobody listens to.
      if (decoder) {
        request.unpipe(decoder);
        decoder.on('error', () => undefined).destroy();
      }
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limitBytes) stop(tooLarge(limitBytes));
      else chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      const text = Buffer.concat(chunks).toString('utf8');
      resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    };
    // A client that goes away mid-body: `aborted`, then (Node 16+) an `error` on the request.
    const onAborted = () => stop(new ServiceError(ErrorCode.invalidRequest, 'The request ended before its body was complete'));
    const cleanup = () => {
      source.off('data', onData).off('end', onEnd).off('error', stop);
      request.off('aborted', onAborted).off('error', onAborted);
    };
    source.on('data', onData).on('end', onEnd).on('error', stop);
    request.on('aborted', onAborted).on('error', onAborted);
  });
}
