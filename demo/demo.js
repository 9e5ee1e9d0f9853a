// The demo page: the conversation first — a strip of avatars, the <avatar-chat> element, a greeting
// and suggested messages — and the developer details folded below. The element gets its session
// token from POST /demo/session (the server standing in for a site's backend), so no key is here.
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
const greeting = $('greeting');
const prompts = $('prompts');
let current = 'luna-001';
let avatarsById = new Map();
let sentAt = 0;

/** What each preset offers to talk about: three first messages that show what it is for. */
const SUGGESTIONS = {
  'luna-001': ['What can you help me with?', 'Give me a quick tour of this demo.', 'Tell me something surprising about space.'],
  'atlas-002': ['My Wi-Fi keeps dropping. What should I check?', 'How do I reset my password?', 'Explain what an API key is.'],
  'sofia-003': ['Can you recommend a quiet restaurant nearby?', 'What time is check-out?', 'Plan a relaxed day in Lisbon for me.'],
  'kenji-004': ['Quiz me on world capitals!', 'Explain photosynthesis simply.', 'Help me solve 3x + 5 = 20.'],
  'maya-005': ['I have trouble sleeping. Any tips?', 'Guide me through a short breathing exercise.', 'How much water should I drink a day?'],
  'orion-006': ['Tell me a short adventure story.', "Let's play twenty questions.", 'Tell me a joke about robots.'],
};
const GENERIC = ['Hello! Who are you?', 'What can you do?', 'Tell me a fun fact.'];

function showSnippet(avatarId) {
  $('snippet').textContent =
    `<script type="module" src="${origin}/widget/avatar-chat.js"></script>\n` +
    `<avatar-chat server="${origin}/v1" session-url="/your-backend/avatar-session" avatar-id="${avatarId}"></avatar-chat>`;
}

function setMetric(name, ms) {
  const dd = latency.querySelector(`[data-metric="${name}"]`);
  if (dd) dd.textContent = ms === undefined ? '–' : `${Math.round(ms)} ms`;
}

/** The avatar's hello and three things to say to it; a suggestion sends itself. */
function showGreeting(chat) {
  const avatar = avatarsById.get(current);
  const name = avatar?.name ?? 'your avatar';
  greeting.textContent = `Hi, I'm ${name}! ${avatar?.description ?? ''} Say hello, or try one of these:`;
  prompts.replaceChildren(
    ...(SUGGESTIONS[current] ?? GENERIC).map((text) => {
      const button = Object.assign(document.createElement('button'), { type: 'button', textContent: text });
      button.addEventListener('click', () => void chat.send(text));
      return button;
    }),
  );
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
    for (const button of prompts.querySelectorAll('button')) button.disabled = false;
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
  showGreeting(chat);
  for (const button of prompts.querySelectorAll('button')) button.disabled = true;
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
  const img = Object.assign(document.createElement('img'), { src: avatar.preview_url ?? '', alt: '', width: 56, height: 56 });
  img.onerror = () => img.remove();
  const name = Object.assign(document.createElement('span'), { className: 'name', textContent: avatar.name });
  const meta = Object.assign(document.createElement('span'), { className: 'meta', textContent: (avatar.tags ?? []).slice(0, 2).join(', ') });
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
  avatarsById = new Map(avatars.map((a) => [a.id, a]));
  if (!avatarsById.has(current) && avatars[0]) current = avatars[0].id;
  const legend = picker.querySelector('legend');
  picker.replaceChildren(legend, ...avatars.map(option));
} catch (error) {
  picker.querySelector('.loading').textContent = `Could not load avatars: ${error.message}`;
}
tts.addEventListener('change', mountChat);
transport.addEventListener('change', mountChat);
await customElements.whenDefined('avatar-chat');
mountChat();
