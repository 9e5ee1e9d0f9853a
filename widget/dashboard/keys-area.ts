import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import { formatTime } from './api.js';
import type { ApiKey } from './api.js';
import { Area, copyText } from './area.js';

type Created = ApiKey & { key: string };

/** Where the guided rotation (specification §5.7) stands for one old key. */
interface Rotation {
  old: ApiKey;
  step: 1 | 2 | 3 | 4;
  created?: Created;
}

/** API keys: list, create (value shown once), revoke with confirmation, and guided rotation. */
export class KeysArea extends Area {
  @state() private accessor _keys: ApiKey[] = [];
  @state() private accessor _created: Created | undefined;
  @state() private accessor _copied = '';
  @state() private accessor _confirm: ApiKey | undefined;
  @state() private accessor _rotation: Rotation | undefined;

  protected async load(): Promise<void> {
    await this.attempt(async () => {
      const keys: ApiKey[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await this.client.request<{ api_keys: ApiKey[]; has_more: boolean }>(`/api-keys?limit=100${after ? `&starting_after=${after}` : ''}`);
        keys.push(...page.api_keys);
        if (!page.has_more || page.api_keys.length === 0) break;
        after = page.api_keys.at(-1)!.id;
      }
      this._keys = keys.filter((key) => key.revoked_at === null);
    });
  }

  async #create(input: { name: string; mode: string; allowed_origins?: string[] }): Promise<Created | undefined> {
    let created: Created | undefined;
    await this.attempt(async () => {
      created = await this.client.request<Created>('/api-keys', { method: 'POST', json: input });
    });
    return created;
  }

  #submit = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    const formElement = event.target as HTMLFormElement;
    const form = new FormData(formElement);
    const origins = String(form.get('origins') ?? '')
      .split(/[\s,]+/)
      .filter(Boolean);
    const created = await this.#create({
      name: String(form.get('name')),
      mode: String(form.get('mode')),
      ...(origins.length > 0 && { allowed_origins: origins }),
    });
    if (!created) return;
    formElement.reset();
    this._copied = '';
    this._created = created;
    await this.load();
    await this.updateComplete;
    this.querySelector<HTMLElement>('#created-key-heading')?.focus();
  };

  #copy = async (value: string): Promise<void> => {
    this._copied = (await copyText(value)) ? 'Copied to the clipboard.' : 'Copying failed: select the value and copy it by hand.';
  };

  /** Hides the value for good: the server never shows it again. */
  #dismiss = (): void => {
    this._created = undefined;
    this._copied = '';
  };

  #askRevoke(key: ApiKey): void {
    this._confirm = key;
    void this.updateComplete.then(() => this.querySelector<HTMLDialogElement>('dialog#revoke')?.showModal());
  }

  #revoke = async (): Promise<void> => {
    const key = this._confirm;
    this.querySelector<HTMLDialogElement>('dialog#revoke')?.close();
    this._confirm = undefined;
    if (!key) return;
    const ok = await this.attempt(async () => {
      await this.client.request(`/api-keys/${key.id}`, { method: 'DELETE' });
    });
    if (ok) {
      // The list first, then the message, so what the message says is what the page shows.
      await this.load();
      this.notice = `Key “${key.name}” (${key.redacted}) revoked: requests with it are refused from now on.`;
      if (this._rotation?.old.id === key.id) this._rotation = { ...this._rotation, step: 4 };
    }
  };

  async #rotateCreate(): Promise<void> {
    const rotation = this._rotation;
    if (!rotation) return;
    const created = await this.#create({
      name: `${rotation.old.name} (rotated ${new Date().toISOString().slice(0, 10)})`,
      mode: rotation.old.mode,
      ...(rotation.old.allowed_origins && { allowed_origins: rotation.old.allowed_origins }),
    });
    if (created) {
      this._rotation = { ...rotation, step: 2, created };
      this._copied = '';
      await this.load();
    }
  }

  override render(): TemplateResult {
    return html`
      <h2 tabindex="-1">API keys</h2>
      <p class="hint">Keys authenticate your servers to the API. Keep them in server-side configuration, never in a web page.</p>
      ${this.renderError()} ${this.#renderCreated()} ${this.#renderRotation()}
      <div class="table-wrap" tabindex="0" role="region" aria-label="API keys table">
        <table>
          <caption class="visually-hidden">Your API keys</caption>
          <thead>
            <tr><th scope="col">Name</th><th scope="col">Mode</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Allowed origins</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr>
          </thead>
          <tbody>
            ${this._keys.length === 0 ? html`<tr><td colspan="7">No keys yet.</td></tr>` : nothing}
            ${this._keys.map(
              (key) => html`<tr data-key-id=${key.id}>
                <td>${key.name}</td>
                <td><span class="badge">${key.mode}</span></td>
                <td><code>${key.redacted}</code></td>
                <td>${formatTime(key.created_at)}</td>
                <td>${key.last_used_at ? formatTime(key.last_used_at) : 'never'}</td>
                <td>${key.allowed_origins?.length ? key.allowed_origins.join(', ') : 'any'}</td>
                <td class="row">
                  <button class="secondary" @click=${() => ((this._rotation = { old: key, step: 1 }), (this.notice = ''))} aria-label="Rotate ${key.name}">Rotate</button>
                  <button class="danger" @click=${() => this.#askRevoke(key)} aria-label="Revoke ${key.name}">Revoke</button>
                </td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
      <h3>Create a key</h3>
      <form class="stack" @submit=${this.#submit}>
        <label>Name <input name="name" required maxlength="200" placeholder="e.g. website widget" /></label>
        <label
          >Mode
          <select name="mode">
            <option value="test">test (svc_test_…, separate test data)</option>
            <option value="live">live (svc_live_…)</option>
          </select>
        </label>
        <label
          >Allowed origins <span class="hint">optional; one per line, e.g. https://shop.example.com — browsers from other sites are refused</span>
          <textarea name="origins" rows="2"></textarea>
        </label>
        <div class="row"><button type="submit">Create key</button></div>
      </form>
      <dialog id="revoke" aria-labelledby="revoke-title" @close=${() => (this._confirm = undefined)}>
        <h3 id="revoke-title">Revoke “${this._confirm?.name}”?</h3>
        <p>Every request with <code>${this._confirm?.redacted}</code> is refused from now on, including applications still using it. This cannot be undone.</p>
        <div class="row">
          <button class="danger" @click=${this.#revoke}>Revoke key</button>
          <button class="secondary" autofocus @click=${() => this.querySelector<HTMLDialogElement>('dialog#revoke')?.close()}>Cancel</button>
        </div>
      </dialog>
    `;
  }

  #renderSecret(created: Created): TemplateResult {
    return html`<div class="secret">
        <code data-key-value>${created.key}</code>
        <button @click=${() => this.#copy(created.key)}>Copy</button>
        <button class="secondary" @click=${() => this.client.useKey(created.key)}>Use in this dashboard</button>
      </div>
      <p class="warning">This is the only time the key is shown. Store it in your server's configuration now; if you lose it, create a new key.</p>
      ${this._copied ? html`<p role="status">${this._copied}</p>` : nothing}`;
  }

  #renderCreated(): TemplateResult | typeof nothing {
    const created = this._created;
    if (!created) return nothing;
    return html`<section class="panel" aria-labelledby="created-key-heading" data-created>
      <h3 id="created-key-heading" tabindex="-1">Key “${created.name}” created</h3>
      ${this.#renderSecret(created)}
      <button @click=${this.#dismiss}>I have stored it — hide the key</button>
    </section>`;
  }

  /** §5.7: create a new key, switch the application to it, then revoke the old one. */
  #renderRotation(): TemplateResult | typeof nothing {
    const rotation = this._rotation;
    if (!rotation) return nothing;
    const { old, step, created } = rotation;
    const stepLabel = (n: number, text: string) => html`<li aria-current=${step === n ? 'step' : 'false'}>${step > n ? '✓ ' : ''}${text}</li>`;
    const fresh = created ? this._keys.find((key) => key.id === created.id) : undefined;
    return html`<section class="panel" aria-labelledby="rotation-heading" data-rotation>
      <h3 id="rotation-heading">Rotate “${old.name}” (${old.redacted})</h3>
      <ol>
        ${stepLabel(1, 'Create a new key with the same mode and origins')} ${stepLabel(2, 'Switch your application to the new key')}
        ${stepLabel(3, 'Revoke the old key')}
      </ol>
      ${step === 1
        ? html`<div class="row"><button @click=${() => this.#rotateCreate()}>Create the new key</button>
            <button class="secondary" @click=${() => (this._rotation = undefined)}>Cancel</button></div>`
        : nothing}
      ${step === 2 && created
        ? html`${this.#renderSecret(created)}
            <p>Deploy the new key to your application. The old key was last used ${old.last_used_at ? formatTime(this._keys.find((k) => k.id === old.id)?.last_used_at ?? old.last_used_at) : 'never'};
              the new one ${fresh?.last_used_at ? `at ${formatTime(fresh.last_used_at)}` : 'not yet'}.</p>
            <div class="row"><button class="secondary" @click=${() => this.load()}>Refresh last used</button>
              <button @click=${() => (this._rotation = { ...rotation, step: 3 })}>My application uses the new key</button></div>`
        : nothing}
      ${step === 3 ? html`<div class="row"><button class="danger" @click=${() => this.#askRevoke(old)}>Revoke the old key</button></div>` : nothing}
      ${step === 4 ? html`<p class="ok">Rotation complete.</p><button class="secondary" @click=${() => (this._rotation = undefined)}>Close</button>` : nothing}
    </section>`;
  }
}
