import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import { formatTime } from './api.js';
import type { ConversationSummary, Message } from './api.js';
import { Area } from './area.js';

const PAGE = 20;
/** Safety codes that hand a conversation to a person (core/ports/store.ts SafetyCode). */
const ESCALATING = new Set(['escalation_requested', 'severe_content']);

interface Detail {
  id: string;
  avatar_id: string;
  status: string;
  created_at: string;
  escalated_at: string | null;
  escalation_reason?: string;
}

/**
 * Conversations: the account's list (`GET /v1/conversations`, account token) with filters and
 * cursor paging, and a transcript (`GET /v1/conversations/:id/messages`, the chosen API key) with
 * each reply's audio; escalations are highlighted.
 */
export class ConversationsArea extends Area {
  @state() private accessor _rows: ConversationSummary[] = [];
  @state() private accessor _hasMore = false;
  /** Cursors of the pages shown so far (`undefined` for the first). */
  @state() private accessor _cursors: (string | undefined)[] = [undefined];
  @state() private accessor _filters: Record<string, string> = {};
  @state() private accessor _detail: Detail | undefined;
  @state() private accessor _messages: Message[] = [];
  @state() private accessor _messagesMore = false;

  protected async load(): Promise<void> {
    await this.#fetchPage();
  }

  async #fetchPage(): Promise<void> {
    const cursor = this._cursors.at(-1);
    const query = new URLSearchParams({ limit: String(PAGE) });
    if (cursor) query.set('starting_after', cursor);
    for (const [name, value] of Object.entries(this._filters)) if (value) query.set(name, value);
    await this.attempt(async () => {
      const page = await this.client.request<{ conversations: ConversationSummary[]; has_more: boolean }>(`/conversations?${query}`);
      this._rows = page.conversations;
      this._hasMore = page.has_more;
    });
  }

  #filter = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const day = (name: string, end: boolean) => {
      const value = String(form.get(name) ?? '');
      return value ? new Date(`${value}T${end ? '23:59:59.999' : '00:00:00'}Z`).toISOString() : '';
    };
    this._filters = {
      status: String(form.get('status') ?? ''),
      escalated: String(form.get('escalated') ?? ''),
      mode: String(form.get('mode') ?? ''),
      avatar_id: String(form.get('avatar_id') ?? '').trim(),
      created_after: day('from', false),
      created_before: day('to', true),
    };
    this._cursors = [undefined];
    await this.#fetchPage();
  };

  async #next(): Promise<void> {
    this._cursors = [...this._cursors, this._rows.at(-1)?.id];
    await this.#fetchPage();
  }

  async #previous(): Promise<void> {
    this._cursors = this._cursors.slice(0, -1);
    await this.#fetchPage();
  }

  async #open(row: ConversationSummary): Promise<void> {
    const key = this.client.key;
    if (!key || !key.startsWith(`svc_${row.mode}_`)) {
      this.error = `This is a ${row.mode} conversation: choose a ${row.mode} API key (above) to read its transcript.`;
      return;
    }
    await this.attempt(async () => {
      this._detail = await this.client.request<Detail>(`/conversations/${row.id}`, { auth: 'key' });
      this._messages = [];
      await this.#moreMessages();
    });
    await this.updateComplete;
    this.querySelector<HTMLElement>('#transcript-heading')?.focus();
  }

  async #moreMessages(): Promise<void> {
    const detail = this._detail;
    if (!detail) return;
    const after = this._messages.at(-1)?.id;
    const page = await this.client.request<{ messages: Message[]; has_more: boolean }>(
      `/conversations/${detail.id}/messages?limit=50${after ? `&starting_after=${after}` : ''}`,
      { auth: 'key' },
    );
    this._messages = [...this._messages, ...page.messages];
    this._messagesMore = page.has_more;
  }

  override render(): TemplateResult {
    const f = this._filters;
    return html`<h2 tabindex="-1">Conversations</h2>
      ${this.renderKeyChooser()} ${this.renderError()}
      <form class="row" @submit=${this.#filter} aria-label="Filter conversations">
        <label>Status
          <select name="status">
            <option value="" ?selected=${!f.status}>any</option>
            <option value="active" ?selected=${f.status === 'active'}>active</option>
            <option value="ended" ?selected=${f.status === 'ended'}>ended</option>
          </select></label>
        <label>Escalated
          <select name="escalated">
            <option value="" ?selected=${!f.escalated}>any</option>
            <option value="true" ?selected=${f.escalated === 'true'}>only escalated</option>
            <option value="false" ?selected=${f.escalated === 'false'}>not escalated</option>
          </select></label>
        <label>Mode
          <select name="mode">
            <option value="" ?selected=${!f.mode}>test and live</option>
            <option value="test" ?selected=${f.mode === 'test'}>test</option>
            <option value="live" ?selected=${f.mode === 'live'}>live</option>
          </select></label>
        <label>Avatar id <input name="avatar_id" size="12" .value=${f.avatar_id ?? ''} placeholder="luna-001" /></label>
        <label>From <input name="from" type="date" /></label>
        <label>To <input name="to" type="date" /></label>
        <button type="submit">Apply filters</button>
      </form>
      <div class="table-wrap" tabindex="0" role="region" aria-label="Conversations table">
        <table data-conversations>
          <caption class="visually-hidden">Your conversations, newest first</caption>
          <thead><tr><th scope="col">Started</th><th scope="col">Avatar</th><th scope="col">Persona</th><th scope="col">Mode</th><th scope="col">Status</th><th scope="col">Messages</th><th scope="col">Escalated</th><th scope="col"><span class="visually-hidden">Transcript</span></th></tr></thead>
          <tbody>
            ${this._rows.length === 0 ? html`<tr><td colspan="8">No conversations match.</td></tr>` : nothing}
            ${this._rows.map(
              (row) => html`<tr class=${row.escalated ? 'escalated' : ''} data-conversation-id=${row.id}>
                <td>${formatTime(row.created_at)}</td>
                <td>${row.avatar_id}</td>
                <td>${row.persona_id ?? '—'}</td>
                <td>${row.mode}</td>
                <td>${row.status}${row.ended_at ? html`<br /><span class="hint">ended ${formatTime(row.ended_at)}</span>` : nothing}</td>
                <td>${row.message_count}</td>
                <td>${row.escalated ? html`<strong>Escalated</strong>` : 'no'}</td>
                <td><button class="secondary" @click=${() => this.#open(row)} aria-label="Transcript of the conversation started ${formatTime(row.created_at)}">Transcript</button></td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
      <div class="row">
        <button class="secondary" ?disabled=${this._cursors.length <= 1} @click=${this.#previous}>Previous page</button>
        <button class="secondary" ?disabled=${!this._hasMore} @click=${this.#next}>Next page</button>
      </div>
      ${this._detail ? this.#renderTranscript(this._detail) : nothing}`;
  }

  #renderTranscript(detail: Detail): TemplateResult {
    return html`<section aria-labelledby="transcript-heading" data-transcript>
      <h3 id="transcript-heading" tabindex="-1">Transcript · ${detail.avatar_id} · ${formatTime(detail.created_at)}</h3>
      ${detail.escalated_at
        ? html`<p class="warning" role="note">Escalated to a person at ${formatTime(detail.escalated_at)}${detail.escalation_reason ? ` (${detail.escalation_reason})` : ''}.</p>`
        : nothing}
      <ol class="transcript">
        ${this._messages.map((m) => {
          const escalated = m.safety.some((code) => ESCALATING.has(code));
          return html`<li class=${escalated ? 'escalated' : ''} data-role=${m.role}>
            <strong>${m.role === 'user' ? 'User' : 'Avatar'}</strong> <span class="hint">${formatTime(m.created_at)}</span>
            ${m.safety.length ? html` <span class="badge">${m.safety.join(', ')}</span>` : nothing}
            <p>${m.content}</p>
            ${m.audio_url ? html`<audio controls preload="none" src=${m.audio_url} aria-label="Audio of this reply"></audio>` : nothing}
          </li>`;
        })}
      </ol>
      ${this._messagesMore ? html`<button class="secondary" @click=${() => this.attempt(() => this.#moreMessages())}>Load more messages</button>` : nothing}
      <button class="secondary" @click=${() => (this._detail = undefined)}>Close transcript</button>
    </section>`;
  }
}
