/**
 * The webhook receiver of bench/webhook-delivery.ts, run there as a forked child process. It
 * listens on `ports` loopback ports (so several webhooks are several receivers, as in production)
 * and checks every request the way docs/webhooks.md tells receivers to: `x-service-signature` is
 * the lowercase hex HMAC-SHA256 of the raw body bytes, compared in constant time. The secret of
 * `/hooks/<i>` is `<secret>-<i>`. It answers 200 to a valid signature and 401 otherwise, and
 * counts both, and the distinct event ids seen.
 *
 * IPC: sends `{ ports }` when listening; answers `'reset'` with `{ reset: true }` (counts zeroed)
 * and `'report'` with a {@link ReceiverReport}.
 *
 *   node dist/bench/support/webhook-bench-receiver.js <secret> <ports>   (forked, never by hand)
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceiverReport {
  verified: number;
  failed: number;
  /** Distinct `x-service-event-id` values among verified requests. */
  distinct: number;
}

const secret = process.argv[2] ?? '';
const portCount = Number(process.argv[3] ?? '1');
const keys = new Map<string, Buffer>();
let verified = 0;
let failed = 0;
let seen = new Set<string>();

function keyOf(url: string | undefined): Buffer | undefined {
  const match = /^\/hooks\/(\d+)$/.exec(url ?? '');
  if (!match) return undefined;
  let key = keys.get(match[1]!);
  if (!key) keys.set(match[1]!, (key = Buffer.from(`${secret}-${match[1]}`, 'utf8')));
  return key;
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const key = keyOf(req.url);
    const header = String(req.headers['x-service-signature'] ?? '');
    let ok = false;
    if (key && /^[0-9a-f]{64}$/.test(header)) {
      const expected = createHmac('sha256', key).update(Buffer.concat(chunks)).digest();
      ok = timingSafeEqual(Buffer.from(header, 'hex'), expected);
    }
    if (ok) {
      verified++;
      seen.add(String(req.headers['x-service-event-id']));
    } else failed++;
    res.writeHead(ok ? 200 : 401).end();
  });
});
server.keepAliveTimeout = 60_000;

const ports: number[] = [];
for (let i = 0; i < portCount; i++) {
  const listener = i === 0 ? server : createServer(server.listeners('request')[0] as Parameters<typeof createServer>[1]);
  listener.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  ports.push((listener.address() as AddressInfo).port);
}
process.on('message', (message) => {
  if (message === 'reset') {
    verified = 0;
    failed = 0;
    seen = new Set();
    process.send!({ reset: true });
  } else if (message === 'report') {
    process.send!({ verified, failed, distinct: seen.size } satisfies ReceiverReport);
  }
});
process.on('disconnect', () => process.exit(0));
process.send!({ ports });
