// The demo page: pick an avatar, talk to it. The <avatar-chat> element gets its session token from
// POST /demo/session (the server standing in for a site's backend), so no key is in this page.
const origin = location.origin;
const $ = (id) => document.getElementById(id);
for (const el of document.querySelectorAll('.base')) el.textContent = origin;

const slot = $('chat-slot');
const picker = $('avatars');
const latency = $('latency');
const stateOut = $('state');
const errorBox = $('error');
const tts = $('tts');
const transport = $('transport');
let current = 'luna-001';
let sentAt = 0;

function showSnippet(avatarId) {
  $('snippet').textContent =
    `<script type="module" src="${origin}/widget/avatar-chat.js"></script>\n` +
    `<avatar-chat server="${origin}/v1" session-url="/your-backend/avatar-session" avatar-id="${avatarId}"></avatar-chat>`;
}

function setMetric(name, ms) {
  const dd = latency.querySelector(`[data-metric="${name}"]`);
  if (dd) dd.textContent = ms === undefined ? '–' : `${Math.round(ms)} ms`;
}

/** A fresh element per avatar / option change: the old one disposes its renderer, audio and socket. */
function mountChat() {
  const chat = document.createElement('avatar-chat');
  chat.setAttribute('server', `${origin}/v1`);
  chat.setAttribute('session-url', '/demo/session');
  chat.setAttribute('avatar-id', current);
  chat.setAttribute('transport', transport.value);
  chat.setAttribute('lang', 'en-US');
  if (tts.value) chat.setAttribute('tts-provider', tts.value);
  chat.addEventListener('avatar-ready', () => {
    errorBox.hidden = true;
    stateOut.value = 'idle';
    chat.dataset.ready = 'true';
  });
  chat.addEventListener('avatar-state', (event) => {
    stateOut.value = event.detail.state;
    if (event.detail.state === 'talking' && sentAt) {
      setMetric('talking_ms', performance.now() - sentAt);
      sentAt = 0;
    }
  });
  chat.addEventListener('avatar-message', (event) => {
    const { role, timings } = event.detail;
    if (role === 'user') {
      sentAt = performance.now();
      for (const name of ['first_token_ms', 'first_audio_ms', 'talking_ms']) setMetric(name, undefined);
    } else if (timings) {
      setMetric('first_token_ms', timings.first_token_ms);
      setMetric('first_audio_ms', timings.first_audio_ms);
    }
  });
  chat.addEventListener('avatar-error', (event) => {
    errorBox.textContent = `${event.detail.code}: ${event.detail.message}`;
    errorBox.hidden = false;
  });
  slot.replaceChildren(chat);
  stateOut.value = 'connecting';
  showSnippet(current);
}

function option(avatar) {
  const label = document.createElement('label');
  label.className = 'avatar-option';
  const input = Object.assign(document.createElement('input'), { type: 'radio', name: 'avatar', value: avatar.id });
  input.checked = avatar.id === current;
  input.addEventListener('change', () => {
    current = avatar.id;
    mountChat();
  });
  const img = Object.assign(document.createElement('img'), { src: avatar.preview_url, alt: '', loading: 'lazy' });
  img.onerror = () => img.remove();
  const name = Object.assign(document.createElement('span'), { className: 'name', textContent: avatar.name });
  const meta = Object.assign(document.createElement('span'), { className: 'meta', textContent: (avatar.tags ?? []).join(', ') });
  label.title = avatar.description ?? '';
  label.append(input, img, name, meta);
  return label;
}

try {
  const res = await fetch('/v1/avatars');
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  // API_STYLE=envelope wraps resources in {data, meta} with camelCase names.
  const body = await res.json();
  const avatars = (body.data ?? body).avatars.map((a) => ({ ...a, preview_url: a.preview_url ?? a.previewUrl }));
  if (!avatars.some((a) => a.id === current) && avatars[0]) current = avatars[0].id;
  const legend = picker.querySelector('legend');
  picker.replaceChildren(legend, ...avatars.map(option));
} catch (error) {
  picker.querySelector('.loading').textContent = `Could not load avatars: ${error.message}`;
}
tts.addEventListener('change', mountChat);
transport.addEventListener('change', mountChat);
await customElements.whenDefined('avatar-chat');
mountChat();
