import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { AvatarAnimations } from '../../../core/avatars/avatar.js';
import { avatarPresets, findAvatarPreset } from '../../../core/avatars/avatar-presets.js';

const VOICE = /^[a-z]{2}-[A-Z]{2}-Neural2-[A-Z]$/;

/** Neural2 voice letters by gender for the locales the presets use. */
const VOICE_GENDER: Record<string, 'female' | 'male'> = {};
for (const letter of 'CEFGH') VOICE_GENDER[`en-US-Neural2-${letter}`] = 'female';
for (const letter of 'ADIJ') VOICE_GENDER[`en-US-Neural2-${letter}`] = 'male';
for (const letter of 'ACF') VOICE_GENDER[`en-GB-Neural2-${letter}`] = 'female';
for (const letter of 'BD') VOICE_GENDER[`en-GB-Neural2-${letter}`] = 'male';

const EXPECTED: ReadonlyArray<[id: string, name: string, voice: string]> = [
  ['luna-001', 'Luna', 'en-US-Neural2-F'],
  ['atlas-002', 'Atlas', 'en-US-Neural2-D'],
  ['sofia-003', 'Sofia', 'en-GB-Neural2-A'],
  ['kenji-004', 'Kenji', 'en-US-Neural2-J'],
  ['maya-005', 'Maya', 'en-US-Neural2-C'],
  ['orion-006', 'Orion', 'en-GB-Neural2-B'],
];

describe('avatar presets', () => {
  it('ships exactly the six fixed avatars, in order', () => {
    assert.equal(avatarPresets.length, 6);
    assert.deepEqual(
      avatarPresets.map((a) => [a.id, a.name, a.defaultVoice]),
      EXPECTED.map((e) => [...e]),
    );
  });

  it('has ids of shape <name>-<three digits> that are unique', () => {
    for (const avatar of avatarPresets) {
      assert.match(avatar.id, /^[a-z]+-\d{3}$/);
      assert.ok(avatar.id.startsWith(`${avatar.name.toLowerCase()}-`), avatar.id);
    }
    assert.equal(new Set(avatarPresets.map((a) => a.id)).size, avatarPresets.length);
  });

  it('uses Neural2 voices, with 2–3 distinct alternatives of the same gender', () => {
    for (const avatar of avatarPresets) {
      assert.match(avatar.defaultVoice, VOICE);
      const gender = VOICE_GENDER[avatar.defaultVoice];
      assert.ok(gender, `${avatar.id}: unknown default voice ${avatar.defaultVoice}`);
      assert.ok(avatar.alternativeVoices.length >= 2 && avatar.alternativeVoices.length <= 3, avatar.id);
      assert.equal(new Set(avatar.alternativeVoices).size, avatar.alternativeVoices.length, avatar.id);
      for (const voice of avatar.alternativeVoices) {
        assert.match(voice, VOICE);
        assert.notEqual(voice, avatar.defaultVoice, avatar.id);
        assert.equal(VOICE_GENDER[voice], gender, `${avatar.id}: ${voice} is not ${gender}`);
      }
    }
  });

  it('names only animations the widget implements, and varies them across avatars', () => {
    for (const avatar of avatarPresets) {
      assert.ok((AvatarAnimations.idle as readonly string[]).includes(avatar.animations.idle), avatar.id);
      assert.ok((AvatarAnimations.talking as readonly string[]).includes(avatar.animations.talking), avatar.id);
      assert.ok((AvatarAnimations.thinking as readonly string[]).includes(avatar.animations.thinking), avatar.id);
    }
    const combos = new Set(
      avatarPresets.map((a) => `${a.animations.idle}/${a.animations.talking}/${a.animations.thinking}`),
    );
    assert.ok(combos.size >= 4, `only ${combos.size} distinct animation sets`);
  });

  it('fills description, 3–5 tags and both traits with real text', () => {
    for (const avatar of avatarPresets) {
      assert.equal(avatar.preset, true);
      assert.ok(avatar.description.length >= 40, avatar.id);
      assert.ok(avatar.tags.length >= 3 && avatar.tags.length <= 5, avatar.id);
      assert.equal(new Set(avatar.tags).size, avatar.tags.length, avatar.id);
      for (const tag of avatar.tags) assert.match(tag, /^[a-z][a-z-]*$/);
      assert.ok(avatar.traits.personality.split(/\s+/).length >= 8, avatar.id);
      assert.ok(avatar.traits.speakingStyle.split(/\s+/).length >= 8, avatar.id);
      assert.doesNotMatch(JSON.stringify(avatar), /lorem|ipsum|TODO|TBD/i);
    }
  });

  it('is deeply frozen', () => {
    assert.ok(Object.isFrozen(avatarPresets));
    for (const avatar of avatarPresets) {
      assert.ok(Object.isFrozen(avatar), avatar.id);
      assert.ok(Object.isFrozen(avatar.tags), avatar.id);
      assert.ok(Object.isFrozen(avatar.alternativeVoices), avatar.id);
      assert.ok(Object.isFrozen(avatar.animations), avatar.id);
      assert.ok(Object.isFrozen(avatar.traits), avatar.id);
    }
    assert.throws(() => {
      (avatarPresets[0] as { name: string }).name = 'Changed';
    }, TypeError);
  });

  it('finds presets by id', () => {
    assert.equal(findAvatarPreset('atlas-002')?.name, 'Atlas');
    assert.equal(findAvatarPreset('nobody-999'), undefined);
    assert.equal(findAvatarPreset(''), undefined);
  });
});
