// The states of <avatar-chat> a visitor sees when things go wrong, in real Chromium against real
// servers (web-test-runner.config.mjs): a refused session, an unknown avatar, the connection
// lost mid-reply and restored, a blocked microphone, and a phone-sized page.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand, setViewport } from '@web/test-runner-commands';
import '../../widget/index.js';
import type { AvatarChat, AvatarMessageDetail, AvatarStatusDetail } from '../../widget/index.js';
// @ts-expect-error: a virtual module served by the avatar-test-server plugin
import { SERVER_URL } from '/__avatar-server.js';

const API = `${SERVER_URL as string}/v1`;
const SESSION_URL = `${SERVER_URL as string}/demo/session`;
const LONG = { timeout: 45_000, interval: 50 };

/** Mounts the element in a block as wide as `width` (CSS), 480 px unless told. */
async function mount(template: ReturnType<typeof html>, width = '480px'): Promise<AvatarChat> {
  const wrapper = await fixture<HTMLDivElement>(html`<div style=${`width:${width}`}>${template}</div>`);
  return wrapper.querySelector('avatar-chat')!;
}

const part = (el: AvatarChat, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const input = (el: AvatarChat) => el.shadowRoot!.querySelector<HTMLInputElement>('input[name="message"]')!;

function recordStatuses(el: AvatarChat): string[] {
  const seen: string[] = [];
  el.addEventListener('avatar-status', (e: CustomEvent<AvatarStatusDetail>) => seen.push(e.detail.status));
  return seen;
}

const nextReply = (el: AvatarChat) =>
  new Promise<AvatarMessageDetail>((resolve) => el.addEventListener('avatar-message', (e) => e.detail.role === 'assistant' && resolve(e.detail)));

describe('<avatar-chat> states a visitor can see', () => {
  it('a refused session: "expired" on the stage with Retry, the field disabled, never stuck on Connecting', async () => {
    const el = await mount(html`<avatar-chat server=${API} token="sess_not_a_real_token_at_all" conversation-id="conv_0000000000000000"></avatar-chat>`);
    await waitUntil(() => el.status === 'expired', 'expired', LONG);
    const notice = part(el, 'notice')!;
    expect(notice.dataset['status']).to.equal('expired');
    expect(notice.getAttribute('role')).to.equal('alert');
    expect(notice.textContent).to.match(/session has expired/i);
    expect(part(el, 'retry-button')).to.not.equal(null);
    expect(input(el).disabled).to.equal(true);
    expect(input(el).placeholder).to.equal('Session expired');
  });

  it('an unknown avatar: "failed" in plain words, and Retry starts again', async () => {
    const el = await mount(html`<avatar-chat server=${API} session-url=${SESSION_URL} avatar-id="nobody-999"></avatar-chat>`);
    const statuses = recordStatuses(el);
    await waitUntil(() => el.status === 'failed', 'failed', LONG);
    expect(part(el, 'notice')!.textContent).to.contain('could not start');
    part(el, 'retry-button')!.click();
    await waitUntil(() => statuses.filter((s) => s === 'connecting').length >= 1 && el.status === 'failed', 'tried again', LONG);
  });

  it('the server stops mid-reply: "reconnecting", no error in the avatar’s words; restarted, the notice goes and the next message is answered', async () => {
    const { url } = (await executeServerCommand('spare-server-start')) as { url: string };
    const el = await mount(html`<avatar-chat server=${`${url}/v1`} session-url=${`${url}/demo/session`} avatar-id="luna-001"></avatar-chat>`);
    await waitUntil(() => el.status === 'ready', 'ready', LONG);
    const statuses = recordStatuses(el);
    await el.send('Please tell me a long story about the sea.');
    await waitUntil(() => el.avatarState !== 'idle', 'the reply started', LONG);
    await executeServerCommand('spare-server-stop');
    await waitUntil(() => el.status === 'reconnecting', 'reconnecting', LONG);
    expect(part(el, 'notice')!.textContent).to.match(/Reconnecting/);
    expect(input(el).disabled).to.equal(true);
    const assistantText = [...el.shadowRoot!.querySelectorAll('[part~="message-assistant"]')].map((p) => p.textContent).join(' ');
    expect(assistantText).to.not.match(/connection|Failed to fetch|not open/i);

    await executeServerCommand('spare-server-start');
    await waitUntil(() => el.status === 'ready', 'ready again', LONG);
    expect(part(el, 'notice')).to.equal(null);
    expect(part(el, 'alert')).to.equal(null);
    expect(statuses).to.include.members(['reconnecting', 'ready']);
    const reply = nextReply(el);
    await el.send('Are you back?');
    expect((await reply).content.length).to.be.greaterThan(0);
    await el.interrupt();
    el.remove();
    await executeServerCommand('spare-server-stop');
  });

  it('a blocked microphone: an alert saying how to allow it, dismissible', async () => {
    // The browser's recognition API, refusing as Chromium does when the site has no microphone permission.
    class DeniedRecognition extends EventTarget {
      lang = '';
      interimResults = false;
      continuous = false;
      start() {
        setTimeout(() => {
          this.dispatchEvent(Object.assign(new Event('error'), { error: 'not-allowed' }));
          this.dispatchEvent(new Event('end'));
        }, 10);
      }
      stop() {}
      abort() {}
    }
    const w = window as unknown as Record<string, unknown>;
    const original = { prefixed: w['webkitSpeechRecognition'], plain: w['SpeechRecognition'] };
    w['webkitSpeechRecognition'] = DeniedRecognition;
    w['SpeechRecognition'] = DeniedRecognition;
    try {
      const el = await mount(html`<avatar-chat server=${API} session-url=${SESSION_URL} avatar-id="luna-001" transport="sse"></avatar-chat>`);
      await waitUntil(() => el.status === 'ready', 'ready', LONG);
      part(el, 'mic-button')!.click();
      await waitUntil(() => part(el, 'alert') !== null, 'the alert', LONG);
      expect(part(el, 'alert')!.textContent).to.match(/Microphone access is blocked.*Allow it/);
      part(el, 'dismiss-button')!.click();
      await el.updateComplete;
      expect(part(el, 'alert')).to.equal(null);
    } finally {
      w['webkitSpeechRecognition'] = original.prefixed;
      w['SpeechRecognition'] = original.plain;
    }
  });

  it('a voice that cannot play: the reply stays as text and an alert says so', async () => {
    // The audio files fail as a broken CDN or proxy would make them (HTTP 502).
    const realFetch = window.fetch;
    window.fetch = (input, init) =>
      String(input instanceof Request ? input.url : input).includes('/v1/audio/') ? Promise.resolve(new Response('bad gateway', { status: 502 })) : realFetch(input, init);
    try {
      const el = await mount(html`<avatar-chat server=${API} session-url=${SESSION_URL} avatar-id="luna-001" transport="sse"></avatar-chat>`);
      await waitUntil(() => el.status === 'ready', 'ready', LONG);
      const reply = nextReply(el);
      await el.send('Hello!');
      const { content } = await reply;
      await waitUntil(() => part(el, 'alert') !== null, 'the alert', LONG);
      expect(part(el, 'alert')!.textContent).to.match(/voice could not be played; its replies are shown as text/);
      await waitUntil(() => (part(el, 'message-assistant')?.querySelector('.text')?.textContent ?? '') === content, 'the whole reply shown', LONG);
    } finally {
      window.fetch = realFetch;
    }
  });

  it('fits a 390 px phone: no horizontal overflow, every button inside the element', async () => {
    await setViewport({ width: 390, height: 844 });
    try {
      const el = await mount(html`<avatar-chat server=${API} session-url=${SESSION_URL} avatar-id="luna-001" transport="sse"></avatar-chat>`, 'auto');
      await waitUntil(() => el.status === 'ready', 'ready', LONG);
      const box = el.getBoundingClientRect();
      expect(document.documentElement.scrollWidth).to.be.at.most(390);
      for (const button of el.shadowRoot!.querySelectorAll('button')) {
        const b = button.getBoundingClientRect();
        expect(b.left, button.textContent ?? '').to.be.at.least(box.left - 0.5);
        expect(b.right, button.textContent ?? '').to.be.at.most(box.right + 0.5);
      }
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });
});
