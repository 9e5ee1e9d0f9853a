import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { Verticals } from '../../../core/personas/persona.js';
import {
  findPersonaPreset,
  personaPresets,
  personasOfVertical,
} from '../../../core/personas/persona-presets.js';
import { avatarPresets } from '../../../core/avatars/avatar-presets.js';

const words = (text: string): number => text.trim().split(/\s+/).length;

describe('persona presets', () => {
  it('ships at least 12 personas with unique lower-case kebab ids', () => {
    assert.ok(personaPresets.length >= 12, `only ${personaPresets.length} personas`);
    for (const persona of personaPresets) assert.match(persona.id, /^[a-z]+(?:-[a-z0-9]+)+$/);
    assert.equal(new Set(personaPresets.map((p) => p.id)).size, personaPresets.length);
  });

  it('covers every vertical with at least two personas', () => {
    for (const vertical of Verticals) {
      assert.ok(personasOfVertical(vertical).length >= 2, `vertical ${vertical}`);
    }
    for (const persona of personaPresets) {
      assert.ok((Verticals as readonly string[]).includes(persona.vertical), persona.id);
    }
  });

  it('has non-trivial system prompts within 2000 characters', () => {
    for (const persona of personaPresets) {
      assert.ok(persona.systemPrompt.length <= 2000, `${persona.id}: ${persona.systemPrompt.length} chars`);
      assert.ok(words(persona.systemPrompt) >= 60, `${persona.id}: ${words(persona.systemPrompt)} words`);
      assert.doesNotMatch(persona.systemPrompt, /lorem|ipsum|TODO|TBD/i);
      // Replies are spoken, so every prompt says so.
      assert.match(persona.systemPrompt, /spoken aloud/, persona.id);
    }
  });

  it('states the guard-rails each vertical needs', () => {
    for (const p of personasOfVertical('healthcare')) {
      assert.match(p.systemPrompt, /never diagnose/i, p.id);
      assert.match(p.systemPrompt, /emergency number/i, p.id);
    }
    for (const p of personasOfVertical('sales')) assert.match(p.systemPrompt, /never invent prices/i, p.id);
    for (const p of personasOfVertical('support')) assert.match(p.systemPrompt, /human agent/i, p.id);
  });

  it('has a short spoken greeting, a description and 3–5 traits', () => {
    for (const persona of personaPresets) {
      assert.ok(persona.name.length > 0, persona.id);
      assert.ok(persona.description.length >= 40, persona.id);
      assert.ok(persona.greeting.length > 0 && persona.greeting.length <= 160, persona.id);
      const sentences = persona.greeting.split(/(?<=[.!?])\s+/).filter(Boolean);
      assert.ok(sentences.length <= 2, `${persona.id}: ${sentences.length} greeting sentences`);
      assert.ok(persona.traits.length >= 3 && persona.traits.length <= 5, persona.id);
    }
  });

  it('suggests avatars that exist, using every preset avatar at least once', () => {
    const avatarIds = new Set(avatarPresets.map((a) => a.id));
    for (const persona of personaPresets) {
      assert.ok(avatarIds.has(persona.suggestedAvatarId), `${persona.id}: ${persona.suggestedAvatarId}`);
    }
    assert.deepEqual(new Set(personaPresets.map((p) => p.suggestedAvatarId)), avatarIds);
  });

  it('is frozen', () => {
    assert.ok(Object.isFrozen(personaPresets));
    for (const persona of personaPresets) {
      assert.ok(Object.isFrozen(persona), persona.id);
      assert.ok(Object.isFrozen(persona.traits), persona.id);
    }
    assert.throws(() => {
      (personaPresets[0] as { greeting: string }).greeting = 'Changed';
    }, TypeError);
  });

  it('finds personas by id and vertical', () => {
    assert.equal(findPersonaPreset('edu-math-tutor')?.vertical, 'education');
    assert.equal(findPersonaPreset('support-saas-helpdesk')?.suggestedAvatarId, 'atlas-002');
    assert.equal(findPersonaPreset('does-not-exist'), undefined);
    const sales = personasOfVertical('sales');
    assert.ok(sales.every((p) => p.vertical === 'sales'));
    assert.deepEqual(
      sales.map((p) => p.id),
      personaPresets.filter((p) => p.vertical === 'sales').map((p) => p.id),
    );
  });
});
