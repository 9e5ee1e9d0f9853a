import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidationError } from '../../../core/errors.js';
import { checkReplySentence, checkUserMessage, withModeration } from '../../../core/safety/safety-check.js';
import { DEFAULT_SAFETY, parseSafetySettings } from '../../../core/safety/safety-settings.js';
import type { SafetySettings } from '../../../core/safety/safety-settings.js';
import { ORDINARY_MESSAGES } from './ordinary-messages.js';

const TOPICS = [
  { name: 'medical diagnosis', keywords: ['diagnose', 'prescription', 'what medication'] },
  { name: 'competitors', keywords: ['acme corp'] },
];
const SETTINGS: SafetySettings = parseSafetySettings({ blocked_topics: TOPICS });
const with_ = (patch: Record<string, unknown>): SafetySettings => parseSafetySettings({ blocked_topics: TOPICS, ...patch });

describe('parseSafetySettings', () => {
  it('returns the frozen defaults for missing input', () => {
    for (const input of [undefined, null]) assert.equal(parseSafetySettings(input), DEFAULT_SAFETY);
    assert.deepEqual(parseSafetySettings({}), DEFAULT_SAFETY);
    assert.deepEqual(DEFAULT_SAFETY.blockedTopics, []);
    assert.equal(DEFAULT_SAFETY.filter, 'standard');
    assert.equal(DEFAULT_SAFETY.escalation.enabled, true);
    assert.match(DEFAULT_SAFETY.escalation.message, /\w{3,}/);
    assert.ok(Object.isFrozen(DEFAULT_SAFETY) && Object.isFrozen(DEFAULT_SAFETY.escalation));
  });

  it('parses a full input, trimming strings, and merges escalation over the defaults', () => {
    const parsed = parseSafetySettings({
      blocked_topics: [{ name: ' Legal ', keywords: [' lawsuit ', 'sue you'] }],
      filter: 'strict',
      escalation: { enabled: false, message: 'A colleague will join.' },
      refusal: ' I cannot talk about that. ',
    });
    assert.deepEqual(parsed, {
      blockedTopics: [{ name: 'Legal', keywords: ['lawsuit', 'sue you'] }],
      filter: 'strict',
      escalation: { enabled: false, message: 'A colleague will join.' },
      refusal: 'I cannot talk about that.',
    });
    const partial = parseSafetySettings({ escalation: { enabled: false } }, parsed);
    assert.deepEqual(partial, { ...parsed, escalation: { enabled: false, message: 'A colleague will join.' } });
  });

  const tooMany = Array.from({ length: 21 }, (_, i) => ({ name: `t${i}`, keywords: ['x'] }));
  const invalid: [string, unknown, string][] = [
    ['not an object', 'strict', 'safety'],
    ['unknown filter level', { filter: 'maximum' }, 'safety.filter'],
    ['empty refusal', { refusal: '  ' }, 'safety.refusal'],
    ['too many topics', { blocked_topics: tooMany }, 'safety.blocked_topics'],
    ['topics not a list', { blocked_topics: { name: 'x' } }, 'safety.blocked_topics'],
    ['empty topic name', { blocked_topics: [{ name: ' ', keywords: ['x'] }] }, 'safety.blocked_topics[0].name'],
    ['long topic name', { blocked_topics: [{ name: 'n'.repeat(65), keywords: ['x'] }] }, 'safety.blocked_topics[0].name'],
    ['no keywords', { blocked_topics: [{ name: 'a', keywords: [] }] }, 'safety.blocked_topics[0].keywords'],
    ['51 keywords', { blocked_topics: [{ name: 'a', keywords: Array(51).fill('k') }] }, 'safety.blocked_topics[0].keywords'],
    ['empty keyword', { blocked_topics: [TOPICS[0], { name: 'a', keywords: ['ok', ''] }] }, 'safety.blocked_topics[1].keywords[1]'],
    ['punctuation keyword', { blocked_topics: [{ name: 'a', keywords: ['?!'] }] }, 'safety.blocked_topics[0].keywords[0]'],
    ['long keyword', { blocked_topics: [{ name: 'a', keywords: ['k'.repeat(81)] }] }, 'safety.blocked_topics[0].keywords[0]'],
    ['unknown key', { filters: 'off' }, 'safety.filters'],
    ['unknown topic key', { blocked_topics: [{ name: 'a', keywords: ['k'], words: [] }] }, 'safety.blocked_topics[0].words'],
    ['unknown escalation key', { escalation: { enable: true } }, 'safety.escalation.enable'],
    ['non-boolean enabled', { escalation: { enabled: 'yes' } }, 'safety.escalation.enabled'],
    ['long message', { escalation: { message: 'm'.repeat(501) } }, 'safety.escalation.message'],
  ];
  for (const [label, input, field] of invalid) {
    it(`refuses ${label}, naming ${field}`, () => {
      assert.throws(
        () => parseSafetySettings(input),
        (err: unknown) => err instanceof ValidationError && err.field === field && err.message.includes(field),
      );
    });
  }
});

describe('checkUserMessage', () => {
  const humanRequests = [
    'Can I talk to a person?', 'I want a real person', 'human agent', 'Agent, please!', 'let me speak to someone',
    'I need a customer service representative.', 'let me talk to a manager', 'Can I speak with a human?',
    'TRANSFER ME TO A LIVE AGENT', 'please connect me with a representative', 'chat with a real human please',
    'put me through to your supervisor', 'Real-person please', 'I wanna talk to somebody',
  ];
  for (const text of humanRequests) {
    it(`escalates a request for a human: ${JSON.stringify(text)}`, () => {
      assert.deepEqual(checkUserMessage(text, SETTINGS), { codes: ['escalation_requested'], action: 'escalate', escalationReason: 'requested' });
      assert.deepEqual(checkUserMessage(text, with_({ escalation: { enabled: false } })), { codes: [], action: 'allow' });
    });
  }

  const topical: [string, string][] = [
    ['Can you diagnose my rash?', 'medical diagnosis'], ['I was diagnosed last year', 'medical diagnosis'],
    ['Diagnosing this is hard', 'medical diagnosis'], ['I lost my PRESCRIPTIONS', 'medical diagnosis'],
    ['What medication should I take?', 'medical diagnosis'], ['what... medications?', 'medical diagnosis'],
    ['Is Acme Corp cheaper?', 'competitors'], ['acme-corp has it', 'competitors'], ['ａｃｍｅ ｃｏｒｐ', 'competitors'],
  ];
  for (const [text, topic] of topical) {
    it(`blocks topic ${topic}: ${JSON.stringify(text)}`, () => {
      assert.deepEqual(checkUserMessage(text, SETTINGS), { codes: ['topic_blocked'], topic, action: 'block' });
    });
  }
  for (const text of ['The acmeist corporation', 'an acme of corp design', 'the diagnoser', 'prescriptive rules', 'what is the medication']) {
    it(`does not block partial words or split phrases: ${JSON.stringify(text)}`, () => {
      assert.deepEqual(checkUserMessage(text, SETTINGS), { codes: [], action: 'allow' });
    });
  }

  it('masks profanity at standard and strict, and does nothing at off', () => {
    for (const filter of ['standard', 'strict']) {
      const v = checkUserMessage('this fucking app and its shit', with_({ filter }));
      assert.deepEqual(v.codes, ['filter_triggered']);
      assert.equal(v.action, 'mask');
      assert.ok(v.masked?.includes('*') && !/fuck|shit/i.test(v.masked), v.masked);
      assert.match(v.masked ?? '', /^this \*+ app and its \*+$/);
    }
    assert.equal(checkUserMessage('what a bullsh1t answer, fuuuuck', SETTINGS).masked, 'what a ******** answer, *******');
    assert.deepEqual(checkUserMessage('this fucking app', with_({ filter: 'off' })), { codes: [], action: 'allow' });
  });

  it('escalates repeated frustration only with enough frustrated history', () => {
    const now = 'Ugh, this is useless';
    const frustrated = ["You're not helping", 'THIS IS NOT WHAT I WANT AT ALL', 'where is it!!!'];
    assert.equal(checkUserMessage(now, SETTINGS).action, 'allow');
    assert.equal(checkUserMessage(now, SETTINGS, frustrated.slice(0, 1)).action, 'allow');
    assert.equal(checkUserMessage(now, SETTINGS, ['hello', frustrated[0]!, 'ok', 'fine']).action, 'allow');
    assert.deepEqual(checkUserMessage(now, SETTINGS, frustrated.slice(0, 2)), { codes: ['escalation_requested'], action: 'escalate', escalationReason: 'frustration' });
    assert.equal(checkUserMessage(now, SETTINGS, [frustrated[0]!, 'ok', frustrated[2]!]).action, 'escalate');
    assert.equal(checkUserMessage('thanks', SETTINGS, frustrated).action, 'allow', 'this message must be frustrated too');
    assert.equal(checkUserMessage(now, with_({ escalation: { enabled: false } }), frustrated).action, 'allow');
  });

  for (const text of ['I want to kill myself', 'i just want to die', "There's a bomb in the store", 'I will hurt someone']) {
    it(`escalates severe content: ${JSON.stringify(text)}`, () => {
      assert.deepEqual(checkUserMessage(text, SETTINGS), { codes: ['severe_content'], action: 'escalate', escalationReason: 'severe_content' });
      assert.deepEqual(checkUserMessage(text, with_({ escalation: { enabled: false } })), { codes: ['severe_content'], action: 'block' });
    });
  }

  it('reports every check that fired; the strongest action wins', () => {
    const v = checkUserMessage('fuck, let me talk to a human about acme corp', SETTINGS);
    assert.deepEqual(v.codes, ['escalation_requested', 'topic_blocked', 'filter_triggered']);
    assert.equal(v.action, 'escalate');
    assert.equal(v.topic, 'competitors');
    assert.match(v.masked ?? '', /^\*+, let me/);
  });
});

describe('checkReplySentence', () => {
  it('masks at standard, replaces at strict, passes at off', () => {
    const s = 'That is a shit deal.';
    assert.deepEqual(checkReplySentence(s, SETTINGS), { codes: ['filter_triggered'], masked: 'That is a **** deal.', action: 'mask' });
    assert.equal(checkReplySentence(s, with_({ filter: 'strict' })).action, 'replace');
    assert.deepEqual(checkReplySentence(s, with_({ filter: 'off' })), { codes: [], action: 'allow' });
  });

  it('blocks a blocked topic and never escalates', () => {
    assert.deepEqual(checkReplySentence('I would diagnose that as a cold.', SETTINGS), {
      codes: ['topic_blocked'], topic: 'medical diagnosis', action: 'block',
    });
    assert.deepEqual(checkReplySentence('Let me talk to a manager. I want to die of boredom.', SETTINGS), { codes: [], action: 'allow' });
  });
});

describe('false positives', () => {
  it(`allows ${ORDINARY_MESSAGES.length} ordinary messages (standard filter, escalation on, two topics)`, () => {
    assert.ok(ORDINARY_MESSAGES.length >= 200, `only ${ORDINARY_MESSAGES.length} messages`);
    const flagged = ORDINARY_MESSAGES.map((m) => ({ m, v: checkUserMessage(m, SETTINGS, ORDINARY_MESSAGES.slice(0, 3)) }))
      .filter(({ v }) => v.action !== 'allow' || v.codes.length > 0);
    assert.deepEqual(flagged, []);
    const replies = ORDINARY_MESSAGES.filter((m) => checkReplySentence(m, with_({ filter: 'strict' })).action !== 'allow');
    assert.deepEqual(replies, []);
  });
});

describe('withModeration', () => {
  const clean = checkUserMessage('What time do you open?', SETTINGS);

  it('leaves the verdict alone when the vendor flags nothing', () => {
    assert.deepEqual(withModeration(clean, { flagged: false, categories: [] }, SETTINGS), clean);
  });

  it('escalates severe categories, and blocks them when escalation is off', () => {
    const flagged = { flagged: true, categories: ['self-harm', 'self-harm/intent'] };
    assert.deepEqual(withModeration(clean, flagged, SETTINGS), {
      codes: ['severe_content'], action: 'escalate', escalationReason: 'severe_content', moderationCategories: flagged.categories,
    });
    assert.equal(withModeration(clean, flagged, with_({ escalation: { enabled: false } })).action, 'block');
    assert.equal(withModeration(clean, { flagged: true, categories: ['harassment/threatening'] }, SETTINGS).action, 'escalate');
  });

  it('blocks other flagged content, except at filter level off', () => {
    const flagged = { flagged: true, categories: ['harassment'] };
    assert.deepEqual(withModeration(clean, flagged, SETTINGS), { codes: ['moderation_flagged'], action: 'block', moderationCategories: ['harassment'] });
    assert.deepEqual(withModeration(clean, flagged, with_({ filter: 'off' })), clean);
  });

  it('keeps the stronger action and the canonical code order', () => {
    const asked = checkUserMessage('let me talk to a human', SETTINGS);
    const merged = withModeration(asked, { flagged: true, categories: ['self-harm'] }, SETTINGS);
    assert.deepEqual(merged.codes, ['severe_content', 'escalation_requested']);
    assert.equal(merged.escalationReason, 'requested');
  });
});
