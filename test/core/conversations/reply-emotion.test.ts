import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inferReplyEmotion } from '../../../core/conversations/reply-emotion.js';
import type { ReplyEmotion } from '../../../core/conversations/reply-emotion.js';
import { Tones } from '../../../core/providers/local/character-voice.js';
import { tonePhrases } from '../../../core/providers/local/tone-phrases.js';
import type { TonePhrases } from '../../../core/providers/local/tone-phrases.js';

/** Fills a tone-phrase template as the offline engine does (a name, a mood word). */
function fill(template: string): string {
  return template.replaceAll('{user}', ', Sam').replaceAll('{User}', 'Sam').replaceAll('{word}', 'down');
}

describe('inferReplyEmotion', () => {
  const cases: [string, ReplyEmotion | undefined][] = [
    ["Hi Sam! It's so good to see you.", 'happy'],
    ['Hello there, welcome to the shop.', 'happy'],
    ["That's wonderful news, congratulations!", 'happy'],
    ['Thanks for asking.', 'happy'],
    ["I'm sorry to hear that.", 'sad'],
    ['I apologise for the inconvenience.', 'sad'],
    ['Unfortunately the order has already shipped.', 'sad'],
    ['That sounds really hard.', 'sad'],
    ['Hello, and I am so sorry about the delay.', 'sad'],
    ['No need to apologise.', 'relaxed'],
    ['No worries at all!', 'relaxed'],
    ["Take your time, it's okay.", 'relaxed'],
    ['Wow, really? That is unbelievable!', 'surprised'],
    ['Whoa, what a surprise!', 'surprised'],
    ['That is outrageous and unacceptable.', 'angry'],
    ['The museum opens at nine.', undefined],
    ['Your order number is 4417.', undefined],
    ["That's not great.", undefined],
    ["I couldn't agree more, it's a classic.", undefined],
    ['These weight loss tips are popular.', undefined],
    ["It doesn't hurt to ask.", undefined],
    ["I'm unable to check orders from here.", 'sad'],
    ['I am never happy with late deliveries.', undefined],
    ['', undefined],
  ];
  for (const [sentence, emotion] of cases) {
    it(`${JSON.stringify(sentence)} → ${emotion ?? 'none'}`, () => assert.equal(inferReplyEmotion(sentence), emotion));
  }

  it('reads curly apostrophes and capitals like straight ones', () => {
    assert.equal(inferReplyEmotion('I’M SORRY TO HEAR THAT.'), 'sad');
    assert.equal(inferReplyEmotion('Don’t worry about it.'), 'relaxed');
  });
});

describe("inferReplyEmotion on the offline engine's own phrases", () => {
  // The offline engine's social sentences come from its tone tables: every tone's greetings,
  // thanks and good news must smile, its sympathy and regrets frown or stay calm, its answers
  // to an apology stay relaxed (never a frown: the user apologised, not the avatar).
  const expected: Partial<Record<keyof TonePhrases, { allowed: (ReplyEmotion | undefined)[]; atLeast: ReplyEmotion; share: number }>> = {
    hello: { allowed: ['happy'], atLeast: 'happy', share: 1 },
    helloAgain: { allowed: ['happy'], atLeast: 'happy', share: 1 },
    niceToMeet: { allowed: ['happy'], atLeast: 'happy', share: 1 },
    glad: { allowed: ['happy'], atLeast: 'happy', share: 1 },
    complimentReply: { allowed: ['happy', 'surprised'], atLeast: 'happy', share: 0.8 },
    thanksReply: { allowed: ['happy', 'relaxed', undefined], atLeast: 'happy', share: 0.6 },
    empathy: { allowed: ['sad', 'relaxed'], atLeast: 'sad', share: 0.5 },
    apologyReply: { allowed: ['relaxed', undefined], atLeast: 'relaxed', share: 0.8 },
    insultReply: { allowed: ['sad', undefined], atLeast: 'sad', share: 0.6 },
  };
  for (const [field, rule] of Object.entries(expected)) {
    it(`${field}: ${rule.allowed.map((e) => e ?? 'none').join(' / ')}, mostly ${rule.atLeast}`, () => {
      const all = Tones.flatMap((tone) => tonePhrases(tone)[field as keyof TonePhrases].map((t) => fill(t)));
      const got = all.map((sentence) => [sentence, inferReplyEmotion(sentence)] as const);
      for (const [sentence, emotion] of got) assert.ok(rule.allowed.includes(emotion), `${JSON.stringify(sentence)} → ${emotion}`);
      const share = got.filter(([, e]) => e === rule.atLeast).length / got.length;
      assert.ok(share >= rule.share, `${field}: ${(share * 100).toFixed(0)} % ${rule.atLeast}`);
    });
  }
});
