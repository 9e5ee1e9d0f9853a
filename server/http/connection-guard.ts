import type { Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';
import type { IdGenerator } from '../../core/index.js';
import type { Serializer } from '../edge/serializer.js';

export interface ConnectionGuardOptions {
  /** Open connections one client address may hold; 0: no cap. */
  maxPerAddress: number;
  /** A new connection must complete a request's headers within this time. */
  headersTimeoutMs: number;
  serializer: Serializer;
  ids: IdGenerator;
}

/** Time a request may take to arrive whole (headers and body) once it has started. */
const REQUEST_TIMEOUT_MS = 60_000;
/** How long a socket refused for a bad request head may keep draining before it is closed. */
const LINGER_MS = 2_000;

/**
 * Protections below the application, on the TCP connections themselves: a cap of open connections
 * per client address (many idle sockets from one address cannot exhaust file descriptors), a
 * deadline for a new connection's first request headers (silent or trickling clients are closed),
 * and JSON answers in the API's style for requests Node's parser refuses (431, 400, 408).
 */
export function guardConnections(server: HttpServer, options: ConnectionGuardOptions): void {
  const { maxPerAddress, headersTimeoutMs, serializer, ids } = options;
  server.headersTimeout = headersTimeoutMs;
  server.requestTimeout = Math.max(REQUEST_TIMEOUT_MS, headersTimeoutMs);
  const perAddress = new Map<string, number>();
  const waiting = new WeakMap<Socket, ReturnType<typeof setTimeout>>();

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const open = perAddress.get(address) ?? 0;
    if (maxPerAddress > 0 && open >= maxPerAddress) {
      socket.destroy();
      return;
    }
    perAddress.set(address, open + 1);
    const deadline = setTimeout(() => socket.destroy(), headersTimeoutMs);
    deadline.unref();
    waiting.set(socket, deadline);
    socket.once('close', () => {
      clearTimeout(deadline);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left <= 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
  });
  const started = (socket: Socket) => {
    clearTimeout(waiting.get(socket));
    waiting.delete(socket);
  };
  server.on('request', (req) => started(req.socket));
  server.on('upgrade', (req) => started(req.socket));

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, code, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'invalid_request', 'The request headers are larger than the server accepts']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'invalid_request', 'The request did not arrive in time']
          : [400, 'invalid_request', 'The request is not valid HTTP'];
    const body = JSON.stringify(serializer.error(code, message, ids.next('req')));
    // The client may still be sending the rest of an oversized head. Closing with unread bytes
    // makes the kernel answer with a reset, which can reach the client before the response does;
    // so read and drop what still comes, and close for good once the client does (or soon after).
    socket.on('data', () => {}).resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
    socket.end(
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
