import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { TranscriptEntry } from './transcript-entry.js';

const ROLE_LABEL = { user: 'You', assistant: 'Avatar', notice: '' } as const;

/**
 * The transcript: a `role="log"` region announced politely to screen readers as text streams in,
 * focusable so keyboard users can scroll it. Streaming replies carry `aria-busy` until done.
 */
export function renderTranscript(entries: readonly TranscriptEntry[], avatarName: string): TemplateResult {
  return html`<div
    part="transcript"
    class="transcript"
    role="log"
    aria-live="polite"
    aria-relevant="additions text"
    aria-label="Conversation"
    tabindex="0"
  >
    ${repeat(
      entries,
      (entry) => entry.key,
      (entry) => html`<p
        part="message message-${entry.role}"
        class="message ${entry.role} ${entry.status}"
        aria-busy=${entry.status === 'streaming' ? 'true' : 'false'}
        data-role=${entry.role}
      >
        ${entry.role === 'notice'
          ? nothing
          : html`<span class="who">${entry.role === 'assistant' ? avatarName || ROLE_LABEL.assistant : ROLE_LABEL.user}:</span> `}<span
          class="text"
          >${entry.text}</span
        >${entry.status === 'interrupted' ? html` <span class="flag">(interrupted)</span>` : nothing}
      </p>`,
    )}
  </div>`;
}
