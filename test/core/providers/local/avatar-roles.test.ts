import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { avatarPresets } from '../../../../core/avatars/avatar-presets.js';
import { readVoice } from '../../../../core/providers/local/character-voice.js';

describe('local engine: the role each preset avatar plays without a persona', () => {
  // Read from the avatar's own description and traits; a persona, when given, overrides it.
  const expected: Record<string, string> = {
    'luna-001': 'general',
    'atlas-002': 'support',
    'sofia-003': 'hospitality',
    'kenji-004': 'education',
    'maya-005': 'healthcare',
    'orion-006': 'entertainment',
  };

  for (const avatar of avatarPresets) {
    it(`${avatar.id} plays ${expected[avatar.id]}`, () => {
      const voice = readVoice({
        name: avatar.name,
        description: avatar.description,
        personality: avatar.traits.personality,
        speakingStyle: avatar.traits.speakingStyle,
      });
      assert.equal(voice.vertical, expected[avatar.id]);
    });
  }
});
