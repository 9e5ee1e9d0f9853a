import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  describeCause,
  isRetryableStatus,
  networkProviderError,
  providerErrorFromResponse,
  providerErrorFromStream,
} from '../../../core/vendor-http/vendor-errors.js';

const base = { provider: 'acme', headers: new Headers(), secrets: ['s3cr3t-key'], now: 0 };
const jsonParser = (body: string) => JSON.parse(body) as { type?: string; message?: string; isRetryable?: boolean; retryAfterMs?: number };

describe('vendor errors', () => {
  it('retries 408, 429 and every 5xx (including 529 overloaded), nothing else', () => {
    assert.deepEqual(
      [400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503, 529].map(isRetryableStatus),
      [false, false, false, false, true, false, false, true, true, true, true, true],
    );
  });

  it('adds an operator hint to 401, 403 and 404', () => {
    const error = providerErrorFromResponse({ ...base, status: 404, body: '{"message":"no such model"}', parseError: jsonParser });
    assert.equal(error.message, 'acme: HTTP 404: no such model (check the model id and the base URL)');
    assert.equal(error.code, 'provider_error');
    assert.equal(error.status, 502);
  });

  it('lets the body override retryability and supply the wait', () => {
    const quota = providerErrorFromResponse({ ...base, status: 429, body: '{"isRetryable":false}', parseError: jsonParser });
    assert.equal(quota.isRetryable, false);
    const wait = providerErrorFromResponse({ ...base, status: 429, body: '{"retryAfterMs":1500}', parseError: jsonParser });
    assert.equal(wait.retryAfterS, 1.5);
    const header = providerErrorFromResponse({
      ...base,
      headers: new Headers({ 'retry-after': '2' }),
      status: 429,
      body: '{"retryAfterMs":1500}',
      parseError: jsonParser,
    });
    assert.equal(header.retryAfterS, 2, 'the header wins over the body');
  });

  it('clips a long body and survives a parser that throws', () => {
    const error = providerErrorFromResponse({ ...base, status: 500, body: `${'x'.repeat(2_000)} s3cr3t-key`, parseError: jsonParser });
    assert.ok(error.message.length < 600);
    assert.ok(error.message.endsWith('…'));
  });

  it('redacts secrets in stream errors', () => {
    const error = providerErrorFromStream('acme', { type: 'boom', message: 'bad key s3cr3t-key' }, ['s3cr3t-key'], true);
    assert.equal(error.message, 'acme: stream error boom: bad key [redacted]');
    assert.equal(error.isRetryable, true);
  });

  it('describes undici-style cause chains with their codes', () => {
    const cause = new TypeError('fetch failed', { cause: Object.assign(new Error('getaddrinfo ENOTFOUND api.acme.test'), { code: 'ENOTFOUND' }) });
    assert.equal(describeCause(cause), 'fetch failed: getaddrinfo ENOTFOUND api.acme.test (ENOTFOUND)');
    assert.equal(describeCause('plain'), 'plain');
    assert.equal(describeCause(undefined), 'unknown error');
    assert.equal(networkProviderError('acme', cause, 'connect', []).cause, cause);
  });
});
