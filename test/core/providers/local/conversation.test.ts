import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../../../../core/clock.js';
import { generateText } from '../../../../core/providers/chat-model.js';
import { createLocalProvider } from '../../../../core/providers/local/index.js';
import { characters, converse, healthGuide, supportAgent, tutor } from './converse.js';

describe('local engine conversation', () => {
  it('remembers the name across turns and answers "what is my name"', async () => {
    const { replies } = await converse(["Hi, I'm Sam", 'Can you help me with fractions?', 'tell me a joke', "What's my name?"], tutor);
    assert.match(replies[0]!, /\bSam\b/);
    assert.match(replies[3]!, /\bSam\b/);
    for (const phrasing of ['my name is Priya', 'call me Priya', "I'm Priya."]) {
      const { replies: again } = await converse([phrasing, 'how are you?', 'do you remember my name?']);
      assert.match(again[2]!, /\bPriya\b/, phrasing);
    }
  });

  it('does not mistake a mood for a name', async () => {
    const { replies } = await converse(["I'm tired", "what's my name?"]);
    assert.doesNotMatch(replies[1]!, /\bTired\b/);
    assert.match(replies[1]!, /told me your name|mentioned your name/);
  });

  it('refers back to earlier topics and questions', async () => {
    const { replies } = await converse(
      ['Can you help me with long division?', 'I love astronomy', 'what is 12 times 7', 'what have we talked about?', 'what did I ask before?', 'what do I like?'],
      tutor,
    );
    assert.match(replies[3]!, /long division/);
    assert.match(replies[3]!, /astronomy/);
    assert.match(replies[4]!, /12 times 7/);
    assert.match(replies[5]!, /astronomy/);
  });

  it('opens with the persona greeting on the first turn, and not again later', async () => {
    const { replies } = await converse(['Hello!', 'hi again'], tutor);
    assert.equal(replies[0], "Hi there! I'm Ada, your maths tutor. What would you like to learn today?");
    assert.doesNotMatch(replies[1]!, /your maths tutor\. What would you like to learn today/);
  });

  it('answers the same help request differently for education and support', async () => {
    const ask = ['Can you help me with my homework?'];
    const [education] = (await converse(ask, tutor)).replies;
    const [support] = (await converse(ask, supportAgent)).replies;
    assert.notEqual(education, support);
    assert.match(education!, /your homework/);
    assert.match(support!, /your homework/);
    assert.match(education!, /step|practice|basics|explain|learn|pieces/i);
    assert.match(support!, /restart|error|expected|troubleshoot|device|changed/i);
  });

  it('adds the not-a-doctor safety line to health questions in every vertical', async () => {
    for (const character of [healthGuide, tutor, undefined]) {
      const { replies } = await converse(['I have a bad headache, what should I take?'], character);
      assert.match(replies[0]!, /not a doctor|not a medical professional/, character?.name ?? 'neutral');
    }
  });

  it('answers "are you an AI?" honestly', async () => {
    for (const question of ['Are you an AI?', 'are you a real person?', 'Am I talking to a bot?']) {
      const { replies } = await converse([question], tutor);
      assert.match(replies[0]!, /not a (?:real )?person|not human/i, question);
      assert.match(replies[0]!, /offline/i, question);
      assert.match(replies[0]!, /AI provider/i, question);
    }
    const { replies } = await converse(['who are you?'], tutor);
    assert.match(replies[0]!, /Ada/);
    assert.match(replies[0]!, /offline/);
  });

  it('words a repeated question differently', async () => {
    for (const question of ['how are you?', 'what is 12 times 7', 'tell me a joke', 'are you an AI?', 'What is the capital of Peru?', 'thanks']) {
      const { replies } = await converse([question, question, question], supportAgent);
      assert.equal(new Set(replies).size, 3, `${question}: ${replies.join(' | ')}`);
    }
  });

  it('is deterministic for the same conversation and settings, and the seed changes it', async () => {
    const inputs = ['hello', 'I think my plants are dying', 'what can you do?'];
    const first = await converse(inputs, tutor);
    const second = await converse(inputs, tutor);
    assert.deepEqual(first.replies, second.replies);
    const seeds = await Promise.all([1, 2, 3, 4, 5].map((seed) => converse(inputs, tutor, { seed })));
    assert.ok(new Set(seeds.map((s) => s.replies.join('|'))).size > 1, 'different seeds vary the wording');
  });

  it('does simple arithmetic', async () => {
    const { replies } = await converse(['what is 12 times 7', "what's 3 plus 4 times 2", 'what is twenty percent of fifty', 'what is 10 divided by 0']);
    assert.match(replies[0]!, /\b84\b/);
    assert.match(replies[1]!, /\b11\b/);
    assert.match(replies[2]!, /\b10\b/);
    assert.match(replies[3]!, /zero/);
  });

  it('tells the time only from an injected clock', async () => {
    const clock = new ManualClock(Date.UTC(2026, 2, 14, 15, 30));
    const { replies } = await converse(['what time is it?', "what's the date today?"], undefined, { clock });
    assert.match(replies[0]!, /3:30 PM/);
    assert.match(replies[1]!, /Saturday, March 14, 2026/);
    const { replies: noClock } = await converse(['what time is it?']);
    assert.match(noClock[0]!, /clock/);
    assert.doesNotMatch(noClock[0]!, /\d:\d\d/);
    const paris = await converse(['what time is it?'], undefined, { clock, timeZone: 'Europe/Paris' });
    assert.match(paris.replies[0]!, /4:30 PM/);
  });

  it('reads a bare yes as the answer to its own previous question', async () => {
    const { replies } = await converse(['tell me a joke', 'yes', 'no'], tutor);
    assert.match(replies[0]!, /another/);
    assert.match(replies[1]!, /\?/, 'another joke is told');
    assert.notEqual(replies[1], replies[0]);
    assert.match(replies[2]!, /no more jokes|save the rest|instead|talk about/i);
  });

  it('tells a whole short story about what was asked for, and a different one next time', async () => {
    const concierge = characters.find((c) => c?.name === 'Iris');
    assert.ok(concierge, 'a concise character');
    for (const character of [tutor, concierge]) {
      const { replies } = await converse(['Hi! Tell me a long story about a dragon please', 'another story please', 'tell me the story of your life'], character);
      const sentences = (reply: string) => reply.split(/(?<=[.!?])\s+/).length;
      assert.match(replies[0]!, /\ba dragon\b/);
      assert.match(replies[0]!, /\bthe dragon\b/i);
      assert.equal(sentences(replies[0]!), 4, `a concise style does not cut the story: ${replies[0]}`);
      assert.doesNotMatch(replies[0]!, /sounds like|tell me a long story/i, 'the request is not parroted back');
      assert.notEqual(replies[1]!.split('. ')[1], replies[0]!.split('. ')[1], 'the second story is another one');
      assert.doesNotMatch(replies[2]!, /\bmy life\b/, 'a story about the avatar gets a hero of its own');
    }
  });

  it('says plainly which tasks it cannot do instead of echoing them back', async () => {
    for (const request of ['write me a poem', 'can you translate hello to French?', 'give me a fun fact', 'play a game with me']) {
      const { replies } = await converse([request], tutor);
      assert.match(replies[0]!, /offline/, request);
      assert.match(replies[0]!, /AI provider/, request);
      assert.doesNotMatch(replies[0]!, /\byou a poem\b|translate hello|fun fact|game with you|sounds like|I hear you/i, `${request} → ${replies[0]}`);
    }
  });

  it('tells a story when its offer of one is accepted', async () => {
    const host = characters.find((c) => c?.persona?.vertical === 'entertainment');
    const { replies } = await converse(['recommend a book', 'yes'], host);
    assert.match(replies[0]!, /story\?$/, 'the host offers a story');
    assert.equal(replies[1]!.split(/(?<=[.!?])\s+/).length, 4, replies[1]);
    assert.match(replies[1]!, /^(Once|Long ago|There once)/);
  });

  it('is honest about questions it cannot answer and points to a real AI provider', async () => {
    const { replies } = await converse(['What is the capital of Peru?']);
    assert.match(replies[0]!, /capital of Peru/);
    assert.match(replies[0]!, /don't know|beyond|can't|don't have/);
    assert.match(replies[0]!, /AI provider/);
  });

  it('reflects unknown statements back in the user\'s own words', async () => {
    const { replies } = await converse(['I think my garden gnome is judging me', 'My cat refuses to eat her breakfast'], supportAgent);
    assert.match(replies[0]!, /your garden gnome is judging you/);
    assert.match(replies[1]!, /your cat refuses to eat her breakfast/i);
    assert.notEqual(replies[0]!.replace(/garden gnome.*$/, ''), 'I don\'t understand');
  });

  it('greets neutrally without a character and keeps replies short', async () => {
    const { replies } = await converse(['hello', 'how are you?', 'thanks, bye']);
    assert.match(replies[0]!, /assistant/);
    for (const reply of replies) assert.ok(reply.split(/(?<=[.!?])\s+/).length <= 4, reply);
  });

  it('greets with the persona when the history is empty', async () => {
    const { text } = await generateText(createLocalProvider().chatModel(), { messages: [], character: tutor });
    assert.equal(text, tutor.persona!.greeting);
  });
});
