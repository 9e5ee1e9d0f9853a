import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidationError } from '../../../../core/errors.js';
import { localVoices, resolveLocalVoice } from '../../../../core/speech/local/local-voices.js';

describe('resolveLocalVoice', () => {
  it('maps locale to language and letter to a variant of Google’s gender', () => {
    assert.equal(resolveLocalVoice('en-US-Neural2-F').engineVoice, 'en-us+f3');
    assert.equal(resolveLocalVoice('en-US-Neural2-A').engineVoice, 'en-us+m1');
    assert.equal(resolveLocalVoice('en-GB-Neural2-B').engineVoice, 'en-gb+m1');
    assert.equal(resolveLocalVoice('pt-BR-Neural2-A').language, 'pt-br');
    assert.equal(resolveLocalVoice('ja-JP-Neural2-B').language, 'ja');
    for (const letter of ['A', 'D', 'I', 'J']) assert.equal(resolveLocalVoice(`en-US-Neural2-${letter}`).gender, 'male');
    for (const letter of ['C', 'E', 'F', 'G', 'H']) assert.equal(resolveLocalVoice(`en-US-Neural2-${letter}`).gender, 'female');
    for (const letter of ['A', 'C', 'F']) assert.equal(resolveLocalVoice(`en-GB-Neural2-${letter}`).gender, 'female');
    for (const letter of ['B', 'D']) assert.equal(resolveLocalVoice(`en-GB-Neural2-${letter}`).gender, 'male');
  });

  it('gives every letter of a locale its own engine voice of the right gender', () => {
    const byLocale = new Map<string, Set<string>>();
    for (const voice of localVoices()) {
      const resolved = resolveLocalVoice(voice.id);
      assert.equal(resolved.variant[0], voice.gender === 'female' ? 'f' : 'm', voice.id);
      const seen = byLocale.get(voice.locale) ?? new Set<string>();
      assert.ok(!seen.has(resolved.engineVoice), `${voice.id} repeats ${resolved.engineVoice}`);
      seen.add(resolved.engineVoice);
      byLocale.set(voice.locale, seen);
    }
    assert.ok(byLocale.size >= 8);
  });

  it('accepts the engine’s own voice ids', () => {
    assert.deepEqual(resolveLocalVoice('en-us+m7'), {
      id: 'en-us+m7', locale: 'en-US', gender: 'male', language: 'en-us', variant: 'm7', engineVoice: 'en-us+m7',
    });
  });

  it('rejects unknown voices with a ValidationError on voice_id naming the shapes', () => {
    for (const id of ['en-US-Neural2-B', 'xx-XX-Neural2-A', 'en-US-Wavenet-A', 'en-us+f9', 'fr+x1', '']) {
      assert.throws(() => resolveLocalVoice(id), (error: unknown) => {
        assert.ok(error instanceof ValidationError, id);
        assert.equal(error.field, 'voice_id');
        assert.match(error.message, /Neural2|letters/);
        return true;
      });
    }
  });
});

describe('localVoices', () => {
  it('lists Neural2-form voices of provider local', () => {
    const voices = localVoices();
    assert.ok(voices.some((v) => v.id === 'en-US-Neural2-F' && v.gender === 'female' && v.locale === 'en-US'));
    for (const voice of voices) {
      assert.match(voice.id, /^[a-z]{2}-[A-Z]{2}-Neural2-[A-Z]$/);
      assert.equal(voice.provider, 'local');
    }
  });
});
