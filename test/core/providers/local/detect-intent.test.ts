import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IntentKind } from '../../../../core/providers/local/detect-intent.js';
import { detectIntent } from '../../../../core/providers/local/detect-intent.js';
import { extractName, extractTopic } from '../../../../core/providers/local/extract-user-facts.js';
import { reflectPronouns } from '../../../../core/providers/local/reflect-pronouns.js';
import { solveArithmetic } from '../../../../core/providers/local/solve-arithmetic.js';
import { splitIntoDeltas } from '../../../../core/providers/local/split-into-deltas.js';

describe('detectIntent', () => {
  const cases: ReadonlyArray<readonly [string, IntentKind]> = [
    ['Hello!', 'greeting'],
    ['good morning', 'greeting'],
    ['bye for now', 'farewell'],
    ['thank you so much', 'thanks'],
    ["what's my name?", 'recall-name'],
    ['what did I ask you before?', 'recall-history'],
    ['what do I like?', 'recall-profile'],
    ['who are you?', 'identity'],
    ['Are you a robot?', 'are-you-ai'],
    ['what can you do?', 'capabilities'],
    ['how do I reset my password?', 'help'],
    ['my printer is not working', 'help'],
    ['how are you doing?', 'how-are-you'],
    ["what's the weather like today", 'weather'],
    ['tell me a joke', 'joke'],
    ['Tell me a long story about a dragon please', 'story'],
    ['can you tell me a bedtime story?', 'story'],
    ['what is the story with my refund?', 'help'],
    ['write me a poem', 'request'],
    ['can you translate hello to French?', 'request'],
    ['give me a fun fact', 'request'],
    ['tell me a riddle', 'joke'],
    ['what are your hobbies?', 'hobbies'],
    ['what is 12 times 7', 'arithmetic'],
    ['what time is it', 'time'],
    ['what day is it today?', 'date'],
    ["I'm feeling really stressed", 'feeling'],
    ['I love hiking', 'preference'],
    ['call me Jo', 'introduction'],
    ['I have a fever', 'health'],
    ['I want to end my life', 'emergency'],
    ['Why is the sky blue?', 'question'],
    ['my neighbour plays the drums at night', 'statement'],
  ];
  for (const [text, kind] of cases) {
    it(`reads ${JSON.stringify(text)} as ${kind}`, () => {
      assert.equal(detectIntent(text).intent.kind, kind);
    });
  }

  it('reads a bare yes / no as an answer only after a question of its own', () => {
    assert.deepEqual(detectIntent('yes please', 'Want to hear another one?').intent, { kind: 'yes', offer: 'joke' });
    assert.deepEqual(detectIntent('no thanks', 'Is there anything else I can help with?').intent, { kind: 'no', offer: 'anything-else' });
    assert.equal(detectIntent('yes', 'That is all.').intent.kind, 'acknowledge');
    assert.equal(detectIntent('yes, tell me a joke', 'Anything else?').intent.kind, 'joke');
  });

  it('notices a greeting and an introduction inside a longer message', () => {
    const detected = detectIntent("Hi, I'm Sam. Can you help me with algebra?");
    assert.equal(detected.greeted, true);
    assert.equal(detected.introducedName, 'Sam');
    assert.deepEqual(detected.intent, { kind: 'help', topic: 'algebra', problem: false });
  });
});

describe('extractName', () => {
  it('finds names in common introductions', () => {
    assert.equal(extractName('my name is sam'), 'Sam');
    assert.equal(extractName('You can call me Mary Jane'), 'Mary Jane');
    assert.equal(extractName("Hey, I'm Priya and I like tea"), 'Priya');
    assert.equal(extractName('this is Omar'), 'Omar');
  });
  it('ignores moods and states', () => {
    for (const text of ["I'm tired", 'I am fine', "I'm not sure", "I'm going home", 'it is raining', "I'm a teacher"]) {
      assert.equal(extractName(text), undefined, text);
    }
  });
});

describe('extractTopic and reflectPronouns', () => {
  it('names the topic of a request', () => {
    assert.equal(extractTopic('Can you help me with my essay?'), 'your essay');
    assert.equal(extractTopic('how do I reset my password'), 'resetting your password');
    assert.equal(extractTopic('I want to book a table'), 'booking a table');
    assert.equal(extractTopic('help me'), undefined);
  });
  it('turns first and second person around', () => {
    assert.equal(reflectPronouns('I am worried about my exam'), 'you are worried about your exam');
    assert.equal(reflectPronouns('you are not listening to me'), 'I am not listening to you');
    assert.equal(reflectPronouns('I was sure you said that'), 'you were sure I said that');
  });
});

describe('solveArithmetic', () => {
  const sums: ReadonlyArray<readonly [string, string]> = [
    ['what is 12 times 7', '84'],
    ['3 + 4 * 2', '11'],
    ['(3 + 4) * 2', '14'],
    ['twenty five plus seventeen', '42'],
    ['100 divided by 8', '12.5'],
    ['2 to the power of 10', '1024'],
    ['square root of 81', '9'],
    ['5 squared', '25'],
    ['what is 15 percent of 200', '30'],
    ['1,000 minus 1', '999'],
    ['-3 minus 4', '-7'],
  ];
  for (const [text, answer] of sums) {
    it(`${text} = ${answer}`, () => {
      const result = solveArithmetic(text);
      assert.ok(result?.ok, text);
      assert.equal(result.answer, answer);
    });
  }
  it('finds no sum where there is none, and flags division by zero', () => {
    assert.equal(solveArithmetic("I'm 25 years old"), undefined);
    assert.equal(solveArithmetic('I have 2 cats and a dog'), undefined);
    assert.deepEqual(solveArithmetic('7 / 0'), { ok: false, spoken: '7 divided by 0', problem: 'division-by-zero' });
  });
});

describe('splitIntoDeltas', () => {
  it('keeps every character and at most two words per delta', () => {
    for (const text of ['Hello there, how are you doing today?', ' leading and trailing ', 'one', '']) {
      const deltas = splitIntoDeltas(text);
      assert.equal(deltas.join(''), text);
      for (const delta of deltas) assert.ok(delta.trim().split(/\s+/).length <= 2, delta);
    }
  });
});
