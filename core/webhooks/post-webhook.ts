import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { ReceiverPolicy } from './address-policy.js';
import { isIP } from 'node:net';
import { connectedAddressReason, forbiddenAddressReason, guardedLookup } from './address-policy.js';

/** How much of a receiver's answer is read; the rest is dropped (a receiver must not make us buffer). */
export const RESPONSE_BODY_LIMIT = 64 * 1024;

export interface WebhookRequest {
  url: string;
  body: string;
  secret: string;
  eventId: string;
  eventType: string;
  /** 1 for the first attempt. */
  attempt: number;
}

export interface WebhookResponse {
  /** The receiver's HTTP status; undefined when none came (refused, timed out, forbidden address). */
  status: number | undefined;
  /** Why the attempt failed, in words for the owner; undefined on a 2xx. */
  error: string | undefined;
  durationMs: number;
}

/** Lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the webhook's secret. */
export function signWebhookBody(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

export interface WebhookPosterSettings {
  policy: ReceiverPolicy;
  /** Time allowed to open the connection (and TLS). */
  connectTimeoutMs: number;
  /** Time allowed for the whole attempt, from start to the last byte read. */
  timeoutMs: number;
  userAgent?: string;
}

/**
 * Posts signed events to receivers (docs/webhooks.md, Delivery and Receiver addresses). Redirects
 * are not followed (a 3xx is a failed attempt); the address connected to is checked against the
 * policy at connect time, after DNS, so a name cannot be re-pointed between check and use.
 * Connections are kept alive per receiver, since one receiver usually gets many events.
 */
export class WebhookPoster {
  readonly #settings: WebhookPosterSettings;
  readonly #http: http.Agent;
  readonly #https: https.Agent;
  readonly #lookup: ReturnType<typeof guardedLookup>;

  constructor(settings: WebhookPosterSettings) {
    this.#settings = settings;
    this.#lookup = guardedLookup(settings.policy);
    const agentOptions = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16 };
    this.#http = new http.Agent(agentOptions);
    this.#https = new https.Agent(agentOptions);
  }

  post(request: WebhookRequest): Promise<WebhookResponse> {
    const { policy, connectTimeoutMs, timeoutMs, userAgent = 'avatar-service-webhooks' } = this.#settings;
    const started = performance.now();
    const url = new URL(request.url);
    const secure = url.protocol === 'https:';
    const body = Buffer.from(request.body, 'utf8');
    const refusal = this.#refusal(url);
    if (refusal) return Promise.resolve({ status: undefined, error: refusal, durationMs: 0 });
    return new Promise<WebhookResponse>((resolve) => {
      let settled = false;
      const finish = (status: number | undefined, error: string | undefined) => {
        if (settled) return;
        settled = true;
        clearTimeout(total);
        resolve({ status, error, durationMs: Math.round(performance.now() - started) });
      };
      const fail = (message: string) => {
        finish(undefined, message);
        req.destroy();
      };
      const req = (secure ? https : http).request(url, {
        method: 'POST',
        agent: secure ? this.#https : this.#http,
        lookup: this.#lookup,
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          'user-agent': userAgent,
          'x-service-signature': signWebhookBody(request.secret, request.body),
          'x-service-event-id': request.eventId,
          'x-service-event-type': request.eventType,
          'x-service-delivery-attempt': String(request.attempt),
        },
      });
      const total = setTimeout(() => fail(`no answer within ${timeoutMs} ms`), timeoutMs);
      req.on('socket', (socket) => {
        const check = () => {
          const reason = connectedAddressReason(socket.remoteAddress, policy);
          if (reason) fail(`the receiver's address ${socket.remoteAddress ?? '(unknown)'} is not allowed (${reason})`);
        };
        if (!socket.connecting) return check();
        const connectTimer = setTimeout(() => fail(`could not connect within ${connectTimeoutMs} ms`), connectTimeoutMs);
        socket.once(secure ? 'secureConnect' : 'connect', () => {
          clearTimeout(connectTimer);
          check();
        });
        socket.once('close', () => clearTimeout(connectTimer));
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        const reason = error.code === 'ERR_WEBHOOK_FORBIDDEN_ADDRESS' ? error.message : `${error.code ?? 'error'}: ${error.message}`;
        finish(undefined, reason);
      });
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          // Enough read: the socket is dropped rather than drained, and not reused.
          if (read > RESPONSE_BODY_LIMIT) {
            res.destroy();
            done();
          }
        });
        const done = () => finish(status, status >= 200 && status < 300 ? undefined : `the receiver answered ${status}`);
        res.on('end', done);
        res.on('error', done);
        res.on('close', done);
      });
      req.end(body);
    });
  }

  /**
   * What the policy refuses before any connection: plain http, and IP-literal hosts (Node connects to
   * those without a lookup). Names are checked by the lookup, on the addresses connected to.
   */
  #refusal(url: URL): string | undefined {
    if (this.#settings.policy.allowInsecure) return undefined;
    if (url.protocol !== 'https:') return 'the receiver URL must use https';
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const reason = isIP(host) ? forbiddenAddressReason(host) : undefined;
    return reason && `the receiver's address ${host} is not allowed (${reason})`;
  }

  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}
