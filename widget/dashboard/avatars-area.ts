import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import type { Avatar } from './api.js';
import { Area } from './area.js';
import { apiUrl, createSession, endConversation, loadWidget } from './widget-session.js';
import type { WidgetSession } from './widget-session.js';

const AVATAR_VOICE = /^[a-z]{2,3}-[A-Z]{2}-Neural2-[A-Z]$/;

/** Avatars: the presets and your own; upload a VRM, edit name, voice and traits, preview, delete. */
export class AvatarsArea extends Area {
  @state() private accessor _avatars: Avatar[] = [];
  @state() private accessor _voices: string[] = [];
  @state() private accessor _editing: Avatar | undefined;
  @state() private accessor _preview: { avatar: Avatar; session: WidgetSession } | undefined;
  @state() private accessor _busy = false;

  protected async load(): Promise<void> {
    if (!this.client.key) return;
    await this.attempt(async () => {
      const [avatars, voices] = await Promise.all([
        this.client.request<{ avatars: Avatar[] }>('/avatars', { auth: 'key' }),
        this.client.request<{ voices: { id: string }[] }>('/tts/voices', { auth: 'none' }),
      ]);
      this._avatars = avatars.avatars;
      this._voices = [...new Set(voices.voices.map((v) => v.id).filter((id) => AVATAR_VOICE.test(id)))].sort();
    });
  }

  #upload = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    const formElement = event.target as HTMLFormElement;
    const input = new FormData(formElement);
    const form = new FormData();
    form.set('name', String(input.get('name')));
    if (input.get('default_voice')) form.set('default_voice', String(input.get('default_voice')));
    const personality = String(input.get('personality') ?? '').trim();
    const speaking = String(input.get('speaking_style') ?? '').trim();
    if (personality && speaking) form.set('traits', JSON.stringify({ personality, speaking_style: speaking }));
    form.set('file', input.get('file') as File);
    this._busy = true;
    await this.attempt(async () => {
      const avatar = await this.client.request<Avatar>('/avatars', { method: 'POST', auth: 'key', form });
      formElement.reset();
      await this.load();
      this.notice = `Avatar ${avatar.name} (${avatar.id}) uploaded.`;
    });
    this._busy = false;
  };

  async #edit(avatar: Avatar): Promise<void> {
    await this.attempt(async () => {
      this._editing = await this.client.request<Avatar>(`/avatars/${avatar.id}`, { auth: 'key' });
    });
  }

  #save = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    const avatar = this._editing;
    if (!avatar) return;
    const input = new FormData(event.target as HTMLFormElement);
    await this.attempt(async () => {
      await this.client.request(`/avatars/${avatar.id}`, {
        method: 'PATCH',
        auth: 'key',
        json: {
          name: String(input.get('name')),
          default_voice: String(input.get('default_voice')),
          traits: { personality: String(input.get('personality')), speaking_style: String(input.get('speaking_style')) },
        },
      });
      this._editing = undefined;
      await this.load();
      this.notice = `${String(input.get('name'))} saved.`;
    });
  };

  async #delete(avatar: Avatar): Promise<void> {
    if (!confirm(`Delete ${avatar.name} (${avatar.id})? Its files go, and its active conversations end.`)) return;
    await this.attempt(async () => {
      await this.client.request(`/avatars/${avatar.id}`, { method: 'DELETE', auth: 'key' });
      if (this._preview?.avatar.id === avatar.id) this.#closePreview();
      await this.load();
      this.notice = `${avatar.name} deleted.`;
    });
  }

  /** Closes the preview and ends its conversation, so previews do not hold the account's connections. */
  #closePreview(): void {
    void endConversation(this.client, this._preview?.session.conversation_id);
    this._preview = undefined;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#closePreview();
  }

  async #showPreview(avatar: Avatar): Promise<void> {
    this.#closePreview();
    await this.attempt(async () => {
      const [session] = await Promise.all([createSession(this.client, { avatar_id: avatar.id }), loadWidget()]);
      this._preview = { avatar, session };
    });
  }

  override render(): TemplateResult {
    return html`<h2 tabindex="-1">Avatars</h2>
      ${this.renderKeyChooser()} ${this.renderError()} ${this.client.key ? this.#renderBody() : nothing}`;
  }

  #voiceSelect(selected: string | undefined): TemplateResult {
    return html`<label>Voice
      <select name="default_voice">
        ${this._voices.map((id) => html`<option ?selected=${id === (selected ?? 'en-US-Neural2-F')}>${id}</option>`)}
      </select></label>`;
  }

  #renderBody(): TemplateResult {
    const editing = this._editing;
    return html`
      <div class="table-wrap" tabindex="0" role="region" aria-label="Avatars table">
        <table>
          <caption class="visually-hidden">Avatars you can use</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Voice</th><th scope="col">Kind</th><th scope="col">Actions</th></tr></thead>
          <tbody>
            ${this._avatars.map(
              (avatar) => html`<tr data-avatar-id=${avatar.id}>
                <td>${avatar.name}</td><td><code>${avatar.id}</code></td><td>${avatar.default_voice}</td><td>${avatar.preset ? 'preset' : 'yours'}</td>
                <td><div class="row">
                  <button class="secondary" @click=${() => this.#showPreview(avatar)} aria-label="Preview ${avatar.name}">Preview</button>
                  ${avatar.preset
                    ? nothing
                    : html`<button class="secondary" @click=${() => this.#edit(avatar)} aria-label="Edit ${avatar.name}">Edit</button>
                        <button class="danger" @click=${() => this.#delete(avatar)} aria-label="Delete ${avatar.name}">Delete</button>`}
                </div></td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
      ${this._preview
        ? html`<section aria-labelledby="preview-heading">
            <h3 id="preview-heading">Preview: ${this._preview.avatar.name}</h3>
            <avatar-chat server=${apiUrl(this.client)} token=${this._preview.session.token} conversation-id=${this._preview.session.conversation_id}></avatar-chat>
            <button class="secondary" @click=${() => this.#closePreview()}>Close preview</button>
          </section>`
        : nothing}
      ${editing
        ? html`<h3>Edit ${editing.name}</h3>
            <form class="stack" @submit=${this.#save}>
              <label>Name <input name="name" required .value=${editing.name} /></label>
              ${this.#voiceSelect(editing.default_voice)}
              <label>Personality <textarea name="personality" required rows="2" .value=${editing.traits?.personality ?? ''}></textarea></label>
              <label>Speaking style <textarea name="speaking_style" required rows="2" .value=${editing.traits?.speaking_style ?? ''}></textarea></label>
              <div class="row"><button type="submit">Save</button><button type="button" class="secondary" @click=${() => (this._editing = undefined)}>Cancel</button></div>
            </form>`
        : nothing}
      <h3>Upload a VRM avatar</h3>
      <form class="stack" @submit=${this.#upload}>
        <label>VRM file <input name="file" type="file" accept=".vrm,model/gltf-binary" required /></label>
        <label>Name <input name="name" required /></label>
        ${this.#voiceSelect(undefined)}
        <label>Personality <span class="hint">optional, with speaking style</span><textarea name="personality" rows="2"></textarea></label>
        <label>Speaking style <textarea name="speaking_style" rows="2"></textarea></label>
        <div class="row"><button type="submit" ?disabled=${this._busy}>Upload</button></div>
      </form>`;
  }
}
