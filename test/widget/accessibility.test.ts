// axe-core (WCAG 2.2 AA rules) inside <avatar-chat>, in real Chromium, in the light and the dark
// colour scheme, with a conversation under way; and the keyboard focus through Stop.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import '../../widget/index.js';
import type { AvatarChat, AvatarMessageDetail } from '../../widget/index.js';
// @ts-expect-error: a virtual module served by the avatar-test-server plugin
import { SERVER_URL } from '/__avatar-server.js';

const API = `${SERVER_URL as string}/v1`;
const SESSION_URL = `${SERVER_URL as string}/demo/session`;
const LONG = { timeout: 45_000, interval: 50 };

interface AxeResult {
  violations: { id: string; help: string; nodes: { target: unknown; failureSummary?: string }[] }[];
}
declare global {
  interface Window {
    axe?: { run(context: Element, options: unknown): Promise<AxeResult> };
  }
}

/** axe-core from node_modules (the test server serves the project root). */
async function loadAxe(): Promise<NonNullable<Window['axe']>> {
  if (!window.axe) {
    await new Promise<void>((resolve, reject) => {
      const script = Object.assign(document.createElement('script'), { src: '/node_modules/axe-core/axe.min.js' });
      script.onload = () => resolve();
      script.onerror = () => reject(new Error('axe-core did not load'));
      document.head.append(script);
    });
  }
  return window.axe!;
}

async function violationsIn(el: Element): Promise<string[]> {
  const axe = await loadAxe();
  const result = await axe.run(el, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } });
  return result.violations.map((v) => `${v.id} (${v.help}): ${v.nodes.map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`).join('; ')}`);
}

async function conversing(): Promise<AvatarChat> {
  const wrapper = await fixture<HTMLDivElement>(html`<div style="width:520px"><avatar-chat server=${API} session-url=${SESSION_URL} avatar-id="luna-001" transport="sse"></avatar-chat></div>`);
  const el = wrapper.querySelector('avatar-chat')!;
  await waitUntil(() => el.status === 'ready', 'ready', LONG);
  const reply = new Promise<AvatarMessageDetail>((resolve) => el.addEventListener('avatar-message', (e) => e.detail.role === 'assistant' && resolve(e.detail)));
  await el.send('Hello there!');
  await reply;
  return el;
}

describe('<avatar-chat> accessibility', () => {
  afterEach(async () => {
    await emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has no axe-core violations in the ${colorScheme} scheme, mid-conversation`, async () => {
      await emulateMedia({ colorScheme });
      const el = await conversing();
      expect(await violationsIn(el)).to.deep.equal([]);
      await el.interrupt();
    });
  }

  it('follows the dark scheme unless the host sets colours', async () => {
    await emulateMedia({ colorScheme: 'dark' });
    const wrapper = await fixture<HTMLDivElement>(html`<div><avatar-chat server=${API} token="sess_x" conversation-id="conv_x"></avatar-chat></div>`);
    const el = wrapper.querySelector('avatar-chat')!;
    await el.updateComplete;
    const background = getComputedStyle(el).backgroundColor;
    expect(background).to.not.equal('rgb(255, 255, 255)');
  });

  it('keeps the keyboard focus in the message field when Stop disables itself', async () => {
    const el = await conversing();
    await el.send('Tell me a long story please.');
    await waitUntil(() => el.avatarState !== 'idle', 'replying', LONG);
    const stop = el.shadowRoot!.querySelector<HTMLButtonElement>('[part~="stop-button"]')!;
    stop.focus();
    stop.click();
    await waitUntil(() => stop.disabled, 'stop disabled', LONG);
    expect(el.shadowRoot!.activeElement?.getAttribute('name')).to.equal('message');
  });
});
