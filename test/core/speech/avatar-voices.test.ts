import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidationError, avatarVoices, findAvatarVoice, parseAvatarVoiceId } from '../../../core/index.js';
import { rememberVoices } from '../../../core/speech/avatar-voices.js';

describe('avatar voices: the one table every speech engine maps from', () => {
  it('parses the Neural2 form and nothing else', () => {
    assert.deepEqual(parseAvatarVoiceId('en-US-Neural2-F'), { locale: 'en-US', letter: 'F' });
    for (const other of ['alloy', 'en-us+f3', 'en-US-Wavenet-F', 'en-US-Neural2-FF', '']) assert.equal(parseAvatarVoiceId(other), null);
  });

  it("gives each voice its locale, Google's gender and its rank among the locale's voices of that gender", () => {
    assert.deepEqual(findAvatarVoice('en-US-Neural2-F'), { id: 'en-US-Neural2-F', locale: 'en-US', localeName: 'English (US)', letter: 'F', gender: 'female', rank: 2 });
    assert.equal(findAvatarVoice('en-GB-Neural2-B')?.gender, 'male');
    // Ranks are distinct within a locale and gender, so engines can keep letters apart.
    for (const locale of new Set(avatarVoices().map((v) => v.locale))) {
      for (const gender of ['female', 'male'] as const) {
        const ranks = avatarVoices().filter((v) => v.locale === locale && v.gender === gender).map((v) => v.rank);
        assert.deepEqual(ranks, ranks.map((_, i) => i), `${locale} ${gender}`);
      }
    }
  });

  it('is undefined for other shapes and names the choices for unknown voices in the form', () => {
    assert.equal(findAvatarVoice('nova'), undefined);
    assert.throws(() => findAvatarVoice('en-US-Neural2-Z'), (error: unknown) => error instanceof ValidationError && /en-US-Neural2-A/.test(error.message));
    assert.throws(() => findAvatarVoice('xx-XX-Neural2-A'), (error: unknown) => error instanceof ValidationError && /locales: en-US/.test(error.message));
  });

  it('rememberVoices resolves each voice once, and failures every time', () => {
    let calls = 0;
    const resolve = rememberVoices((id: string) => {
      calls++;
      if (id === 'bad') throw new ValidationError('voice_id', 'no');
      return id.toUpperCase();
    });
    assert.equal(resolve('en-US-Neural2-F'), 'EN-US-NEURAL2-F');
    assert.equal(resolve('en-US-Neural2-F'), 'EN-US-NEURAL2-F');
    assert.equal(calls, 1);
    assert.throws(() => resolve('bad'));
    assert.throws(() => resolve('bad'));
    assert.equal(calls, 3);
  });
});
