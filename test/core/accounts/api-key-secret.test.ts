import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { digestsEqual, hashApiKey } from '../../../core/accounts/api-key-secret.js';

describe('digestsEqual', () => {
  const digest = hashApiKey('svc_test_0123456789abcdefghijABCDEFGHIJ0123456789');

  it('holds for the same digest, made twice', () => {
    assert.equal(digestsEqual(digest, hashApiKey('svc_test_0123456789abcdefghijABCDEFGHIJ0123456789')), true);
  });

  it('fails for a digest differing in any one character, the first and the last included', () => {
    for (let i = 0; i < digest.length; i++) {
      const changed = digest.slice(0, i) + (digest[i] === '0' ? '1' : '0') + digest.slice(i + 1);
      assert.equal(digestsEqual(digest, changed), false, `character ${i}`);
      assert.equal(digestsEqual(changed, digest), false, `character ${i}, other side`);
    }
  });

  it('fails for another key, a prefix, a longer string and the empty string', () => {
    assert.equal(digestsEqual(digest, hashApiKey('svc_test_0123456789abcdefghijABCDEFGHIJ012345678X')), false);
    assert.equal(digestsEqual(digest, digest.slice(0, 63)), false);
    assert.equal(digestsEqual(digest, `${digest}0`), false);
    assert.equal(digestsEqual(digest, ''), false);
    assert.equal(digestsEqual('', ''), true);
  });
});
