import type { WireViseme } from '../../core/protocol/realtime-protocol.js';
import { AudioMouthAnalyser } from './audio-mouth-analyser.js';
import { closedMouth, smoothMouth, type MouthWeights } from './mouth-weights.js';
import { VisemeTimeline } from './viseme-timeline.js';

/** One synthesized sentence: a URL to fetch or the encoded bytes (MP3, WAV, … — anything the browser decodes). */
export interface SpeechClip {
  url?: string;
  bytes?: ArrayBuffer;
  /** Order within the reply, from 0. Clips play strictly in `seq` order. */
  seq: number;
  /** Informational: scheduling uses the decoded duration, which is exact. */
  durationMs?: number;
  visemes?: readonly WireViseme[];
}

/** When a clip plays, on the AudioContext clock (seconds). */
export interface ScheduledClip {
  readonly seq: number;
  readonly start: number;
  readonly end: number;
}

/** Seconds between "now" and the first clip of a run, so its start is never in the past. */
const START_LEAD_S = 0.05;
/** A missing `seq` is skipped after this long while later clips are ready (ms). */
const GAP_TIMEOUT_MS = 5000;
/** How much analysed-mouth history is kept to align it with the audible output (s). */
const HISTORY_S = 0.5;

interface PendingClip {
  readonly seq: number;
  readonly timeline?: VisemeTimeline;
  buffer?: AudioBuffer;
  failed?: boolean;
}

interface PlayingClip extends ScheduledClip {
  readonly source: AudioBufferSourceNode;
  readonly timeline?: VisemeTimeline;
  announced: boolean;
}

/**
 * Plays a reply's speech clips gaplessly, in order, through WebAudio, and tells the stage how the
 * mouth should look at the moment the listener hears it.
 *
 * Clips are fetched and decoded in parallel as they are enqueued, but scheduled strictly in `seq`
 * order, back to back on the AudioContext clock (clip n+1 starts at the exact end of clip n; a
 * later seq that is ready first waits for the earlier one). The mouth follows the clip's viseme
 * timeline when it has one; otherwise an analysis of the playing audio (loudness −34…−12 dBFS and
 * band-energy ratios). `muted` silences the output only: the analysis taps the signal before the
 * volume, so a muted avatar still moves its lips.
 *
 * @fires start - the first clip of a run starts to play
 * @fires clip - a clip starts to play; `detail: { seq }`
 * @fires idle - everything queued has played (or `stop()` was called)
 * @fires error - a clip failed to load or decode and was skipped; `detail: { seq, error }`
 *
 * @example
 * const player = new SpeechPlayer();
 * button.onclick = () => player.resume();          // unlock audio after a gesture
 * socket.on('audio', (a) => player.enqueue({ url: a.url, seq: a.seq, visemes: a.visemes }));
 * stage.onFrame = () => stage.setMouth(player.mouth());
 */
export class SpeechPlayer extends EventTarget {
  readonly #context: AudioContext;
  readonly #ownsContext: boolean;
  readonly #fetch: typeof fetch;
  readonly #output: GainNode;
  readonly #analyser: AudioMouthAnalyser;
  readonly #pending = new Map<number, PendingClip>();
  #playing: PlayingClip[] = [];
  #history: ScheduledClip[] = [];
  #nextSeq = 0;
  #endOfQueue = 0;
  #running = false;
  #muted = false;
  #abort = new AbortController();
  #gapTimer: ReturnType<typeof setTimeout> | undefined;
  #announceTimer: ReturnType<typeof setTimeout> | undefined;
  #mouth = closedMouth();
  #mouthTime = -1;
  /** Analysed (raw) mouth weights by context time, to pick the one the listener hears now. */
  #analysed: { time: number; weights: MouthWeights }[] = [];
  #disposed = false;

  /**
   * @param options.context  AudioContext to play on (default: a new one, closed on `dispose()`)
   * @param options.fetch    for clip URLs (default: global fetch)
   * @param options.destination where the sound goes (default: `context.destination`)
   */
  constructor(options: { context?: AudioContext; fetch?: typeof fetch; destination?: AudioNode } = {}) {
    super();
    this.#ownsContext = !options.context;
    this.#context = options.context ?? new AudioContext({ latencyHint: 'interactive' });
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#analyser = new AudioMouthAnalyser(this.#context);
    this.#output = this.#context.createGain();
    this.#analyser.input.connect(this.#output);
    this.#output.connect(options.destination ?? this.#context.destination);
  }

  /** The context time of the sound leaving the speakers now (current time minus output latency). */
  get audibleTime(): number {
    return this.#audibleTime(this.#context.currentTime);
  }

  /** The AudioContext clips play on (its clock is the one `schedule` uses). */
  get context(): AudioContext {
    return this.#context;
  }

  get muted(): boolean {
    return this.#muted;
  }

  set muted(value: boolean) {
    this.#muted = value;
    this.#output.gain.setValueAtTime(value ? 0 : 1, this.#context.currentTime);
  }

  /** True from the moment a clip is scheduled until the queue has drained or `stop()`. */
  get playing(): boolean {
    return this.#running;
  }

  /** Clips of the current (or last) run, in play order; a new run starts after `idle`/`stop()`. */
  get schedule(): readonly ScheduledClip[] {
    return this.#history;
  }

  /** Adds a clip. It starts decoding at once and plays after every clip with a lower `seq`. */
  enqueue(clip: SpeechClip): void {
    if (this.#disposed) throw new Error('SpeechPlayer is disposed');
    if (clip.seq < this.#nextSeq) {
      // A lower seq than expected starts a new reply (the previous one was not stopped): it
      // queues after what is already scheduled.
      if (this.#pending.size > 0) {
        this.#fail(clip.seq, new Error(`clip ${clip.seq} arrived after later clips of its reply`));
        return;
      }
      this.#nextSeq = clip.seq;
    }
    const entry: PendingClip = {
      seq: clip.seq,
      ...(clip.visemes?.length ? { timeline: new VisemeTimeline(clip.visemes) } : {}),
    };
    this.#pending.set(clip.seq, entry);
    const signal = this.#abort.signal;
    void this.#decode(clip, signal).then(
      (buffer) => {
        if (signal.aborted || this.#pending.get(clip.seq) !== entry) return;
        entry.buffer = buffer;
        this.#pump();
      },
      (error: unknown) => {
        if (signal.aborted || this.#pending.get(clip.seq) !== entry) return;
        entry.failed = true;
        this.#fail(clip.seq, error);
        this.#pump();
      },
    );
  }

  /** Interrupts: silences at once, drops everything queued, and resets `seq` to 0. */
  stop(): void {
    this.#abort.abort();
    this.#abort = new AbortController();
    for (const p of this.#playing) {
      p.source.onended = null;
      try {
        p.source.stop();
      } catch {
        /* never started */
      }
      p.source.disconnect();
    }
    this.#playing = [];
    this.#pending.clear();
    this.#nextSeq = 0;
    this.#analysed = [];
    this.#mouth = closedMouth();
    clearTimeout(this.#gapTimer);
    clearTimeout(this.#announceTimer);
    this.#gapTimer = this.#announceTimer = undefined;
    this.#finishRun();
  }

  /** Unlocks the AudioContext; call from a user gesture (click, key press). */
  async resume(): Promise<void> {
    if (this.#context.state === 'suspended') await this.#context.resume();
  }

  /**
   * Mouth weights for what the listener hears now: the viseme timeline sampled at the exact
   * playback position (context time minus output latency), or the smoothed audio analysis from
   * that moment. Call once per rendered frame.
   */
  mouth(): MouthWeights {
    const now = this.#context.currentTime;
    const heard = this.#audibleTime(now);
    const clip = this.#playing.find((p) => heard >= p.start && heard < p.end);
    let target: MouthWeights;
    if (!clip) target = closedMouth();
    else if (clip.timeline) target = clip.timeline.sample((heard - clip.start) * 1000);
    else target = this.#analysedAt(now, heard);
    const dt = this.#mouthTime < 0 ? 1 / 60 : Math.max(0, Math.min(0.1, now - this.#mouthTime));
    this.#mouthTime = now;
    // Timelines already cross-fade; analysis needs smoothing against frame-to-frame jitter.
    if (clip?.timeline) this.#mouth = { ...target };
    else smoothMouth(this.#mouth, target, dt);
    return { ...this.#mouth };
  }

  dispose(): void {
    if (this.#disposed) return;
    this.stop();
    this.#disposed = true;
    this.#analyser.dispose();
    this.#output.disconnect();
    if (this.#ownsContext) void this.#context.close();
  }

  async #decode(clip: SpeechClip, signal: AbortSignal): Promise<AudioBuffer> {
    let bytes = clip.bytes;
    if (!bytes) {
      if (!clip.url) throw new Error(`clip ${clip.seq} has neither url nor bytes`);
      const response = await this.#fetch(clip.url, { signal });
      if (!response.ok) throw new Error(`clip ${clip.seq}: HTTP ${response.status}`);
      bytes = await response.arrayBuffer();
    } else {
      // decodeAudioData detaches its argument; keep the caller's buffer intact.
      bytes = bytes.slice(0);
    }
    return this.#context.decodeAudioData(bytes);
  }

  /** Schedules every clip that is next in order and ready. */
  #pump(): void {
    if (this.#disposed) return;
    for (;;) {
      const entry = this.#pending.get(this.#nextSeq);
      if (!entry || (!entry.buffer && !entry.failed)) break;
      this.#pending.delete(entry.seq);
      this.#nextSeq++;
      if (entry.buffer) this.#play(entry, entry.buffer);
    }
    clearTimeout(this.#gapTimer);
    this.#gapTimer = undefined;
    if (this.#pending.size > 0 && [...this.#pending.values()].some((p) => p.buffer || p.failed)) {
      // A later clip is ready but an earlier one never came: wait, then give up on the gap.
      this.#gapTimer = setTimeout(() => {
        this.#gapTimer = undefined;
        const waiting = [...this.#pending.keys()].sort((a, b) => a - b)[0];
        if (waiting === undefined) return;
        this.#fail(this.#nextSeq, new Error(`clip ${this.#nextSeq} never arrived`));
        this.#nextSeq = waiting;
        this.#pump();
      }, GAP_TIMEOUT_MS);
    }
    if (this.#running && this.#playing.length === 0 && this.#pending.size === 0) this.#finishRun();
  }

  #play(entry: PendingClip, buffer: AudioBuffer): void {
    if (!this.#running) this.#history = [];
    const now = this.#context.currentTime;
    // Back to back: the exact end of the previous clip when it is still ahead of us.
    const start = this.#endOfQueue > now ? this.#endOfQueue : now + START_LEAD_S;
    const source = this.#context.createBufferSource();
    source.buffer = buffer;
    source.connect(this.#analyser.input);
    source.start(start);
    const playing: PlayingClip = {
      seq: entry.seq,
      start,
      end: start + buffer.duration,
      source,
      ...(entry.timeline ? { timeline: entry.timeline } : {}),
      announced: false,
    };
    this.#endOfQueue = playing.end;
    this.#playing.push(playing);
    this.#history.push({ seq: playing.seq, start: playing.start, end: playing.end });
    source.onended = () => {
      source.disconnect();
      this.#playing = this.#playing.filter((p) => p !== playing);
      this.#announce();
      this.#pump();
    };
    this.#running = true;
    this.#announce();
  }

  /** Dispatches `start`/`clip` when a scheduled clip becomes audible. */
  #announce(): void {
    clearTimeout(this.#announceTimer);
    this.#announceTimer = undefined;
    const now = this.#context.currentTime;
    for (const p of this.#playing) {
      if (p.announced) continue;
      if (p.start > now + 0.005) {
        // Re-check then; a suspended context keeps currentTime still, so this simply repeats.
        const wait = Math.max(10, (p.start - now) * 1000);
        this.#announceTimer = setTimeout(() => this.#announce(), wait);
        return;
      }
      p.announced = true;
      if (this.#history[0]?.seq === p.seq && this.#history[0].start === p.start) {
        this.dispatchEvent(new CustomEvent('start'));
      }
      this.dispatchEvent(new CustomEvent('clip', { detail: { seq: p.seq } }));
    }
  }

  #finishRun(): void {
    this.#endOfQueue = 0;
    if (!this.#running) return;
    this.#running = false;
    this.dispatchEvent(new CustomEvent('idle'));
  }

  #fail(seq: number, error: unknown): void {
    this.dispatchEvent(new CustomEvent('error', { detail: { seq, error } }));
  }

  /** Context time of the sample leaving the speakers now. */
  #audibleTime(now: number): number {
    const ctx = this.#context;
    if (typeof ctx.getOutputTimestamp === 'function') {
      const ts = ctx.getOutputTimestamp();
      if (ts.contextTime !== undefined && ts.performanceTime !== undefined && ts.contextTime > 0) {
        const t = ts.contextTime + (performance.now() - ts.performanceTime) / 1000;
        if (t <= now + 0.01 && t > now - 1) return t;
      }
    }
    return now - (ctx.outputLatency || 0) - (ctx.baseLatency || 0);
  }

  /** Raw analysed weights now, and the recorded ones from when the audible sound was analysed. */
  #analysedAt(now: number, heard: number): MouthWeights {
    const history = this.#analysed;
    history.push({ time: now, weights: this.#analyser.sample() });
    while (history.length > 2 && history[0]!.time < now - HISTORY_S) history.shift();
    // The analyser sees samples as they are rendered, ahead of the speakers by the output
    // latency: use the newest analysis not later than the audible time.
    for (let i = history.length - 1; i >= 0; i--) if (history[i]!.time <= heard) return history[i]!.weights;
    return history[0]!.weights;
  }
}
