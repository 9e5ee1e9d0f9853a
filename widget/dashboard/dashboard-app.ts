import { LitElement, html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ApiError, DashboardApi } from './api.js';
import { dashboardStyles } from './styles.js';

/** The areas, in navigation order; the URL's hash names the open one (`#keys`). */
export const AREAS = [
  { id: 'keys', label: 'API keys' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'usage', label: 'Usage' },
  { id: 'conversations', label: 'Conversations' },
  { id: 'avatars', label: 'Avatars' },
  { id: 'playground', label: 'Playground' },
] as const;
export type AreaId = (typeof AREAS)[number]['id'];

/** Minutes before the account token ends at which the page says so. */
const WARN_BEFORE_MS = 5 * 60_000;

/**
 * `<avatar-dashboard api="/v1">`: sign-in, then one area at a time. Areas render into this
 * element's shadow root (they have no root of their own) so one stylesheet serves them all.
 */
export class AvatarDashboard extends LitElement {
  static override styles = dashboardStyles;

  @property() accessor api = '/v1';
  @state() private accessor _area: AreaId = 'keys';
  @state() private accessor _signedIn = false;
  @state() private accessor _expired = false;
  @state() private accessor _signup = false;
  @state() private accessor _signupAllowed = false;
  @state() private accessor _error = '';
  @state() private accessor _busy = false;
  @state() private accessor _endsSoon = false;

  client!: DashboardApi;
  #timers: number[] = [];

  override connectedCallback(): void {
    super.connectedCallback();
    this.client = new DashboardApi(this.api);
    this.client.addEventListener('change', () => this.#sync());
    this.client.addEventListener('expired', () => {
      this._expired = true;
      this.#sync();
    });
    this.#readHash();
    window.addEventListener('hashchange', this.#readHash);
    void this.client
      .request<{ signup?: boolean }>('/auth/config', { auth: 'none' })
      .then((config) => (this._signupAllowed = config.signup === true))
      .catch(() => (this._signupAllowed = false));
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('hashchange', this.#readHash);
    this.#clearTimers();
  }

  #readHash = (): void => {
    const id = location.hash.slice(1);
    const area = AREAS.find((a) => a.id === id);
    if (area) this._area = area.id;
  };

  #sync(): void {
    this._signedIn = this.client.signedIn;
    this.#clearTimers();
    this._endsSoon = false;
    const expiresAt = this.client.expiresAt;
    if (this._signedIn && expiresAt !== undefined) {
      // Timers cap at 2^31 ms; tokens live an hour.
      const left = expiresAt - Date.now();
      this.#timers.push(window.setTimeout(() => (this._endsSoon = true), Math.max(0, left - WARN_BEFORE_MS)));
      this.#timers.push(window.setTimeout(() => this.client.expire(), Math.max(0, left)));
    }
  }

  #clearTimers(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers = [];
  }

  async #submitSignIn(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const email = String(form.get('email') ?? '');
    const password = String(form.get('password') ?? '');
    this._error = '';
    this._busy = true;
    try {
      if (this._signup) await this.client.signup(email, password, String(form.get('name') ?? '') || undefined);
      else await this.client.login(email, password);
      this._expired = false;
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('main h2')?.focus();
    } catch (error) {
      this._error = error instanceof ApiError ? error.message : 'The server could not be reached. Try again.';
    } finally {
      this._busy = false;
    }
  }

  async #signOut(): Promise<void> {
    await this.client.signOut();
    this._expired = false;
  }

  override render(): TemplateResult {
    return html`
      <header>
        <h1>avatar-service dashboard</h1>
        ${this._signedIn
          ? html`<nav aria-label="Dashboard areas">
                <ul>
                  ${AREAS.map(
                    (area) => html`<li><a href="#${area.id}" aria-current=${area.id === this._area ? 'page' : 'false'}>${area.label}</a></li>`,
                  )}
                </ul>
              </nav>
              <button class="secondary" @click=${this.#signOut}>Sign out</button>`
          : nothing}
      </header>
      ${this._signedIn ? this.#renderArea() : this.#renderSignIn()}
    `;
  }

  #renderSignIn(): TemplateResult {
    const signup = this._signup;
    return html`<main>
      <h2 tabindex="-1">${signup ? 'Create an account' : 'Sign in'}</h2>
      ${this._expired
        ? html`<p class="warning" role="alert" data-expired>Your session has expired. Sign in again to continue; nothing you saved is lost.</p>`
        : nothing}
      <form class="stack" @submit=${this.#submitSignIn} aria-describedby=${this._error ? 'signin-error' : nothing}>
        <label>Email <input name="email" type="email" autocomplete="username" required /></label>
        <label
          >Password
          <input name="password" type="password" autocomplete=${signup ? 'new-password' : 'current-password'} required minlength=${signup ? 8 : 1} />
          ${signup ? html`<span class="hint">At least 8 characters.</span>` : nothing}
        </label>
        ${signup ? html`<label>Name (optional) <input name="name" autocomplete="name" /></label>` : nothing}
        <div class="row"><button type="submit" ?disabled=${this._busy}>${signup ? 'Create account' : 'Sign in'}</button></div>
        ${this._error ? html`<p id="signin-error" class="error" role="alert">${this._error}</p>` : nothing}
      </form>
      ${this._signupAllowed
        ? html`<p>
            ${signup ? 'Already have an account?' : 'No account yet?'}
            <button class="secondary" @click=${() => ((this._signup = !signup), (this._error = ''))}>${signup ? 'Sign in instead' : 'Create an account'}</button>
          </p>`
        : nothing}
    </main>`;
  }

  #renderArea(): TemplateResult {
    const soon =
      this._endsSoon && this.client.expiresAt !== undefined
        ? html`<p class="warning" role="status">Your session ends at ${new Date(this.client.expiresAt).toLocaleTimeString()}. Sign out and in again to continue after that.</p>`
        : nothing;
    const area = (() => {
      switch (this._area) {
        case 'keys':
          return html`<dash-keys .client=${this.client}></dash-keys>`;
        case 'webhooks':
          return html`<dash-webhooks .client=${this.client}></dash-webhooks>`;
        case 'usage':
          return html`<dash-usage .client=${this.client}></dash-usage>`;
        case 'conversations':
          return html`<dash-conversations .client=${this.client}></dash-conversations>`;
        case 'avatars':
          return html`<dash-avatars .client=${this.client}></dash-avatars>`;
        case 'playground':
          return html`<dash-playground .client=${this.client}></dash-playground>`;
      }
    })();
    return html`<main>${soon}${area}</main>`;
  }
}
