import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';

export interface ComposerView {
  disabled: boolean;
  busy: boolean;
  muted: boolean;
  micAvailable: boolean;
  listening: boolean;
  placeholder: string;
}

export interface ComposerHandlers {
  onSubmit(event: SubmitEvent): void;
  onInput(event: InputEvent): void;
  onKeyDown(event: KeyboardEvent): void;
  onStop(): void;
  onMute(): void;
  onMic(): void;
}

/**
 * Text input with send, stop, mute and (where the browser can) microphone buttons. Native form
 * controls, so Tab / Enter / Space work without extra code; Escape in the input interrupts.
 */
export function renderComposer(view: ComposerView, on: ComposerHandlers): TemplateResult {
  return html`<form part="composer" class="composer" @submit=${on.onSubmit}>
    <input
      part="input"
      name="message"
      type="text"
      autocomplete="off"
      enterkeyhint="send"
      maxlength="5000"
      aria-label="Message"
      placeholder=${view.placeholder}
      ?disabled=${view.disabled}
      @input=${on.onInput}
      @keydown=${on.onKeyDown}
    />
    <button part="button send-button" type="submit" ?disabled=${view.disabled}>Send</button>
    <button part="button stop-button" type="button" aria-label="Stop the avatar" ?disabled=${!view.busy} @click=${on.onStop}>
      Stop
    </button>
    <button part="button mute-button" type="button" aria-pressed=${view.muted ? 'true' : 'false'} @click=${on.onMute}>
      ${view.muted ? 'Unmute' : 'Mute'}
    </button>
    ${view.micAvailable
      ? html`<button
          part="button mic-button"
          type="button"
          aria-pressed=${view.listening ? 'true' : 'false'}
          aria-label=${view.listening ? 'Listening… press to stop' : 'Mic: speak your message'}
          ?disabled=${view.disabled}
          @click=${on.onMic}
        >
          ${view.listening ? 'Listening…' : 'Mic'}
        </button>`
      : nothing}
  </form>`;
}
