import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import type { Avatar, Persona } from './api.js';
import { Area, copyText } from './area.js';
import { apiUrl, endConversation, loadWidget } from './widget-session.js';
import type { WidgetSession } from './widget-session.js';

interface Provider {
  id: string;
  name: string;
  configured: boolean;
  default: boolean;
}

interface Choice {
  avatar_id: string;
  persona_id: string;
  ai_provider: string;
  tts_provider: string;
}

/**
 * Playground: pick avatar, persona, AI and speech providers, talk in `<avatar-chat>`, and copy the
 * embed code for exactly that configuration (a page snippet plus the host's session endpoint,
 * which keeps the key on the host's server).
 */
export class PlaygroundArea extends Area {
  @state() private accessor _avatars: Avatar[] = [];
  @state() private accessor _personas: Persona[] = [];
  @state() private accessor _ai: Provider[] = [];
  @state() private accessor _speech: string[] = [];
  @state() private accessor _choice: Choice | undefined;
  @state() private accessor _session: WidgetSession | undefined;
  @state() private accessor _copied = '';

  protected async load(): Promise<void> {
    if (!this.client.key) return;
    await this.attempt(async () => {
      const [avatars, personas, ai, voices] = await Promise.all([
        this.client.request<{ avatars: Avatar[] }>('/avatars', { auth: 'key' }),
        this.client.request<{ personas: Persona[] }>('/personas', { auth: 'none' }),
        this.client.request<{ providers: Provider[] }>('/ai/providers', { auth: 'key' }),
        this.client.request<{ voices: { provider: string; available: boolean }[] }>('/tts/voices', { auth: 'none' }),
      ]);
      this._avatars = avatars.avatars;
      this._personas = personas.personas;
      this._ai = ai.providers.filter((p) => p.configured);
      this._speech = [...new Set(voices.voices.filter((v) => v.available).map((v) => v.provider))];
    });
  }

  #start = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const choice: Choice = {
      avatar_id: String(form.get('avatar_id')),
      persona_id: String(form.get('persona_id') ?? ''),
      ai_provider: String(form.get('ai_provider') ?? ''),
      tts_provider: String(form.get('tts_provider') ?? ''),
    };
    // One playground conversation at a time: the previous one ends.
    void endConversation(this.client, this._session?.conversation_id);
    this._session = undefined;
    this._copied = '';
    await this.attempt(async () => {
      const [conversation] = await Promise.all([
        this.client.request<{ id: string }>('/conversations', { method: 'POST', auth: 'key', json: compact(choice) }),
        loadWidget(),
      ]);
      this._session = await this.client.request<WidgetSession>('/sessions', { method: 'POST', auth: 'key', json: { conversation_id: conversation.id } });
      this._choice = choice;
    });
  };

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    void endConversation(this.client, this._session?.conversation_id);
  }

  override render(): TemplateResult {
    return html`<h2 tabindex="-1">Playground</h2>
      ${this.renderKeyChooser()} ${this.renderError()} ${this.client.key ? this.#renderBody() : nothing}`;
  }

  #renderBody(): TemplateResult {
    return html`<form class="stack" @submit=${this.#start}>
        <label>Avatar <select name="avatar_id" required>${this._avatars.map((a) => html`<option value=${a.id}>${a.name} (${a.id})</option>`)}</select></label>
        <label>Persona
          <select name="persona_id"><option value="">none</option>${this._personas.map((p) => html`<option value=${p.id}>${p.name} · ${p.vertical}</option>`)}</select></label>
        <label>AI provider
          <select name="ai_provider">${this._ai.map((p) => html`<option value=${p.id} ?selected=${p.default}>${p.name}</option>`)}</select></label>
        <label>Speech provider
          <select name="tts_provider"><option value="">server default</option>${this._speech.map((id) => html`<option>${id}</option>`)}</select></label>
        <div class="row"><button type="submit">Start a conversation</button></div>
      </form>
      ${this._session && this._choice
        ? html`<h3>Talk to it</h3>
            <avatar-chat server=${apiUrl(this.client)} token=${this._session.token} conversation-id=${this._session.conversation_id}></avatar-chat>
            <h3>Embed this configuration</h3>
            <pre class="snippet" data-snippet tabindex="0" aria-label="Embed code">${embedSnippet(apiUrl(this.client), this._choice)}</pre>
            <button @click=${async () => (this._copied = (await copyText(embedSnippet(apiUrl(this.client), this._choice!))) ? 'Copied to the clipboard.' : 'Copying failed: copy it by hand.')}>Copy embed code</button>
            ${this._copied ? html`<p role="status">${this._copied}</p>` : nothing}`
        : nothing}`;
  }
}

const compact = (choice: Choice): Record<string, string> => Object.fromEntries(Object.entries(choice).filter(([, value]) => value !== ''));

/** The page snippet and the host-side session endpoint for `choice` (README, The widget). */
export function embedSnippet(api: string, choice: Choice): string {
  const origin = new URL(api).origin;
  const create = JSON.stringify(compact(choice));
  return `<!-- On your page -->
<script type="module" src="${origin}/widget/avatar-chat.js"></script>
<avatar-chat server="${api}" session-url="/avatar-session"></avatar-chat>

// On your server (Node 20): POST /avatar-session. The key stays here, in AVATAR_SERVICE_KEY.
app.post('/avatar-session', async (req, res) => {
  const headers = { authorization: \`Bearer \${process.env.AVATAR_SERVICE_KEY}\`, 'content-type': 'application/json' };
  const post = (path, body) => fetch('${api}' + path, { method: 'POST', headers, body: JSON.stringify(body) }).then((r) => r.json());
  // A renewal names its conversation; otherwise start one with this configuration.
  const conversationId = req.body?.conversation_id ?? (await post('/conversations', ${create})).id;
  res.json(await post('/sessions', { conversation_id: conversationId }));
});`;
}
