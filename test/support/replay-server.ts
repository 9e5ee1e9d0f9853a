import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A local HTTP server that plays back a vendor's wire format: recorded fixture bytes, written in
 * the chunks a test chooses (so stream parsers meet awkward boundaries), and the failures real
 * vendors produce — error statuses, a connection reset mid-body, a server that never answers.
 */

/** One scripted answer. */
export interface ReplayResponse {
  status?: number;
  headers?: Record<string, string>;
  /** Body pieces, each written (and flushed) separately. */
  chunks?: readonly (string | Uint8Array)[];
  /** Pause between chunks, so each arrives in its own read; default 2 ms. */
  chunkDelayMs?: number;
  /**
   * `headers`: never answer at all; `body`: send the headers and chunks, then stay silent;
   * `reset`: send the headers and chunks, then destroy the connection.
   */
  fault?: 'headers' | 'body' | 'reset';
}

export interface RecordedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type ReplayScript = readonly ReplayResponse[] | ((request: RecordedRequest, index: number) => ReplayResponse);

export interface ReplayServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts a server answering the n-th request with `script[n]` (the last entry repeats). */
export async function startReplayServer(script: ReplayScript): Promise<ReplayServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    void answer(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const recorded: RecordedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body };
    const index = requests.push(recorded) - 1;
    const reply = typeof script === 'function' ? script(recorded, index) : script[Math.min(index, script.length - 1)];
    if (!reply) throw new Error('replay script is empty');
    if (reply.fault === 'headers') return;
    res.writeHead(reply.status ?? 200, reply.headers ?? {});
    res.flushHeaders();
    const delay = reply.chunkDelayMs ?? 2;
    for (const chunk of reply.chunks ?? []) {
      if (res.destroyed) return;
      res.write(chunk);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
    if (reply.fault === 'body') return;
    if (reply.fault === 'reset') {
      req.socket.resetAndDestroy();
      return;
    }
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Splits `data` into pieces of the given sizes (cycled), to cut a stream at awkward places. */
export function splitBytes(data: string | Uint8Array, sizes: readonly number[]): Uint8Array[] {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  const pieces: Uint8Array[] = [];
  for (let offset = 0, i = 0; offset < bytes.length; i++) {
    const size = Math.max(1, sizes[i % sizes.length]!);
    pieces.push(bytes.subarray(offset, offset + size));
    offset += size;
  }
  return pieces;
}
