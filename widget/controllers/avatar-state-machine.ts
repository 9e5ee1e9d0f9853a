import type { AvatarStateName } from '../transport/transport.js';

/**
 * What the avatar shows, from three inputs: a turn the user started (`thinking` until speech
 * starts), local speech playback (`talking` while it plays, the only source of truth for the
 * mouth) and the server's `state` events (replies started elsewhere, e.g. over REST). Local
 * playback wins over a pending turn, which wins over the server.
 */
export class AvatarStateMachine {
  private pending = false;
  private speaking = false;
  private server: AvatarStateName = 'idle';
  /** After a local interrupt, late server events of the stopped reply are ignored until it says idle. */
  private ignoreServer = false;
  private last: AvatarStateName = 'idle';

  constructor(private readonly onChange: (state: AvatarStateName) => void) {}

  get state(): AvatarStateName {
    return this.last;
  }

  /** The user sent a message: wait for the reply. */
  sent(): void {
    this.pending = true;
    this.ignoreServer = false;
    this.update();
  }

  /** Speech (audio or browser speech) started playing. */
  speechStarted(): void {
    this.pending = false;
    this.speaking = true;
    this.update();
  }

  /** Playback drained its queue. */
  speechIdle(): void {
    this.speaking = false;
    this.update();
  }

  /** The reply is complete; `willSpeak` when speech for it is still queued. */
  replyDone(willSpeak: boolean): void {
    if (!willSpeak) this.pending = false;
    this.server = 'idle';
    this.update();
  }

  /** A server `state` event. */
  serverState(state: AvatarStateName): void {
    if (this.ignoreServer) {
      if (state !== 'idle') return;
      this.ignoreServer = false;
    }
    this.server = state;
    this.update();
  }

  /** Interrupt, error or end: back to idle at once. */
  reset(): void {
    this.ignoreServer = this.pending || this.speaking || this.server !== 'idle';
    this.pending = false;
    this.speaking = false;
    this.server = 'idle';
    this.update();
  }

  private update(): void {
    const next: AvatarStateName = this.speaking ? 'talking' : this.pending ? 'thinking' : this.server;
    if (next === this.last) return;
    this.last = next;
    this.onChange(next);
  }
}
