import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProviderError } from '../../../core/errors.js';
import type { FetchFunction } from '../../../core/vendor-http/http-settings.js';
import { resolveHttpSettings } from '../../../core/vendor-http/http-settings.js';
import { openVendorStream } from '../../../core/vendor-http/open-vendor-stream.js';
import type { VendorErrorParser } from '../../../core/vendor-http/vendor-errors.js';
import { fakeSchedule, settle } from './fake-timers.js';

const request = { url: 'https://vendor.test/v1/chat', headers: { authorization: 'Bearer secret-key-1' }, body: '{"q":1}' };
const parseError: VendorErrorParser = (body) => {
  const parsed = JSON.parse(body) as { error?: { type?: string; message?: string } };
  return parsed.error ? { ...parsed.error } : undefined;
};

/** A fetch that never answers on its own: it settles only when its signal aborts. */
const hangingFetch: FetchFunction = (_url, init) =>
  new Promise((_, reject) => {
    init.signal?.addEventListener('abort', () => reject(new DOMException('This operation was aborted', 'AbortError')));
  });

function open(fetch: FetchFunction, controller = new AbortController(), timers = fakeSchedule()) {
  const http = resolveHttpSettings({ fetch, schedule: timers.schedule, now: () => Date.parse('2026-01-01T00:00:00Z') });
  return openVendorStream({ provider: 'acme', http, request, controller, parseError, secrets: ['secret-key-1'], requestIdHeader: 'x-request-id' });
}

describe('openVendorStream', () => {
  it('POSTs the request and returns the body, disarming the connect timer once headers arrive', async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const timers = fakeSchedule();
    const body = await open(
      async (url, init) => {
        seen.push({ url, init });
        return new Response('data: x\n\n', { status: 200 });
      },
      undefined,
      timers,
    );
    assert.equal(seen[0]?.url, request.url);
    assert.equal(seen[0]?.init.method, 'POST');
    assert.equal(seen[0]?.init.body, request.body);
    assert.deepEqual(seen[0]?.init.headers, request.headers);
    assert.equal(timers.timers[0]?.ms, 10_000);
    assert.equal(timers.timers[0]?.cancelled, true);
    let text = '';
    for await (const chunk of body) text += new TextDecoder().decode(chunk);
    assert.equal(text, 'data: x\n\n');
  });

  it('fails with a retryable connect timeout when no headers arrive, aborting the request', async () => {
    const timers = fakeSchedule();
    const controller = new AbortController();
    const opening = open(hangingFetch, controller, timers);
    await settle();
    timers.active()[0]!.fire();
    await assert.rejects(opening, (error: unknown) => {
      assert.ok(error instanceof ProviderError);
      assert.equal(error.message, 'acme: no response headers within 10000 ms (connect timeout)');
      assert.equal(error.isRetryable, true);
      return true;
    });
    assert.equal(controller.signal.aborted, true);
  });

  it('throws an AbortError when the caller aborts while connecting, or before', async () => {
    const controller = new AbortController();
    const opening = open(hangingFetch, controller);
    controller.abort();
    await assert.rejects(opening, { name: 'AbortError' });
    await assert.rejects(open(hangingFetch, controller), { name: 'AbortError' });
  });

  it('reports a refused connection as a retryable network error naming the cause', async () => {
    const refused: FetchFunction = async () => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) });
    };
    await assert.rejects(open(refused), (error: unknown) => {
      assert.ok(error instanceof ProviderError);
      assert.equal(error.message, 'acme: could not reach the vendor: fetch failed: connect ECONNREFUSED 127.0.0.1:9 (ECONNREFUSED)');
      assert.equal(error.isRetryable, true);
      assert.ok(error.cause instanceof TypeError, 'a cause without secrets is kept for debugging');
      return true;
    });
  });

  it('maps a non-2xx response to a provider error with the vendor detail, request id and Retry-After', async () => {
    const limited: FetchFunction = async () =>
      new Response(JSON.stringify({ error: { type: 'rate_limit', message: 'Slow down, secret-key-1' } }), {
        status: 429,
        headers: { 'retry-after': '4', 'x-request-id': 'req_9' },
      });
    await assert.rejects(open(limited), (error: unknown) => {
      assert.ok(error instanceof ProviderError);
      assert.equal(error.message, 'acme: HTTP 429 rate_limit: Slow down, [redacted] (request id req_9)');
      assert.equal(error.vendorStatus, 429);
      assert.equal(error.retryAfterS, 4);
      assert.equal(error.isRetryable, true);
      return true;
    });
  });

  it('still reports the status when the error body is not the vendor format', async () => {
    const html: FetchFunction = async () => new Response('<html><body>502 Bad Gateway</body></html>', { status: 502 });
    await assert.rejects(open(html), { message: 'acme: HTTP 502: <html><body>502 Bad Gateway</body></html>' });
    const empty: FetchFunction = async () => new Response(null, { status: 503 });
    await assert.rejects(open(empty), { message: 'acme: HTTP 503' });
  });
});
