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
    ${repeat(entries, (entry) => entry.key, (entry) => renderLine(entry, avatarName))}
  </div>`;
}

/**
 * One line. Written without whitespace between its tags: lines keep the text's own line breaks
 * (`white-space: pre-wrap` on the text), so template indentation would show as stray spaces.
 * Text not yet spoken is in the DOM, visually hidden, so screen readers get the reply at once.
 */
function renderLine(entry: TranscriptEntry, avatarName: string): TemplateResult {
  const who = entry.role === 'notice' ? nothing : html`<span class="who">${entry.role === 'assistant' ? avatarName || ROLE_LABEL.assistant : ROLE_LABEL.user}: </span>`;
  const shown = entry.shown === undefined ? entry.text : entry.text.slice(0, entry.shown);
  const hidden = entry.shown === undefined ? '' : entry.text.slice(entry.shown);
  const flag = entry.status === 'interrupted' ? html` <span class="flag">(interrupted)</span>` : entry.status === 'error' ? html` <span class="flag">(not finished)</span>` : nothing;
  return html`<p part="message message-${entry.role}" class="message ${entry.role} ${entry.status}" aria-busy=${entry.status === 'streaming' ? 'true' : 'false'} data-role=${entry.role}>${who}<span class="text">${shown}</span>${hidden ? html`<span class="visually-hidden">${hidden}</span>` : nothing}${flag}</p>`;
}
