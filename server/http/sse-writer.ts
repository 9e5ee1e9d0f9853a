import { PassThrough } from 'node:stream';
import type { Context } from 'koa';

const PING_INTERVAL_MS = 15_000;
/**
 * Bytes held for a client that does not read. A reply is a few hundred kilobytes at most, so a
 * reader this far behind has stopped: the connection is dropped (the reply is then cut off and
 * kept as `interrupted`, as when the client leaves) instead of buffering without bound.
 */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * Server-Sent Events on a Koa response: headers that keep proxies from buffering, `event:` /
 * `data:` frames (data split per line, event names checked for CR/LF), a `: ping` comment every
 * 15 s so idle connections stay open, a bounded buffer, and an idempotent `close`.
 */
export class SseWriter {
  readonly #stream = new PassThrough();
  readonly #ctx: Context;
  readonly #ping: ReturnType<typeof setInterval>;
  #closed = false;

  /** `onClose`: called once the response closes (finished or cut off), on the writer's own listener (a response has few to spare). */
  constructor(ctx: Context, onClose?: () => void) {
    this.#ctx = ctx;
    ctx.req.socket.setNoDelay(true);
    ctx.req.socket.setTimeout(0);
    ctx.status = 200;
    ctx.set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    ctx.body = this.#stream;
    this.#ping = setInterval(() => this.comment('ping'), PING_INTERVAL_MS);
    this.#ping.unref();
    ctx.res.once('close', () => {
      this.close();
      onClose?.();
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  send(event: string, data: unknown): void {
    if (/[\r\n]/.test(event)) throw new Error('SSE event names cannot contain line breaks');
    const lines = JSON.stringify(data).split(/\r\n|\r|\n/).map((line) => `data: ${line}\n`).join('');
    this.#write(`event: ${event}\n${lines}\n`);
  }

  comment(text: string): void {
    this.#write(`: ${text.replace(/[\r\n]+/g, ' ')}\n\n`);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#ping);
    this.#stream.end();
  }

  #write(text: string): void {
    if (this.#closed) return;
    if (this.#stream.readableLength + this.#stream.writableLength > MAX_BUFFERED_BYTES) {
      this.close();
      this.#ctx.res.destroy();
      return;
    }
    this.#stream.write(text);
  }
}
