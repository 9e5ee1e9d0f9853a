import { LitElement, html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ApiError } from './api.js';
import type { ApiKey, DashboardApi } from './api.js';

/**
 * What every area shares: it renders into the dashboard's shadow root (no root of its own, so the
 * one stylesheet applies), shows one error line, and — for the areas acting in a key's mode —
 * asks for the API key to act with.
 */
export abstract class Area extends LitElement {
  @property({ attribute: false }) accessor client!: DashboardApi;
  @state() protected accessor error = '';
  @state() protected accessor notice = '';

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.client.addEventListener('change', this.#changed);
    void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.client.removeEventListener('change', this.#changed);
  }

  #changed = (): void => {
    void this.load();
  };

  /** Fetches what the area shows; called on connect and when the credentials change. */
  protected abstract load(): Promise<void>;

  /** Runs `work`, turning a failure into the area's error line. */
  protected async attempt(work: () => Promise<void>): Promise<boolean> {
    this.error = '';
    this.notice = '';
    try {
      await work();
      return true;
    } catch (error) {
      this.error = error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error);
      return false;
    }
  }

  protected renderError(): TemplateResult | typeof nothing {
    return html`${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}${this.notice ? html`<p class="ok" role="status">${this.notice}</p>` : nothing}`;
  }

  /**
   * The panel of the areas that act in one key's mode (test or live data): paste a key, or let the
   * dashboard create a test key for this sign-in (revoked on sign-out, usable from this page's
   * origin only).
   */
  protected renderKeyChooser(): TemplateResult {
    const key = this.client.key;
    if (key) {
      const mode = key.startsWith('svc_live_') ? 'live' : 'test';
      return html`<p class="hint">Acting with a ${mode} key ending in …${key.slice(-4)}: you see and change its ${mode} data.
        <button class="secondary" @click=${() => this.client.useKey('', undefined)}>Use another key</button></p>`;
    }
    return html`<section class="panel" aria-labelledby="key-chooser">
      <h3 id="key-chooser">Choose the API key to act with</h3>
      <p>Webhooks, avatars, transcripts and the playground belong to a key's mode (test or live). The key stays in this page's memory only.</p>
      <form class="row" @submit=${this.#pasteKey}>
        <label>API key <input name="key" type="password" autocomplete="off" pattern="svc_(test|live)_.+" required /></label>
        <button type="submit">Use this key</button>
      </form>
      <p><button class="secondary" @click=${this.#createSessionKey}>Create a test key for this session</button>
        <span class="hint">(named “dashboard session”, allowed from this page's origin, revoked when you sign out)</span></p>
    </section>`;
  }

  #pasteKey = (event: SubmitEvent): void => {
    event.preventDefault();
    const value = String(new FormData(event.target as HTMLFormElement).get('key') ?? '').trim();
    this.client.useKey(value);
  };

  #createSessionKey = async (): Promise<void> => {
    await this.attempt(async () => {
      const created = await this.client.request<ApiKey & { key: string }>('/api-keys', {
        method: 'POST',
        json: { name: 'dashboard session', mode: 'test', allowed_origins: [location.origin] },
      });
      this.client.useKey(created.key, created.id);
    });
  };
}

/** Copies `text` to the clipboard; says so in `status`. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
