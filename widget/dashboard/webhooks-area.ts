import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import { formatTime } from './api.js';
import type { Delivery, Webhook } from './api.js';
import { Area, copyText } from './area.js';
import type { WebhookEventType } from '../../core/webhooks/webhook-events.js';

/**
 * Every event type a webhook can receive, as the core defines them: the type checker refuses this
 * object when the core gains a type it lacks or loses one it names.
 */
const EVERY_EVENT: Record<WebhookEventType, true> = {
  'conversation.started': true,
  'conversation.ended': true,
  'conversation.escalated': true,
  'message.created': true,
  'message.failed': true,
  'avatar.updated': true,
  'avatar.deleted': true,
  'safety.escalation': true,
  'safety.topic_blocked': true,
  'safety.filter_triggered': true,
};
const EVENTS = Object.keys(EVERY_EVENT) as WebhookEventType[];

/** A signing secret made in the browser: 32 random bytes, hex. */
function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return 'whsec_' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Webhooks: register (secret shown once), send a test event, the deliveries log, re-enable. */
export class WebhooksArea extends Area {
  @state() private accessor _webhooks: Webhook[] = [];
  @state() private accessor _secret: { webhook: Webhook; secret: string } | undefined;
  @state() private accessor _copied = '';
  @state() private accessor _open: string | undefined;
  @state() private accessor _deliveries: Delivery[] = [];

  protected async load(): Promise<void> {
    if (!this.client.key) {
      this._webhooks = [];
      return;
    }
    await this.attempt(async () => {
      const page = await this.client.request<{ webhooks: Webhook[] }>('/webhooks?limit=100', { auth: 'key' });
      this._webhooks = page.webhooks;
      if (this._open) await this.#loadDeliveries(this._open);
    });
  }

  async #loadDeliveries(id: string): Promise<void> {
    const page = await this.client.request<{ deliveries: Delivery[] }>(`/webhooks/${id}/deliveries?limit=50`, { auth: 'key' });
    this._deliveries = page.deliveries;
  }

  #register = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    const formElement = event.target as HTMLFormElement;
    const form = new FormData(formElement);
    const events = form.getAll('events').map(String);
    if (events.length === 0) {
      this.error = 'Pick at least one event.';
      return;
    }
    const secret = newSecret();
    await this.attempt(async () => {
      const webhook = await this.client.request<Webhook>('/webhooks', { method: 'POST', auth: 'key', json: { url: String(form.get('url')), events, secret } });
      formElement.reset();
      this._secret = { webhook, secret };
      this._copied = '';
      await this.load();
    });
  };

  async #test(webhook: Webhook, select: HTMLSelectElement | null): Promise<void> {
    const type = select?.value ?? webhook.events[0];
    await this.attempt(async () => {
      await this.client.request('/webhooks/test', { method: 'POST', auth: 'key', json: { event: type, webhook_id: webhook.id } });
      this.notice = `Test event ${type} queued for ${webhook.url}.`;
      this._open = webhook.id;
      // The delivery runs in the background: the log is read again after 0.25, 0.5, 1, 2 and 4 s
      // until an attempt shows (then "Refresh" reads it on demand).
      for (let wait = 250; wait <= 4000; wait *= 2) {
        await new Promise((resolve) => setTimeout(resolve, wait));
        await this.#loadDeliveries(webhook.id);
        if (this._deliveries.some((d) => d.attempts > 0)) break;
      }
    });
  }

  async #show(webhook: Webhook): Promise<void> {
    this._open = this._open === webhook.id ? undefined : webhook.id;
    if (this._open) await this.attempt(() => this.#loadDeliveries(webhook.id));
  }

  async #setStatus(webhook: Webhook, status: 'active' | 'disabled'): Promise<void> {
    await this.attempt(async () => {
      await this.client.request(`/webhooks/${webhook.id}`, { method: 'PATCH', auth: 'key', json: { status } });
      await this.load();
      this.notice = status === 'active' ? `${webhook.url} re-enabled.` : `${webhook.url} paused.`;
    });
  }

  async #delete(webhook: Webhook): Promise<void> {
    if (!confirm(`Delete the webhook to ${webhook.url} and its delivery log?`)) return;
    await this.attempt(async () => {
      await this.client.request(`/webhooks/${webhook.id}`, { method: 'DELETE', auth: 'key' });
      if (this._open === webhook.id) this._open = undefined;
      await this.load();
    });
  }

  override render(): TemplateResult {
    return html`<h2 tabindex="-1">Webhooks</h2>
      ${this.renderKeyChooser()} ${this.renderError()} ${this.client.key ? this.#renderBody() : nothing}`;
  }

  #renderBody(): TemplateResult {
    const secret = this._secret;
    return html`
      ${secret
        ? html`<section class="panel" aria-labelledby="secret-heading" data-webhook-secret>
            <h3 id="secret-heading">Signing secret for ${secret.webhook.url}</h3>
            <div class="secret"><code>${secret.secret}</code><button @click=${async () => (this._copied = (await copyText(secret.secret)) ? 'Copied to the clipboard.' : 'Copying failed: copy it by hand.')}>Copy</button></div>
            <p class="warning">Shown only now. Your receiver checks <code>x-service-signature</code>, the hex HMAC-SHA256 of the body with this secret.</p>
            ${this._copied ? html`<p role="status">${this._copied}</p>` : nothing}
            <button @click=${() => (this._secret = undefined)}>I have stored it — hide the secret</button>
          </section>`
        : nothing}
      <div class="table-wrap" tabindex="0" role="region" aria-label="Webhooks table">
        <table>
          <caption class="visually-hidden">Your webhooks</caption>
          <thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Status</th><th scope="col">Actions</th></tr></thead>
          <tbody>
            ${this._webhooks.length === 0 ? html`<tr><td colspan="4">No webhooks yet.</td></tr>` : nothing}
            ${this._webhooks.map((webhook) => this.#renderWebhook(webhook))}
          </tbody>
        </table>
      </div>
      ${this._open ? this.#renderDeliveries() : nothing}
      <h3>Register a webhook</h3>
      <form class="stack" @submit=${this.#register}>
        <label>URL <input name="url" type="url" required placeholder="https://example.com/hooks" /></label>
        <fieldset>
          <legend>Events</legend>
          ${EVENTS.map((type) => html`<label class="inline"><input type="checkbox" name="events" value=${type} ?checked=${type.startsWith('conversation.')} />${type}</label>`)}
        </fieldset>
        <p class="hint">A signing secret is generated for it and shown once.</p>
        <div class="row"><button type="submit">Register webhook</button></div>
      </form>`;
  }

  #renderWebhook(webhook: Webhook): TemplateResult {
    const selectId = `test-event-${webhook.id}`;
    return html`<tr data-webhook-id=${webhook.id}>
      <td style="overflow-wrap:anywhere">${webhook.url}</td>
      <td>${webhook.events.join(', ')}</td>
      <td><span class="badge">${webhook.status}</span>${webhook.status_reason ? html` <span class="hint">${webhook.status_reason}</span>` : nothing}</td>
      <td>
        <div class="row">
          <label class="inline"><span class="visually-hidden">Test event type</span>
            <select id=${selectId}>${webhook.events.map((type) => html`<option>${type}</option>`)}</select></label>
          <button @click=${() => this.#test(webhook, this.querySelector<HTMLSelectElement>(`#${selectId}`))}>Send test event</button>
          <button class="secondary" aria-expanded=${this._open === webhook.id ? 'true' : 'false'} @click=${() => this.#show(webhook)}>Deliveries</button>
          ${webhook.status === 'active'
            ? html`<button class="secondary" @click=${() => this.#setStatus(webhook, 'disabled')}>Pause</button>`
            : html`<button @click=${() => this.#setStatus(webhook, 'active')}>Re-enable</button>`}
          <button class="danger" @click=${() => this.#delete(webhook)}>Delete</button>
        </div>
      </td>
    </tr>`;
  }

  #renderDeliveries(): TemplateResult {
    const webhook = this._webhooks.find((w) => w.id === this._open);
    return html`<section aria-labelledby="deliveries-heading">
      <h3 id="deliveries-heading">Deliveries to ${webhook?.url ?? ''}</h3>
      <button class="secondary" @click=${() => this.attempt(() => this.#loadDeliveries(this._open!))}>Refresh</button>
      <div class="table-wrap" tabindex="0" role="region" aria-label="Deliveries table">
        <table data-deliveries>
          <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Response</th><th scope="col">Time</th><th scope="col">Attempts</th><th scope="col">Last attempt</th><th scope="col">Next retry</th></tr></thead>
          <tbody>
            ${this._deliveries.length === 0 ? html`<tr><td colspan="7">No deliveries yet.</td></tr>` : nothing}
            ${this._deliveries.map(
              (d) => html`<tr data-delivery-id=${d.id}>
                <td>${d.event_type}</td>
                <td><span class="badge">${d.status}</span>${d.error ? html` <span class="hint">${d.error}</span>` : nothing}</td>
                <td data-response>${d.response_status ?? '—'}</td>
                <td>${d.duration_ms === null ? '—' : `${d.duration_ms} ms`}</td>
                <td>${d.attempts}</td>
                <td>${formatTime(d.last_attempt_at)}</td>
                <td>${formatTime(d.next_attempt_at)}</td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </section>`;
  }
}
