import { expect } from '@open-wc/testing';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { TranscriptController } from '../../widget/controllers/transcript-controller.js';
import type { TranscriptEntry } from '../../widget/ui/transcript-entry.js';

/** A host without an element: counts update requests and keeps the registered controllers. */
class FakeHost implements ReactiveControllerHost {
  updates = 0;
  readonly controllers: ReactiveController[] = [];
  readonly updateComplete = Promise.resolve(true);
  addController(controller: ReactiveController): void {
    this.controllers.push(controller);
  }
  removeController(): void {}
  requestUpdate(): void {
    this.updates++;
  }
}

/** A transcript on a fake host with a clock the test moves (`t.at = ms`). */
function setup() {
  const host = new FakeHost();
  const clock = { at: 1000 };
  const transcript = new TranscriptController(host, () => clock.at);
  return { host, clock, transcript };
}

/** The lines without their keys, for comparison. */
const lines = (entries: readonly TranscriptEntry[]) => entries.map(({ key: _key, ...rest }) => rest);

describe('TranscriptController', () => {
  it('registers with its host and starts empty, with no reply open', () => {
    const { host, transcript } = setup();
    expect(host.controllers).to.deep.equal([transcript]);
    expect(transcript.entries).to.deep.equal([]);
    expect(transcript.replying).to.equal(false);
  });

  it('loads a conversation’s stored messages as finished lines, replacing what was shown', () => {
    const { host, transcript } = setup();
    transcript.notice('old');
    transcript.load([
      { id: 'm1', role: 'user', content: 'Hi' },
      { id: 'm2', role: 'assistant', content: 'Hello!' },
    ]);
    expect(lines(transcript.entries)).to.deep.equal([
      { role: 'user', text: 'Hi', status: 'done', id: 'm1' },
      { role: 'assistant', text: 'Hello!', status: 'done', id: 'm2' },
    ]);
    expect(host.updates).to.equal(2);
  });

  it('keeps keys unique across loads, so the rendered list never reuses a line', () => {
    const { transcript } = setup();
    transcript.load([{ id: 'm1', role: 'user', content: 'Hi' }]);
    const first = transcript.entries.map((e) => e.key);
    transcript.load([{ id: 'm1', role: 'user', content: 'Hi' }]);
    transcript.sent('Again');
    const keys = [...first, ...transcript.entries.map((e) => e.key)];
    expect(new Set(keys).size).to.equal(keys.length);
  });

  it('a sent message adds the user’s line and an empty streaming line for the reply', () => {
    const { host, transcript } = setup();
    transcript.sent('What is VRM?');
    expect(lines(transcript.entries)).to.deep.equal([
      { role: 'user', text: 'What is VRM?', status: 'done' },
      { role: 'assistant', text: '', status: 'streaming' },
    ]);
    expect(transcript.replying).to.equal(true);
    expect(host.updates).to.be.greaterThan(0);
  });

  it('joins the deltas into one assistant line, as a new array each time', () => {
    const { host, transcript } = setup();
    transcript.sent('Hi');
    const before = transcript.entries;
    const updates = host.updates;
    transcript.delta('Hel');
    const middle = transcript.entries;
    transcript.delta('lo ');
    transcript.delta('there.');
    expect(lines(transcript.entries)).to.deep.equal([
      { role: 'user', text: 'Hi', status: 'done' },
      { role: 'assistant', text: 'Hello there.', status: 'streaming' },
    ]);
    // Earlier arrays (and their lines) are left as they were: the element tells changes by identity.
    expect(middle).to.not.equal(before);
    expect(transcript.entries).to.not.equal(middle);
    expect(before[1]!.text).to.equal('');
    expect(middle[1]!.text).to.equal('Hel');
    expect(host.updates).to.equal(updates + 3);
  });

  it('done finishes the line with the stored id and reports content and rounded timings', () => {
    const { clock, transcript } = setup();
    transcript.sent('Hi');
    clock.at = 1120.4;
    transcript.delta('Hello');
    clock.at = 1300;
    transcript.delta(' there');
    clock.at = 1450.6;
    transcript.audio(0);
    clock.at = 1600;
    transcript.audio(1);
    const reply = transcript.done('msg_1');
    expect(reply).to.deep.equal({ content: 'Hello there', id: 'msg_1', timings: { first_token_ms: 120, first_audio_ms: 451 } });
    expect(lines(transcript.entries)[1]).to.deep.equal({ role: 'assistant', text: 'Hello there', status: 'done', id: 'msg_1' });
    expect(transcript.replying).to.equal(false);
  });

  it('reports only the timings that came', () => {
    const { transcript } = setup();
    transcript.sent('Hi');
    expect(transcript.done('msg_1')).to.deep.equal({ content: '', id: 'msg_1', timings: {} });
    transcript.sent('Again');
    transcript.delta('Text only');
    expect(transcript.done('msg_2')!.timings).to.deep.equal({ first_token_ms: 0 });
  });

  it('done with no reply open reports nothing and changes nothing', () => {
    const { host, transcript } = setup();
    transcript.load([{ id: 'm1', role: 'user', content: 'Hi' }]);
    const entries = transcript.entries;
    const updates = host.updates;
    expect(transcript.done('msg_x')).to.equal(undefined);
    expect(transcript.entries).to.equal(entries);
    expect(host.updates).to.equal(updates);
  });

  it('audio with no reply open is ignored', () => {
    const { host, transcript } = setup();
    transcript.audio(0);
    expect(transcript.entries).to.deep.equal([]);
    expect(transcript.replying).to.equal(false);
    expect(host.updates).to.equal(0);
  });

  it('a message after a finished reply starts a new turn; its deltas do not touch the old line', () => {
    const { transcript } = setup();
    transcript.sent('One');
    transcript.delta('First reply');
    transcript.done('a1');
    transcript.sent('Two');
    transcript.delta('Second reply');
    expect(transcript.done('a2')!.content).to.equal('Second reply');
    expect(lines(transcript.entries)).to.deep.equal([
      { role: 'user', text: 'One', status: 'done' },
      { role: 'assistant', text: 'First reply', status: 'done', id: 'a1' },
      { role: 'user', text: 'Two', status: 'done' },
      { role: 'assistant', text: 'Second reply', status: 'done', id: 'a2' },
    ]);
  });

  it('a delta with no reply open shows a reply started elsewhere (e.g. over REST)', () => {
    const { clock, transcript } = setup();
    transcript.load([{ id: 'm1', role: 'user', content: 'Sent over REST' }]);
    clock.at = 5000;
    transcript.delta('Streamed ');
    expect(transcript.replying).to.equal(true);
    clock.at = 5200;
    transcript.audio(0);
    transcript.delta('anyway');
    expect(transcript.done('a1')).to.deep.equal({ content: 'Streamed anyway', id: 'a1', timings: { first_token_ms: 0, first_audio_ms: 200 } });
    expect(lines(transcript.entries)).to.deep.equal([
      { role: 'user', text: 'Sent over REST', status: 'done', id: 'm1' },
      { role: 'assistant', text: 'Streamed anyway', status: 'done', id: 'a1' },
    ]);
  });

  it('interrupted marks the open reply’s line, keeping its text, and says whether one was open', () => {
    const { transcript } = setup();
    transcript.sent('Tell me a story');
    transcript.delta('Once upon');
    expect(transcript.interrupted()).to.equal(true);
    expect(transcript.replying).to.equal(false);
    expect(lines(transcript.entries)[1]).to.deep.equal({ role: 'assistant', text: 'Once upon', status: 'interrupted' });
    const entries = transcript.entries;
    expect(transcript.interrupted()).to.equal(false);
    expect(transcript.entries).to.equal(entries);
  });

  it('after an interrupt, the closed line stays closed: a done reports nothing and a new message starts a new turn', () => {
    const { transcript } = setup();
    transcript.sent('One');
    transcript.delta('Part');
    transcript.interrupted();
    expect(transcript.done('a1')).to.equal(undefined);
    transcript.sent('Two');
    transcript.delta('New');
    expect(lines(transcript.entries)).to.deep.equal([
      { role: 'user', text: 'One', status: 'done' },
      { role: 'assistant', text: 'Part', status: 'interrupted' },
      { role: 'user', text: 'Two', status: 'done' },
      { role: 'assistant', text: 'New', status: 'streaming' },
    ]);
  });

  it('an interrupt before any text leaves an empty interrupted line', () => {
    const { transcript } = setup();
    transcript.sent('Hi');
    expect(transcript.interrupted()).to.equal(true);
    expect(lines(transcript.entries)[1]).to.deep.equal({ role: 'assistant', text: '', status: 'interrupted' });
  });

  it('failed marks the reply as an error, keeping its text so far', () => {
    const { transcript } = setup();
    transcript.sent('Hi');
    transcript.delta('Partial');
    transcript.failed();
    expect(transcript.replying).to.equal(false);
    expect(lines(transcript.entries)[1]).to.deep.equal({ role: 'assistant', text: 'Partial', status: 'error' });
  });

  it('failed before any text removes the empty reply line: an error is never shown as the avatar’s words', () => {
    const { transcript } = setup();
    transcript.sent('Hi');
    transcript.failed();
    expect(lines(transcript.entries)).to.deep.equal([{ role: 'user', text: 'Hi', status: 'done' }]);
    expect(transcript.done('a1')).to.equal(undefined);
  });

  it('failed with no reply open changes nothing', () => {
    const { host, transcript } = setup();
    transcript.sent('Hi');
    transcript.done('a1');
    const entries = transcript.entries;
    const updates = host.updates;
    transcript.failed();
    expect(transcript.entries).to.equal(entries);
    expect(host.updates).to.equal(updates);
  });

  it('adds notices as finished lines of their own', () => {
    const { transcript } = setup();
    transcript.sent('Bye');
    transcript.interrupted();
    transcript.notice('The conversation has ended.');
    expect(lines(transcript.entries)[2]).to.deep.equal({ role: 'notice', text: 'The conversation has ended.', status: 'done' });
  });

  it('abandon (and the host leaving the page) forgets the open reply without marking its line', () => {
    const { transcript } = setup();
    transcript.sent('Hi');
    transcript.delta('Hal');
    transcript.abandon();
    expect(transcript.replying).to.equal(false);
    expect(lines(transcript.entries)[1]).to.deep.equal({ role: 'assistant', text: 'Hal', status: 'streaming' });
    expect(transcript.interrupted()).to.equal(false);

    transcript.sent('Again');
    transcript.hostDisconnected();
    expect(transcript.replying).to.equal(false);
    expect(transcript.done('a1')).to.equal(undefined);
    expect(transcript.entries.map((e) => e.status)).to.deep.equal(['done', 'streaming', 'done', 'streaming']);
  });

  describe('paced by the voice (server speech)', () => {
    it('reveals each sentence when its clip starts; the rest stays in the line, hidden', () => {
      const { transcript } = setup();
      transcript.pace(true);
      transcript.sent('Hi');
      transcript.delta('Hello there.');
      transcript.audio(0);
      transcript.delta(' How are you?');
      transcript.audio(1);
      expect(lines(transcript.entries)[1]).to.deep.equal({ role: 'assistant', text: 'Hello there. How are you?', status: 'streaming', shown: 0 });
      transcript.spoken(0);
      expect(transcript.entries[1]!.shown).to.equal('Hello there.'.length);
      transcript.done('a1');
      expect(transcript.entries[1]!.shown, 'done does not reveal what is still to be said').to.equal('Hello there.'.length);
      transcript.spoken(1);
      expect(transcript.entries[1]!.shown).to.equal('Hello there. How are you?'.length);
      transcript.revealAll();
      expect(lines(transcript.entries)[1]).to.deep.equal({ role: 'assistant', text: 'Hello there. How are you?', status: 'done', id: 'a1' });
    });

    it('an interrupt keeps what was spoken, marked', () => {
      const { transcript } = setup();
      transcript.pace(true);
      transcript.sent('Tell me');
      transcript.delta('First part.');
      transcript.audio(0);
      transcript.delta(' Second part.');
      transcript.audio(1);
      transcript.spoken(0);
      transcript.interrupted();
      expect(lines(transcript.entries)[1]).to.deep.equal({ role: 'assistant', text: 'First part.', status: 'interrupted' });
      transcript.spoken(1);
      expect(lines(transcript.entries)[1]!.text, 'a late clip start changes nothing').to.equal('First part.');
    });

    it('unpaced (browser speech, no voice) shows text as it arrives', () => {
      const { transcript } = setup();
      transcript.pace(true);
      transcript.pace(false);
      transcript.sent('Hi');
      transcript.delta('Hello.');
      expect(lines(transcript.entries)[1]).to.deep.equal({ role: 'assistant', text: 'Hello.', status: 'streaming' });
    });
  });
});
