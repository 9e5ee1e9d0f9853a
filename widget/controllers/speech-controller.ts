import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { SpeechPlayer } from '../audio/speech-player.js';
import { BrowserSpeech } from '../audio/browser-speech.js';
import type { MouthWeights } from '../audio/mouth-weights.js';
import { closedMouth } from '../audio/mouth-weights.js';
import type { ServerEventPayloads, WireEmotion } from '../transport/transport.js';

export interface SpeechCallbacks {
  /** Speech became audible (first clip of a queue, or browser speech started). */
  onStart(): void;
  /** Everything queued has been spoken (or stopped). */
  onIdle(): void;
  /** A clip could not be fetched or decoded (it is skipped). */
  onError(message: string): void;
  /** Clip `seq` of the reply started to sound. */
  onClipStart?(seq: number): void;
  /** A sentence started to sound that conveys `emotion` (undefined: a plain one). */
  onEmotion?(emotion: WireEmotion | undefined): void;
}

/** Silence between two clips shorter than this keeps the avatar talking (ms). */
const IDLE_GRACE_MS = 250;

/** Sentence ends after which browser speech may start speaking the text so far. */
const SENTENCE_END = /[.!?…。！？]+["')\]]*\s+/g;

/**
 * The avatar's voice on the element: streamed audio clips through a `SpeechPlayer` (WebAudio,
 * gapless, in `seq` order), or the browser's own speech (`tts-provider="browser"`), which speaks
 * the reply text sentence by sentence as it streams. Both give the mouth weights for lip-sync.
 * Disposed (AudioContext closed, speech cancelled) when the element leaves the page.
 */
export class SpeechController implements ReactiveController {
  private player: SpeechPlayer | undefined;
  private browser: BrowserSpeech | undefined;
  private pendingText = '';
  /** Emotion of the latest sentence in `pendingText` (browser speech). */
  private pendingEmotion: WireEmotion | undefined;
  /** Emotion of each enqueued clip, until it starts. */
  private readonly clipEmotions = new Map<number, WireEmotion | undefined>();
  private isMuted = false;
  private busy = false;
  /** Clips enqueued but not yet started or failed. */
  private readonly outstanding = new Set<number>();
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** Browser speech was asked to speak and has not gone idle yet. */
  private browserPending = false;

  constructor(
    host: ReactiveControllerHost,
    private readonly callbacks: SpeechCallbacks,
  ) {
    host.addController(this);
  }

  /** Whether speech is queued or playing. */
  get active(): boolean {
    return this.busy || this.browserPending || this.outstanding.size > 0;
  }

  /** Whether audio is audible right now (player or browser speech). */
  get playing(): boolean {
    return (this.player?.playing ?? false) || (this.browser !== undefined && this.busy);
  }

  get muted(): boolean {
    return this.isMuted;
  }

  set muted(value: boolean) {
    this.isMuted = value;
    if (this.player) this.player.muted = value;
    if (value) this.browser?.stop();
  }

  /** Uses browser speech for the text of replies (`tts-provider="browser"`), if the browser has it. */
  useBrowserSpeech(options: { lang?: string; voiceHint?: string } | undefined): boolean {
    this.browser?.removeEventListener('start', this.onStart);
    this.browser?.removeEventListener('idle', this.onBrowserIdle);
    this.browser?.dispose();
    this.browser = undefined;
    this.browserPending = false;
    if (!options || !BrowserSpeech.available()) return false;
    const speech = new BrowserSpeech({
      ...(options.lang && { lang: options.lang }),
      ...(options.voiceHint && { voiceHint: options.voiceHint }),
    });
    speech.addEventListener('start', this.onStart);
    speech.addEventListener('idle', this.onBrowserIdle);
    this.browser = speech;
    return true;
  }

  /** True when reply text is spoken by the browser. */
  get speaksText(): boolean {
    return this.browser !== undefined;
  }

  /** Resumes the AudioContext; call from a user gesture (send, click). */
  async unlock(): Promise<void> {
    await this.ensurePlayer().resume().catch(() => undefined);
  }

  /** Queues one synthesized sentence. */
  enqueue(audio: ServerEventPayloads['audio']): void {
    this.outstanding.add(audio.seq);
    this.clipEmotions.set(audio.seq, audio.emotion);
    this.ensurePlayer().enqueue({
      url: audio.url,
      seq: audio.seq,
      durationMs: audio.duration_ms,
      ...(audio.visemes && { visemes: audio.visemes }),
    });
  }

  /** Browser speech: adds reply text (with its sentence's emotion); complete sentences are spoken at once. */
  addText(delta: string, emotion?: WireEmotion): void {
    if (!this.browser) return;
    this.pendingText += delta;
    this.pendingEmotion = emotion;
    let cut = 0;
    for (const match of this.pendingText.matchAll(SENTENCE_END)) cut = match.index + match[0].length;
    if (cut > 0) this.speak(this.pendingText.slice(0, cut));
    this.pendingText = this.pendingText.slice(cut);
  }

  /** Browser speech: the reply is complete; speaks what is left. */
  flushText(): void {
    const rest = this.pendingText;
    this.pendingText = '';
    if (rest.trim()) this.speak(rest);
  }

  private speak(text: string): void {
    if (this.isMuted || !this.browser || !text.trim()) return;
    this.browserPending = true;
    const emotion = this.pendingEmotion;
    this.browser.speak(text.trim(), () => this.callbacks.onEmotion?.(emotion));
  }

  /** Lip-sync weights for this frame. */
  mouth(): MouthWeights {
    if (this.browser && this.busy) return this.browser.mouth();
    return this.player?.mouth() ?? closedMouth();
  }

  /** Stops all speech at once (interrupt, new turn). */
  stop(): void {
    this.pendingText = '';
    this.pendingEmotion = undefined;
    this.outstanding.clear();
    this.clipEmotions.clear();
    this.browserPending = false;
    this.player?.stop();
    this.browser?.stop();
    this.settle(true);
  }

  private ensurePlayer(): SpeechPlayer {
    if (!this.player) {
      const player = new SpeechPlayer({});
      player.muted = this.isMuted;
      player.addEventListener('start', this.onStart);
      player.addEventListener('idle', this.onIdle);
      player.addEventListener('clip', this.onClip);
      player.addEventListener('error', this.onClipError);
      this.player = player;
    }
    return this.player;
  }

  private readonly onStart = () => {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (this.busy) return;
    this.busy = true;
    this.callbacks.onStart();
  };

  private readonly onIdle = () => this.settle(false);

  private readonly onBrowserIdle = () => {
    this.browserPending = false;
    this.settle(false);
  };

  private readonly onClip = (event: Event) => {
    const { seq } = (event as CustomEvent<{ seq: number }>).detail;
    this.outstanding.delete(seq);
    this.callbacks.onClipStart?.(seq);
    const emotion = this.clipEmotions.get(seq);
    this.clipEmotions.delete(seq);
    this.callbacks.onEmotion?.(emotion);
  };

  private readonly onClipError = (event: Event) => {
    const { seq, error } = (event as CustomEvent<{ seq: number; error: unknown }>).detail;
    this.outstanding.delete(seq);
    this.callbacks.onError(`Speech clip ${seq} could not be played: ${error instanceof Error ? error.message : String(error)}`);
    this.settle(false);
  };

  /** Goes idle when nothing plays or waits; after a short grace unless `now`. */
  private settle(now: boolean): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (!now && (this.outstanding.size > 0 || this.player?.playing)) return;
    const finish = () => {
      this.idleTimer = undefined;
      if (!now && (this.outstanding.size > 0 || this.player?.playing)) return;
      if (!this.busy) return;
      this.busy = false;
      this.callbacks.onIdle();
    };
    if (now || !this.busy) finish();
    else this.idleTimer = setTimeout(finish, IDLE_GRACE_MS);
  }

  hostDisconnected(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.pendingText = '';
    this.busy = false;
    this.outstanding.clear();
    this.clipEmotions.clear();
    this.player?.removeEventListener('clip', this.onClip);
    this.player?.removeEventListener('error', this.onClipError);
    this.player?.removeEventListener('idle', this.onIdle);
    this.browser?.removeEventListener('idle', this.onBrowserIdle);
    for (const source of [this.player, this.browser]) {
      source?.removeEventListener('start', this.onStart);
      source?.dispose();
    }
    this.browserPending = false;
    this.player = undefined;
    this.browser = undefined;
  }
}
