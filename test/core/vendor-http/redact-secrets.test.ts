import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactSecrets } from '../../../core/vendor-http/redact-secrets.js';

describe('redactSecrets', () => {
  it('replaces every occurrence of a given secret', () => {
    assert.equal(redactSecrets('key abc123xyz then abc123xyz', ['abc123xyz']), 'key [redacted] then [redacted]');
  });

  it('masks anything shaped like an OpenAI, Anthropic or Google key, masked or not', () => {
    assert.equal(redactSecrets('Incorrect API key provided: sk-proj-********1234.'), 'Incorrect API key provided: [redacted].');
    assert.equal(redactSecrets('x sk-ant-api03-AbCdEf_123 y'), 'x [redacted] y');
    assert.equal(redactSecrets('key=AIzaSyA1234567890abcdef'), 'key=[redacted]');
    assert.equal(redactSecrets('Key sk-...abcd is wrong.'), 'Key [redacted] is wrong.');
  });

  it('leaves ordinary text alone, and ignores missing or tiny secrets', () => {
    assert.equal(redactSecrets('task-force risk-free desk-lamp sk-learn', [undefined, 'ab']), 'task-force risk-free desk-lamp sk-learn');
  });
});
