import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ConversationMessage } from '../transport/api-client.js';
import type { TranscriptEntry } from '../ui/transcript-entry.js';

/** A reply as it completed: what the element reports in `avatar-message`. */
export interface CompletedReply {
  content: string;
  id: string;
  /** ms from the start of the turn to the first text and to the first audio clip, when they came. */
  timings: { first_token_ms?: number; first_audio_ms?: number };
}

/** The reply streaming now: its transcript line, its text so far, and when its first text and audio arrived. */
interface OpenReply {
  key: number;
  text: string;
  startedAt: number;
  firstTokenMs?: number;
  firstAudioMs?: number;
}

/** Where a speech clip's sentence ends in its reply line: revealed up to there when the clip starts. */
interface ClipMark {
  key: number;
  upTo: number;
}

/**
 * The transcript on the element: the user's and the avatar's lines, and the rules for how the
 * conversation's events change them. A sent message opens a reply; deltas join into that one
 * assistant line (a delta with no reply open opens one, for replies started elsewhere, e.g. over
 * REST); `done`, an error or an interrupt closes it. It holds no DOM, so it is tested without
 * rendering: the element renders `entries`, a new array after every change (the element tells
 * a changed transcript by identity, to scroll it), and the host is asked to update.
 */
export class TranscriptController implements ReactiveController {
  private lines: readonly TranscriptEntry[] = [];
  private reply: OpenReply | undefined;
  /** Keys stay unique for the element's life, across conversations, so `repeat` never reuses a line. */
  private lastKey = 0;
  /** Reveal replies in step with their speech (server speech); otherwise text shows as it arrives. */
  private paced = false;
  /** Clips of the open reply by `seq`, waiting to start. */
  private readonly marks = new Map<number, ClipMark>();

  constructor(
    private readonly host: ReactiveControllerHost,
    /** The clock of reply timings (ms); tests pass their own. */
    private readonly now: () => number = () => performance.now(),
  ) {
    host.addController(this);
  }

  /** The lines to show, oldest first. */
  get entries(): readonly TranscriptEntry[] {
    return this.lines;
  }

  /** True while a reply is open (streaming, or awaited after a send). */
  get replying(): boolean {
    return this.reply !== undefined;
  }

  /**
   * With server speech, reply text is revealed sentence by sentence as each sentence's clip starts
   * to play ({@link spoken}), so the screen never runs ahead of the voice.
   */
  pace(paced: boolean): void {
    this.paced = paced;
    if (!paced) this.revealAll();
  }

  /** Replaces the transcript with a conversation's stored messages. */
  load(messages: readonly ConversationMessage[]): void {
    this.set(messages.map((m) => this.line(m.role, m.content, 'done', m.id)));
  }

  /** The user sent `content`: their line, and an empty assistant line the reply streams into. */
  sent(content: string): void {
    this.set([...this.lines, this.line('user', content, 'done')]);
    this.open();
  }

  /** Reply text arrived: it joins the open reply's line. */
  delta(text: string): void {
    // With none open, a reply this element did not ask for (e.g. started over REST): show it too.
    const reply = this.reply ?? this.open();
    reply.firstTokenMs ??= this.now() - reply.startedAt;
    reply.text += text;
    this.change(reply.key, (e) => ({ ...e, text: reply.text, ...(this.paced && { shown: e.shown ?? 0 }) }));
  }

  /**
   * A reply audio clip arrived. The server sends each sentence's text just before its clip, so
   * the clip speaks the reply up to the text received so far.
   */
  audio(seq: number): void {
    if (!this.reply) return;
    this.reply.firstAudioMs ??= this.now() - this.reply.startedAt;
    this.marks.set(seq, { key: this.reply.key, upTo: this.reply.text.length });
  }

  /** Clip `seq` started to sound: its sentence (and everything before it) appears. */
  spoken(seq: number): void {
    const mark = this.marks.get(seq);
    if (!mark) return;
    this.marks.delete(seq);
    this.change(mark.key, (e) => (e.shown === undefined || e.shown >= mark.upTo ? e : { ...e, shown: mark.upTo }));
  }

  /** Speech went quiet (finished, failed or muted): whatever is still hidden appears. */
  revealAll(): void {
    this.marks.clear();
    if (this.lines.some((e) => e.shown !== undefined)) this.set(this.lines.map(({ shown: _, ...e }) => e));
  }

  /** The server stored the reply as `id`; undefined when no reply was open (nothing to report). */
  done(id: string): CompletedReply | undefined {
    const reply = this.close();
    if (!reply) return undefined;
    this.change(reply.key, (e) => ({ ...e, status: 'done', id }));
    const timings: CompletedReply['timings'] = {};
    if (reply.firstTokenMs !== undefined) timings.first_token_ms = Math.round(reply.firstTokenMs);
    if (reply.firstAudioMs !== undefined) timings.first_audio_ms = Math.round(reply.firstAudioMs);
    return { content: reply.text, id, timings };
  }

  /**
   * The reply failed: a line with text keeps it (marked), an empty one goes. The error itself is
   * the element's to show, never as the avatar's words.
   */
  failed(): void {
    const reply = this.close();
    if (!reply) return;
    if (reply.text) this.change(reply.key, (e) => ({ ...e, status: 'error' }));
    else this.set(this.lines.filter((e) => e.key !== reply.key));
  }

  /**
   * Marks the open reply interrupted (the server is told separately): its line keeps what was
   * spoken — what was on screen — and is marked. True when one was open, so the caller knows late
   * events of it may still arrive.
   */
  interrupted(): boolean {
    const reply = this.close();
    this.marks.clear();
    if (reply) {
      this.change(reply.key, ({ shown, ...e }) => ({ ...e, status: 'interrupted', text: shown === undefined ? e.text : e.text.slice(0, shown).trimEnd() }));
    }
    return reply !== undefined;
  }

  /** A line from the widget itself (e.g. the conversation ended). */
  notice(text: string): void {
    this.set([...this.lines, this.line('notice', text, 'done')]);
  }

  /**
   * Forgets the open reply without marking its line: the element is opening another conversation,
   * so no event of that reply will come (and `load` replaces the lines).
   */
  abandon(): void {
    this.reply = undefined;
    this.marks.clear();
  }

  /** Leaving the page closes the transport: the open reply will get no more events. */
  hostDisconnected(): void {
    this.abandon();
  }

  /** Opens a reply with an empty, streaming assistant line. */
  private open(): OpenReply {
    const answer = this.line('assistant', '', 'streaming');
    this.set([...this.lines, answer]);
    this.reply = { key: answer.key, text: '', startedAt: this.now() };
    return this.reply;
  }

  private close(): OpenReply | undefined {
    const reply = this.reply;
    this.reply = undefined;
    return reply;
  }

  private line(role: TranscriptEntry['role'], text: string, status: TranscriptEntry['status'], id?: string): TranscriptEntry {
    return { key: ++this.lastKey, role, text, status, ...(id !== undefined && { id }) };
  }

  /** Replaces the line `key` (if it is still shown) with `update(line)`. */
  private change(key: number, update: (entry: TranscriptEntry) => TranscriptEntry): void {
    this.set(this.lines.map((entry) => (entry.key === key ? update(entry) : entry)));
  }

  private set(lines: readonly TranscriptEntry[]): void {
    this.lines = lines;
    this.host.requestUpdate();
  }
}
