import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidationError } from '../../../core/index.js';
import { closestName } from '../../../server/schema/closest-name.js';
import { s } from '../../../server/schema/schema.js';

describe('unknown fields name the field they most likely meant', () => {
  it('finds transpositions, dropped letters and the other naming style', () => {
    assert.equal(closestName('contnet', ['content', 'stream']), 'content');
    assert.equal(closestName('conent', ['content', 'stream']), 'content');
    assert.equal(closestName('avatarId', ['avatar_id', 'persona_id']), 'avatar_id');
    assert.equal(closestName('AVATAR-ID', ['avatar_id']), 'avatar_id');
  });

  it('suggests nothing for names that are not close', () => {
    assert.equal(closestName('colour', ['content', 'stream']), undefined);
    assert.equal(closestName('ab', ['id']), undefined);
  });

  const body = s.object({ content: s.string({ min: 1 }), stream: s.optional(s.boolean()) });
  const messageOf = (value: unknown) => {
    try {
      body.parse(value, '');
    } catch (error) {
      assert.ok(error instanceof ValidationError);
      return { message: error.message, field: error.field };
    }
    assert.fail('accepted');
  };

  it('names the unknown field and the missing required one together', () => {
    assert.deepEqual(messageOf({ contnet: 'hi' }), { message: 'Unknown field contnet — did you mean content?; content is required', field: 'contnet' });
  });

  it('names an unknown field beside complete ones, with the allowed fields', () => {
    assert.deepEqual(messageOf({ content: 'hi', straem: true }), { message: 'Unknown field straem — did you mean stream?; allowed fields: content, stream', field: 'straem' });
    assert.equal(messageOf({ content: 'hi', colour: 'red' }).message, 'Unknown field colour; allowed fields: content, stream');
  });

  it('keeps the plain message when only a required field is missing', () => {
    assert.deepEqual(messageOf({}), { message: 'content is required', field: 'content' });
  });
});
