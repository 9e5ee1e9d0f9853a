import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../../../../core/clock.js';
import { characters, converse } from './converse.js';

/** A long, varied script: every intent, odd input, and markdown / emoji typed by the user. */
const SCRIPT: readonly string[] = [
  'hey',
  "Hi, I'm **Sam** and I love astronomy 🚀",
  'how are you?',
  'good thanks, and you?',
  'what can you do?',
  'Can you help me with `fractions`?',
  'yes',
  'no',
  'what is 12 times 7',
  'what is 2 ^ 64 ^ 8',
  'square root of -4',
  'what time is it?',
  'what is the date?',
  "what's the weather like?",
  'tell me a joke',
  'yes',
  'are you an AI?',
  'who are you?',
  'do you like # markdown?',
  'what do you do for fun?',
  'I feel stressed',
  'I have chest pain',
  'I have a headache',
  'My laptop keeps crashing',
  'I would like to book a table for 4',
  'what is the meaning of life?',
  'Here is a [link](http://example.com) and _stuff_',
  '🙂🙂🙂',
  '   ',
  '?',
  'undefined',
  'NaN',
  'my name is',
  'what did I ask before?',
  'what have we talked about?',
  "what's my name?",
  'you are useless',
  'sorry',
  'thanks',
  'bye',
];

const MARKDOWN = /[*_#`~|<>[\]{}]|^\s*[-+•]\s|\d+\.\s+\S.*\n/m;
const EMOJI = /\p{Extended_Pictographic}/u;

describe('local engine reply hygiene', () => {
  for (const character of characters) {
    it(`speaks clean, short, plain sentences as ${character?.persona?.name ?? 'the neutral assistant'}`, async () => {
      const { replies } = await converse(SCRIPT, character, { clock: new ManualClock() });
      assert.equal(replies.length, SCRIPT.length);
      replies.forEach((reply, i) => {
        const where = `reply to ${JSON.stringify(SCRIPT[i])}: ${JSON.stringify(reply)}`;
        assert.ok(reply.length > 0, where);
        assert.doesNotMatch(reply, MARKDOWN, where);
        assert.doesNotMatch(reply, EMOJI, where);
        if (!/undefined|nan/i.test(SCRIPT[i]!)) assert.doesNotMatch(reply, /\bundefined\b|\bNaN\b|\bnull\b|\[object/, where);
        assert.doesNotMatch(reply, /\{\w+\}/, `unfilled placeholder in ${where}`);
        assert.doesNotMatch(reply, /\s{2,}|\s[,.!?]/, where);
        assert.match(reply, /[.!?]$/, where);
        const sentences = reply.split(/(?<=[.!?])\s+(?=[A-Z0-9])/);
        assert.ok(sentences.length <= 4, `more than four sentences in ${where}`);
      });
    });
  }
});
