import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedEvent {
  headers: IncomingHttpHeaders;
  raw: string;
  body: { id: string; type: string; timestamp: string; data: Record<string, unknown> };
  /** The x-service-signature header matched the HMAC of the raw body with the secret. */
  verified: boolean;
  /** `clock()` when the request arrived. */
  at: number;
}

export interface ReceiverOptions {
  secret: string;
  /** Time source recorded per request (a test's manual clock); Date.now by default. */
  clock?: () => number;
  /**
   * How to answer the n-th request (0-based): a status, or a function that answers itself (hang,
   * redirect, huge body). 200 by default. Answers 401 whatever this says if the signature is wrong,
   * as a receiver must.
   */
  respond?: (n: number, event: ReceivedEvent, res: ServerResponse) => number | 'handled';
}

/**
 * A webhook receiver on loopback that checks every signature the way docs/webhooks.md tells
 * receivers to (HMAC-SHA256 of the raw body, compared in constant time) and records what came.
 */
export async function startReceiver(options: ReceiverOptions) {
  const received: ReceivedEvent[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const expected = createHmac('sha256', options.secret).update(raw).digest();
      const given = Buffer.from(String(req.headers['x-service-signature'] ?? ''), 'hex');
      const verified = given.length === expected.length && timingSafeEqual(given, expected);
      const event: ReceivedEvent = { headers: req.headers, raw, body: JSON.parse(raw), verified, at: (options.clock ?? Date.now)() };
      const n = received.length;
      received.push(event);
      for (const wake of waiters) wake();
      if (!verified) {
        res.writeHead(401).end();
        return;
      }
      const answer = options.respond ? options.respond(n, event, res) : 200;
      if (answer !== 'handled') res.writeHead(answer).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    received,
    /** Events of one type, in arrival order. */
    ofType: (type: string) => received.filter((event) => event.body.type === type),
    /** Resolves once `predicate` holds of what was received (checked on every arrival). */
    async waitFor(predicate: (events: ReceivedEvent[]) => boolean, timeoutMs = 10_000): Promise<void> {
      if (predicate(received)) return;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver: condition not met within ${timeoutMs} ms; got ${received.map((e) => e.body.type).join(', ') || 'nothing'}`));
        }, timeoutMs);
        const check = () => {
          if (!predicate(received)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
