import type { Context } from 'koa';
import type { ReplyEvent, WireError } from '../../core/index.js';
import { toWire } from '../edge/reply-wire.js';
import { SseWriter } from './sse-writer.js';
import type { UrlBuilder } from '../edge/urls.js';
import type { ReconnectHint } from '../edge/connection-gate.js';

/** A reply streaming as SSE. */
export interface SseReply {
  /** Ends the stream early with an `error` event (e.g. the credential was revoked). */
  fail(error: WireError): void;
  /** Ends the stream with a `reconnect` event: the server is stopping, connect again (to another node). */
  reconnect(hint: ReconnectHint): void;
}

/**
 * Streams a reply as SSE exactly as the specification names the events: `message`, `audio`,
 * `done`, `error`, and `reconnect` when the server stops mid-reply (state changes are left to realtime transports). Returns at once; the stream
 * closes after the last event or when the client leaves (which aborts the reply upstream).
 */
export function streamReplyAsSse(ctx: Context, events: AsyncIterable<ReplyEvent>, urls: UrlBuilder, onClose?: () => void): SseReply {
  const sse = new SseWriter(ctx, onClose);
  void (async () => {
    try {
      for await (const event of events) {
        if (event.type === 'state') continue;
        const wire = toWire(event, urls);
        sse.send(wire.type, wire.data);
      }
    } catch {
      sse.send('error', { error: { code: 'internal_error', message: 'The stream failed' } });
    } finally {
      sse.close();
    }
  })();
  return {
    fail(error) {
      sse.send('error', error);
      sse.close();
    },
    reconnect(hint) {
      sse.send('reconnect', hint);
      sse.close();
    },
  };
}
