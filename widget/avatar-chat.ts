import { LitElement, html, nothing } from 'lit';
import type { PropertyValues, TemplateResult } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import type { AvatarStage } from './stage/avatar-stage.js';
import { AvatarStateMachine } from './controllers/avatar-state-machine.js';
import { ConversationController } from './controllers/conversation-controller.js';
import type { ConversationSettings } from './controllers/conversation-controller.js';
import { SpeechController } from './controllers/speech-controller.js';
import { SpeechRecognitionController } from './controllers/speech-recognition-controller.js';
import { StageController } from './controllers/stage-controller.js';
import { TranscriptController } from './controllers/transcript-controller.js';
import type { AvatarDetail } from './transport/api-client.js';
import type { AvatarStateName, ConnectionState, ServerEventPayloads, Transport, TransportKind, WireEmotion, WireError } from './transport/transport.js';
import { WidgetError } from './transport/transport.js';
import { avatarChatStyles } from './ui/avatar-chat-styles.js';
import { renderComposer } from './ui/render-composer.js';
import { renderTranscript } from './ui/render-transcript.js';
import type { TranscriptEntry } from './ui/transcript-entry.js';
import { RETRYABLE, deviceProblem, setupFailure, turnFailure } from './ui/plain-language.js';
import type { StatusView, WidgetStatus } from './ui/plain-language.js';

/** `avatar-ready` detail: the conversation is open and the avatar is shown. */
export interface AvatarReadyDetail {
  conversationId: string;
  avatarId: string;
  /** True when WebGL is unavailable (or the model failed) and the preview image is shown. */
  fallback: boolean;
}

/** `avatar-state` detail. */
export interface AvatarStateDetail {
  state: AvatarStateName;
}

/** `avatar-message` detail: a complete user message, or a complete (or interrupted) reply. */
export interface AvatarMessageDetail {
  role: 'user' | 'assistant';
  content: string;
  /** Stored message id (assistant replies). */
  id?: string;
  usage?: ServerEventPayloads['done']['usage'];
  /** Assistant replies: ms from send to the first text and to the first audio clip. */
  timings?: { first_token_ms?: number; first_audio_ms?: number };
}

/** `avatar-error` detail: the server's error code (`unauthorized`, `rate_limited`, …) or a widget one. */
export interface AvatarErrorDetail {
  code: string;
  message: string;
}

/**
 * `avatar-safety` detail: a safety check fired (docs/safety.md). With `escalation` the conversation
 * was handed to a person — a host can open its own live chat or call-back form here.
 */
export type AvatarSafetyDetail = ServerEventPayloads['safety'];

/** `avatar-status` detail: what the element is doing now, and why in plain words when it is not ready. */
export interface AvatarStatusDetail {
  status: WidgetStatus;
  message?: string;
}

/** Shown under the stage once the conversation is escalated; the avatar says the host's own hand-off message. */
const HANDOFF_NOTICE = 'A member of the team has been asked to join this conversation. You can keep writing here meanwhile.';

/** Attributes that change which conversation the element talks to. */
const CONNECTION_PROPS = ['server', 'token', 'sessionUrl', 'apiKey', 'avatarId', 'conversationId', 'ttsProvider', 'transport'] as const;

/**
 * `<avatar-chat>`: a 3D avatar that talks. Two lines on any page:
 *
 * ```html
 * <script type="module" src="https://your-server/widget/avatar-chat.js"></script>
 * <avatar-chat server="https://your-server/v1" session-url="/api/avatar-session"></avatar-chat>
 * ```
 *
 * The host's `session-url` returns `{token}` (a `sess_…` token its backend minted with
 * `POST /v1/sessions`), so no key is ever in page source. `token` + `conversation-id` pass a
 * session directly; `api-key` is for local development only.
 *
 * The standard `lang` attribute sets the language of browser speech and the microphone.
 *
 * @fires avatar-ready - The conversation is open and the avatar (or its preview) is shown. Detail: {@link AvatarReadyDetail}.
 * @fires avatar-state - The avatar switched between `idle`, `thinking` and `talking`. Detail: {@link AvatarStateDetail}.
 * @fires avatar-message - A message was sent, or a reply completed. Detail: {@link AvatarMessageDetail}.
 * @fires avatar-error - Something failed (session, network, server, model, microphone). Detail: {@link AvatarErrorDetail}.
 * @fires avatar-status - The element's status changed: connecting, ready, reconnecting, offline, expired, failed, ended. Detail: {@link AvatarStatusDetail}.
 * @fires avatar-safety - A safety check fired; with `escalation`, the conversation was handed to a person. Detail: {@link AvatarSafetyDetail}.
 *
 * @csspart stage - The avatar area (canvas, preview image, progress bar).
 * @csspart preview - The preview image shown without WebGL.
 * @csspart progress - The model download progress bar.
 * @csspart status - The state badge on the stage.
 * @csspart transcript - The conversation log.
 * @csspart message - Every transcript line; also `message-user`, `message-assistant`, `message-notice`.
 * @csspart notice - The status shown on the stage while the element is not ready (`data-status`), with a `retry-button` where starting again can help.
 * @csspart alert - A problem the visitor should know of (a failed turn, a blocked microphone, no voice), with a `dismiss-button`.
 * @csspart handoff - The notice shown once the conversation is handed to a person.
 * @csspart composer - The input row.
 * @csspart input - The text field.
 * @csspart button - Every button; also `send-button`, `stop-button`, `mute-button`, `mic-button`.
 *
 * @cssprop --avatar-chat-accent - Buttons, progress and focus rings.
 * @cssprop --avatar-chat-on-accent - Text on the accent colour (the Send button).
 * @cssprop --avatar-chat-background - Background of the element.
 * @cssprop --avatar-chat-foreground - Text colour.
 * @cssprop --avatar-chat-font - Font shorthand.
 * @cssprop --avatar-chat-radius - Corner radius.
 * @cssprop --avatar-chat-border - Border shorthand.
 * @cssprop --avatar-chat-stage-height - Height of the avatar area (default 360px).
 * @cssprop --avatar-chat-stage-background - Background behind the avatar.
 * @cssprop --avatar-chat-transcript-height - Maximum transcript height (default 220px).
 * @cssprop --avatar-chat-user-background - Background of the user's messages.
 * @cssprop --avatar-chat-assistant-background - Background of the avatar's messages.
 */
export class AvatarChat extends LitElement {
  static override styles = avatarChatStyles;

  /** API base URL ending in `/v1` (relative URLs resolve against the page). */
  @property() accessor server = '';
  /** A browser session token (`sess_…`); use with `conversation-id` unless the token came from `session-url`. */
  @property() accessor token: string | undefined;
  /** The host site's endpoint that answers `POST` with `{token, expires_at?, conversation_id?}`. */
  @property({ attribute: 'session-url' }) accessor sessionUrl: string | undefined;
  /** Development only: an API key used to create the session (a live key logs a warning). */
  @property({ attribute: 'api-key' }) accessor apiKey: string | undefined;
  /** The avatar of a new conversation (with `api-key` or `session-url`). */
  @property({ attribute: 'avatar-id' }) accessor avatarId: string | undefined;
  /** The conversation of a `token`. */
  @property({ attribute: 'conversation-id' }) accessor conversationId: string | undefined;
  /** `browser` speaks replies with the Web Speech API; other values pick the server's engine. */
  @property({ attribute: 'tts-provider' }) accessor ttsProvider: string | undefined;
  /** `socket.io` (default) or `sse`. */
  @property() accessor transport: TransportKind = 'socket.io';
  /**
   * Caps the canvas resolution (device pixels per CSS pixel). Unset, the stage picks: 1 on software
   * renderers, 1.5 on touch devices, else 2 — sharpness traded for frame rate where it matters.
   */
  @property({ attribute: 'max-pixel-ratio', type: Number }) accessor maxPixelRatio: number | undefined;
  /** Silences the avatar (text still streams). */
  @property({ type: Boolean, reflect: true }) accessor muted = false;

  @state() private accessor _state: AvatarStateName = 'idle';
  @state() private accessor _ready = false;
  @state() private accessor _ended = false;
  @state() private accessor _status: StatusView = { status: 'connecting', message: 'Connecting…' };
  /** The visitor-facing problem shown under the stage; cleared by the next good reply or dismissed. */
  @state() private accessor _alert: { kind: 'turn' | 'device'; text: string } | undefined;
  /** Set once the conversation is handed to a person (from the server's `safety` event or on load). */
  @state() private accessor _handoff: string | undefined;
  @state() private accessor _avatar: AvatarDetail | undefined;
  @state() private accessor _modelFailed = false;
  @state() private accessor _interim = '';

  @query('.canvas-host') private accessor _canvasHost!: HTMLElement;
  @query('input[name="message"]') private accessor _input!: HTMLInputElement;

  private readonly _stage = new StageController(this, { maxFps: 30, maxPixelRatio: () => this.maxPixelRatio });
  private readonly _speech = new SpeechController(this, {
    onStart: () => this._onSpeechStart(),
    onIdle: () => this._onSpeechIdle(),
    onError: (message) => {
      this._alert = { kind: 'device', text: deviceProblem('audio_error', message) };
      // Nothing left that could sound: the text must not wait for it.
      if (!this._speech.active) this._transcript.revealAll();
      this._emitError('audio_error', message);
    },
    onClipStart: (seq) => this._transcript.spoken(seq),
    // The face follows the words: a smile on a greeting, a small frown on an apology.
    onEmotion: (emotion) => this._stage.setEmotion(emotion),
  });
  private readonly _conversation = new ConversationController(this);
  private readonly _mic = new SpeechRecognitionController(this, {
    onInterim: (text) => (this._interim = text),
    onFinal: (text) => this._onMicFinal(text),
    onError: (code, message) => {
      this._alert = { kind: 'device', text: deviceProblem(code, message) };
      this._emitError(code, message);
    },
  });
  private readonly _machine = new AvatarStateMachine((next) => this._onStateChange(next));
  private readonly _transcript = new TranscriptController(this);

  private _generation = 0;
  private _bootQueued = false;
  /** After a local interrupt over socket.io, events of the stopped reply until the server says idle. */
  private _dropStale = false;
  /** The transcript lines last scrolled into view. */
  private _scrolledEntries: readonly TranscriptEntry[] | undefined;

  /** What the avatar is doing now. */
  get avatarState(): AvatarStateName {
    return this._state;
  }

  /** What the element is doing: see {@link WidgetStatus}. */
  get status(): WidgetStatus {
    return this._status.status;
  }

  /** Starts again after a failure (the Retry button does this): a new session, conversation and connection. */
  retry(): void {
    this._queueBoot();
  }

  /** True once `avatar-ready` fired (and until the element is removed or re-targeted). */
  get ready(): boolean {
    return this._ready;
  }

  /** True while reply audio (or browser speech) is audible. */
  get playing(): boolean {
    return this._speech.playing;
  }

  /** The 3D stage, for advanced use and tests; undefined before load, in fallback mode and after removal. */
  get stage(): AvatarStage | undefined {
    return this._stage.stage;
  }

  /** The conversation id, once connected. */
  get activeConversationId(): string | undefined {
    return this._conversation.connection?.conversationId;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this._queueBoot();
  }

  override disconnectedCallback(): void {
    // Controllers dispose the stage, audio, socket and microphone (and forget the open reply) in hostDisconnected.
    super.disconnectedCallback();
    this._generation++;
    this._ready = false;
    this._machine.reset();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('muted')) this._speech.muted = this.muted;
    if (this.hasUpdated && CONNECTION_PROPS.some((p) => changed.has(p))) this._queueBoot();
  }

  /** Sends a user message; the reply streams into the transcript and the avatar speaks it. */
  async send(text: string): Promise<void> {
    const content = text.trim();
    if (!content) return;
    const connection = this._conversation.connection;
    if (!connection || !this._ready || this._status.status !== 'ready') {
      this._emitError('not_ready', 'The avatar is not connected; wait for avatar-status "ready"');
      return;
    }
    if (this._ended) {
      this._emitError('conversation_ended', 'This conversation has ended');
      return;
    }
    if (this._transcript.replying || this._speech.active) this._stopLocal();
    void this._speech.unlock();
    this._transcript.sent(content);
    this._machine.sent();
    this._emit<AvatarMessageDetail>('avatar-message', { role: 'user', content });
    try {
      await connection.transport.send(content);
    } catch (error) {
      this._onServerError(WidgetError.from(error).toWire());
    }
  }

  /** Stops the avatar: audio at once, and the reply on the server. */
  async interrupt(): Promise<void> {
    this._stopLocal();
    await this._conversation.connection?.transport.interrupt().catch(() => undefined);
  }

  /** Ends the conversation on the server; the element stays readable but takes no more messages. */
  async end(): Promise<void> {
    const connection = this._conversation.connection;
    if (!connection) return;
    this._stopLocal();
    try {
      await connection.api.endConversation(connection.conversationId);
      this._markEnded();
    } catch (error) {
      const e = WidgetError.from(error);
      this._emitError(e.code, e.message);
    }
  }

  // ── lifecycle ─────────────────────────────────────────────────────────────────────────────

  private _queueBoot(): void {
    if (this._bootQueued) return;
    this._bootQueued = true;
    void this.updateComplete.then(() => {
      this._bootQueued = false;
      if (this.isConnected) void this._boot();
    });
  }

  private async _boot(): Promise<void> {
    const generation = ++this._generation;
    this._ready = false;
    this._setStatus('connecting', 'Connecting…');
    this._alert = undefined;
    this._transcript.abandon();
    this._speech.stop();
    this._machine.reset();
    this._modelFailed = false;
    this._ended = false;
    this._handoff = undefined;
    this._stage.dispose();
    if (this.apiKey?.startsWith('svc_live_')) {
      console.warn('<avatar-chat>: a live API key is in page source. Use session-url (or token) in production; api-key is for development.');
    }
    const settings: ConversationSettings = {
      server: this.server,
      token: this.token || undefined,
      sessionUrl: this.sessionUrl || undefined,
      apiKey: this.apiKey || undefined,
      avatarId: this.avatarId || undefined,
      conversationId: this.conversationId || undefined,
      ttsProvider: this.ttsProvider || undefined,
      transport: this.transport === 'sse' ? 'sse' : 'socket.io',
    };
    try {
      const connection = await this._conversation.open(settings, (transport) => this._wire(transport));
      if (generation !== this._generation) return;
      const { conversation, avatar } = connection;
      this._avatar = avatar;
      this._ended = conversation.status === 'ended';
      this._transcript.pace(false);
      if (conversation.status === 'escalated') this._handoff = HANDOFF_NOTICE;
      this._transcript.load(conversation.messages ?? []);
      const browserSpeech = (this.ttsProvider || conversation.config?.tts_provider) === 'browser';
      this._speech.useBrowserSpeech(
        browserSpeech ? { lang: this.lang || document.documentElement.lang || '', voiceHint: avatar.default_voice ?? '' } : undefined,
      );
      // Server speech: the transcript shows each sentence as it starts to sound.
      this._transcript.pace(!browserSpeech);
      await this.updateComplete;
      try {
        await this._stage.show(avatar, this._canvasHost);
      } catch (error) {
        if (generation !== this._generation) return;
        this._stage.dispose();
        this._modelFailed = true;
        this._emitError('model_error', `The avatar model could not be shown: ${WidgetError.from(error).message}`);
      }
      if (generation !== this._generation) return;
      this._stage.setState(this._state);
      this._ready = true;
      if (this._ended) this._setStatus('ended', 'The conversation has ended.');
      else this._setStatus('ready');
      this._emit<AvatarReadyDetail>('avatar-ready', {
        conversationId: connection.conversationId,
        avatarId: avatar.id,
        fallback: this._stage.fallback || this._modelFailed,
      });
    } catch (error) {
      if (generation !== this._generation) return;
      const e = WidgetError.from(error);
      if (e.code === 'aborted') return;
      const failure = setupFailure(e);
      this._setStatus(failure.status, failure.message);
      this._emitError(e.code, e.message);
    }
  }

  private _wire(transport: Transport): void {
    transport.on('message', ({ delta, emotion }) => this._onDelta(delta, emotion));
    transport.on('audio', (audio) => this._onAudio(audio));
    transport.on('state', ({ state }) => this._onServerState(state));
    transport.on('done', (done) => this._onDone(done));
    transport.on('error', (error) => this._onServerError(error));
    transport.on('conversation.ended', () => this._markEnded());
    transport.on('safety', (safety) => this._onSafety(safety));
    transport.onConnection((state) => this._onConnection(state));
  }

  private _onConnection(state: ConnectionState): void {
    // An ended conversation or an expired session stays so: reconnecting cannot change that.
    if (this._ended || this._status.status === 'expired') return;
    if (state === 'reconnecting') {
      this._stopLocal();
      this._setStatus('reconnecting', 'Connection lost. Reconnecting…');
    } else if (state === 'lost') {
      this._setStatus('offline', "The connection was lost and couldn't be restored.");
    } else {
      this._setStatus('ready');
      if (this._alert?.kind === 'turn') this._alert = undefined;
    }
  }

  // ── server events ─────────────────────────────────────────────────────────────────────────

  private _onDelta(delta: string, emotion: WireEmotion | undefined): void {
    if (this._dropStale) return;
    this._transcript.delta(delta);
    this._speech.addText(delta, emotion);
  }

  private _onAudio(audio: ServerEventPayloads['audio']): void {
    if (this._dropStale) return;
    this._transcript.audio(audio.seq);
    this._speech.enqueue(audio);
  }

  private _onServerState(state: AvatarStateName): void {
    if (this._dropStale) {
      // The stopped reply ends with `idle`; a new one starts with `thinking`.
      if (state === 'idle') this._dropStale = false;
      if (state !== 'thinking') return;
      this._dropStale = false;
    }
    this._machine.serverState(state);
  }

  private _onDone(done: ServerEventPayloads['done']): void {
    if (this._dropStale) return;
    const reply = this._transcript.done(done.id);
    this._speech.flushText();
    this._machine.replyDone(this._speech.active);
    if (!this._speech.active) this._transcript.revealAll();
    if (this._alert?.kind === 'turn') this._alert = undefined;
    if (!reply) return;
    this._emit<AvatarMessageDetail>('avatar-message', { role: 'assistant', content: reply.content, id: reply.id, usage: done.usage, timings: reply.timings });
  }

  private _onServerError({ error }: WireError): void {
    if (this._dropStale) return;
    this._transcript.failed();
    this._speech.stop();
    this._transcript.revealAll();
    this._machine.reset();
    if (error.code === 'unauthorized') this._setStatus('expired', 'This chat session has expired.');
    else this._alert = { kind: 'turn', text: turnFailure(error.code, error.message) };
    this._emitError(error.code, error.message);
  }

  private _onSafety(safety: ServerEventPayloads['safety']): void {
    if (this._dropStale) return;
    if (safety.escalation) this._handoff = HANDOFF_NOTICE;
    this._emit<AvatarSafetyDetail>('avatar-safety', safety);
  }

  private _markEnded(): void {
    if (this._ended) return;
    this._stopLocal();
    this._ended = true;
    this._transcript.notice('The conversation has ended.');
    this._setStatus('ended', 'The conversation has ended.');
  }

  private _setStatus(status: WidgetStatus, message?: string): void {
    if (this._status.status === status && this._status.message === message) return;
    this._status = message === undefined ? { status, message: '' } : { status, message };
    this._emit<AvatarStatusDetail>('avatar-status', message === undefined ? { status } : { status, message });
  }

  // ── speech and state ──────────────────────────────────────────────────────────────────────

  private _onSpeechStart(): void {
    this._machine.speechStarted();
    this._stage.followMouth(() => this._speech.mouth());
  }

  private _onSpeechIdle(): void {
    this._transcript.revealAll();
    this._machine.speechIdle();
    this._stage.closeMouth();
  }

  private _onStateChange(next: AvatarStateName): void {
    this._state = next;
    this._stage.setState(next);
    this._emit<AvatarStateDetail>('avatar-state', { state: next });
  }

  /** Stops speech and marks the open reply interrupted (locally; the server is told separately). */
  private _stopLocal(): void {
    if (this._transcript.interrupted() && this.transport !== 'sse') this._dropStale = true;
    this._speech.stop();
    this._stage.closeMouth();
    this._machine.reset();
  }

  // ── UI handlers ───────────────────────────────────────────────────────────────────────────

  private readonly _onSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    const input = this._input;
    const text = input.value;
    if (!text.trim()) return;
    input.value = '';
    void this.send(text);
  };

  /** Typing while the avatar talks interrupts it (barge-in). */
  private readonly _onInput = () => {
    if (this._state === 'talking') void this.interrupt();
  };

  private readonly _onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && this._state !== 'idle') {
      event.preventDefault();
      void this.interrupt();
    }
  };

  /** Stop disables itself: the input keeps the keyboard focus instead of the page. */
  private readonly _onStop = () => {
    this._input?.focus();
    void this.interrupt();
  };

  private readonly _onRetry = () => this.retry();

  private readonly _onDismiss = () => {
    this._alert = undefined;
  };

  private readonly _onMute = () => {
    this.muted = !this.muted;
  };

  private readonly _onMic = () => {
    if (this._mic.listening) {
      this._mic.stop();
      return;
    }
    if (this._state === 'talking') void this.interrupt();
    void this._speech.unlock();
    this._mic.start(this.lang || undefined);
  };

  private _onMicFinal(text: string): void {
    this._interim = '';
    if (text) void this.send(text);
  }

  // ── helpers ───────────────────────────────────────────────────────────────────────────────

  private _emit<T>(type: string, detail: T): void {
    this.dispatchEvent(new CustomEvent<T>(type, { detail, bubbles: true, composed: true }));
  }

  private _emitError(code: string, message: string): void {
    this._emit<AvatarErrorDetail>('avatar-error', { code, message });
  }

  protected override updated(changed: PropertyValues<this>): void {
    const entries = this._transcript.entries;
    if (entries === this._scrolledEntries && !changed.has('_interim' as keyof AvatarChat)) return;
    this._scrolledEntries = entries;
    const log = this.renderRoot.querySelector('.transcript');
    if (log) log.scrollTop = log.scrollHeight;
  }

  // ── render ────────────────────────────────────────────────────────────────────────────────

  protected override render(): TemplateResult {
    const avatar = this._avatar;
    const progress = this._stage.progress;
    const entries = this._transcript.entries;
    const { status, message } = this._status;
    const fallback = this._stage.fallback || this._modelFailed;
    // A custom avatar may have no preview: then the stage stays empty beside the chat.
    const preview = avatar?.preview_url && fallback ? { src: avatar.preview_url, alt: avatar.name } : undefined;
    const usable = status === 'ready';
    return html`
      <div part="stage" class="stage" data-state=${this._state} data-status=${status}>
        <div class="canvas-host"></div>
        ${preview ? html`<img part="preview" class="preview" src=${preview.src} alt=${preview.alt} />` : nothing}
        ${progress !== undefined
          ? html`<div
              part="progress"
              class="progress"
              role="progressbar"
              aria-label="Loading the avatar"
              aria-valuemin="0"
              aria-valuemax="100"
              aria-valuenow=${Math.round(progress * 100)}
            >
              <span style="width:${(progress * 100).toFixed(1)}%"></span>
            </div>`
          : nothing}
        ${avatar
          ? html`<span part="status" class="status" aria-hidden="true"
              >${fallback ? `${avatar.name} · 3D view unavailable` : `${avatar.name} · ${this._state}`}</span
            >`
          : nothing}
        ${status === 'ready' || status === 'ended'
          ? nothing
          : html`<div part="notice" class="notice" data-status=${status} role=${RETRYABLE.has(status) ? 'alert' : 'status'}>
              <span>${message}</span>
              ${RETRYABLE.has(status)
                ? html`<button part="button retry-button" type="button" @click=${this._onRetry}>Retry</button>`
                : nothing}
            </div>`}
      </div>
      ${this._alert
        ? html`<p part="alert" class="alert" role="alert">
            <span>${this._alert.text}</span
            ><button part="button dismiss-button" type="button" aria-label="Dismiss" @click=${this._onDismiss}>×</button>
          </p>`
        : nothing}
      ${this._handoff && !this._ended
        ? html`<p part="handoff" class="handoff" role="status"><strong>Handing over to a person.</strong> ${this._handoff}</p>`
        : nothing}
      ${renderTranscript(
        this._interim ? [...entries, { key: -1, role: 'user', text: this._interim, status: 'streaming' }] : entries,
        avatar?.name ?? '',
      )}
      ${renderComposer(
        {
          disabled: !usable,
          busy: this._state !== 'idle',
          muted: this.muted,
          micAvailable: SpeechRecognitionController.available(),
          listening: this._mic.listening,
          placeholder: PLACEHOLDERS[status],
        },
        {
          onSubmit: this._onSubmit,
          onInput: this._onInput,
          onKeyDown: this._onKeyDown,
          onStop: this._onStop,
          onMute: this._onMute,
          onMic: this._onMic,
        },
      )}
    `;
  }
}

/** The message field's placeholder says why it cannot be used, when it cannot. */
const PLACEHOLDERS: Record<WidgetStatus, string> = {
  connecting: 'Connecting…',
  ready: 'Type a message…',
  reconnecting: 'Reconnecting…',
  offline: 'Not connected',
  expired: 'Session expired',
  failed: 'Not available',
  ended: 'The conversation has ended',
};

declare global {
  interface HTMLElementTagNameMap {
    'avatar-chat': AvatarChat;
  }
  interface HTMLElementEventMap {
    'avatar-ready': CustomEvent<AvatarReadyDetail>;
    'avatar-state': CustomEvent<AvatarStateDetail>;
    'avatar-message': CustomEvent<AvatarMessageDetail>;
    'avatar-error': CustomEvent<AvatarErrorDetail>;
    'avatar-safety': CustomEvent<AvatarSafetyDetail>;
    'avatar-status': CustomEvent<AvatarStatusDetail>;
  }
}
