import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SentenceSplitter, splitSentences } from '../../../core/speech/sentence-splitter.js';

describe('SentenceSplitter', () => {
  it('splits plain sentences', () => {
    assert.deepEqual(splitSentences('Hello there. How are you? Great!'), ['Hello there.', 'How are you?', 'Great!']);
  });

  it('keeps abbreviations, initials and numbers inside sentences', () => {
    assert.deepEqual(
      splitSentences('Dr. Smith met Mr. J. R. Tolkien at 3.14 p.m. yesterday. It cost $1.50, e.g. cheap. Done.'),
      ['Dr. Smith met Mr. J. R. Tolkien at 3.14 p.m. yesterday.', 'It cost $1.50, e.g. cheap.', 'Done.'],
    );
  });

  it('keeps closing quotes and brackets with their sentence', () => {
    assert.deepEqual(splitSentences('She said "Stop!" Then (quietly.) we left.'), ['She said "Stop!"', 'Then (quietly.)', 'we left.']);
  });

  it('treats ellipses and ?! runs as one boundary', () => {
    assert.deepEqual(splitSentences('Well... maybe. Really?! Yes…  Fine.'), ['Well...', 'maybe.', 'Really?!', 'Yes…', 'Fine.']);
  });

  it('splits languages written without spaces at full-width punctuation', () => {
    assert.deepEqual(splitSentences('こんにちは。元気ですか？はい！'), ['こんにちは。', '元気ですか？', 'はい！']);
    assert.deepEqual(splitSentences('你好。我很好！'), ['你好。', '我很好！']);
  });

  it('waits for more text when punctuation ends the input so far', () => {
    const splitter = new SentenceSplitter();
    assert.deepEqual(splitter.push('The answer is 3.'), []);
    assert.deepEqual(splitter.push('5 exactly. Next'), ['The answer is 3.5 exactly.']);
    assert.deepEqual(splitter.push(' one'), []);
    assert.equal(splitter.flush(), 'Next one');
    assert.equal(splitter.flush(), undefined);
  });

  it('gives the same sentences however the text is chunked', () => {
    const text = 'Hi Sam! I remember you like tea. Dr. Lee says 2.5 cups a day is fine... Shall we talk more? Yes.';
    const whole = splitSentences(text);
    for (const size of [1, 2, 3, 7, 13]) {
      const splitter = new SentenceSplitter();
      const got: string[] = [];
      for (let i = 0; i < text.length; i += size) got.push(...splitter.push(text.slice(i, i + size)));
      const rest = splitter.flush();
      if (rest) got.push(rest);
      assert.deepEqual(got, whole, `chunk size ${size}`);
    }
  });

  it('merges fragments shorter than the minimum into the next sentence', () => {
    const splitter = new SentenceSplitter(12);
    assert.deepEqual(splitter.push('Hi! Oh. I am glad you came today. '), ['Hi! Oh. I am glad you came today.']);
  });
});
