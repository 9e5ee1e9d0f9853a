// How <avatar-chat> sizes and animates its stage for the device it runs on, in real Chromium
// (SwiftShader, so the stage counts as a software renderer): the element leaves the stage's own
// pixel-ratio cap alone unless `max-pixel-ratio` says otherwise, and `prefers-reduced-motion`
// swaps in calm animations.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import '../../widget/index.js';
import type { AvatarChat } from '../../widget/index.js';
// @ts-expect-error: a virtual module served by the avatar-test-server plugin
import { SERVER_URL } from '/__avatar-server.js';

const API = `${SERVER_URL as string}/v1`;
const SESSION_URL = `${SERVER_URL as string}/demo/session`;
const LONG = { timeout: 45_000, interval: 50 };

/** Mounts a 300 px wide element and waits until its model is loaded. */
async function mountLoaded(template: ReturnType<typeof html>): Promise<AvatarChat> {
  const wrapper = await fixture<HTMLDivElement>(html`<div style="width:300px">${template}</div>`);
  const el = wrapper.querySelector('avatar-chat')!;
  await waitUntil(() => el.stage?.vrm !== undefined && el.stage.renderedFrames > 0, 'model loaded and drawn', LONG);
  return el;
}

/** Device pixels per CSS pixel of the stage's canvas. */
function canvasRatio(el: AvatarChat): number {
  const canvas = el.stage!.canvas;
  return canvas.width / canvas.getBoundingClientRect().width;
}

describe('<avatar-chat> stage options', () => {
  const realRatio = Object.getOwnPropertyDescriptor(window, 'devicePixelRatio');

  afterEach(async () => {
    if (realRatio) Object.defineProperty(window, 'devicePixelRatio', realRatio);
    else delete (window as { devicePixelRatio?: number }).devicePixelRatio;
    await emulateMedia({ reducedMotion: 'no-preference' });
  });

  function pretendPixelRatio(ratio: number): void {
    Object.defineProperty(window, 'devicePixelRatio', { value: ratio, configurable: true });
  }

  it('on a 3× screen keeps the stage’s own cap (1 on a software renderer), not a forced 2', async () => {
    pretendPixelRatio(3);
    const el = await mountLoaded(html`<avatar-chat server=${API} session-url=${SESSION_URL} avatar-id="kenji-004"></avatar-chat>`);
    expect(canvasRatio(el)).to.be.closeTo(1, 0.02);
  });

  it('max-pixel-ratio overrides the cap, and never goes past the screen’s own ratio', async () => {
    pretendPixelRatio(3);
    const two = await mountLoaded(html`<avatar-chat server=${API} session-url=${SESSION_URL} avatar-id="kenji-004" max-pixel-ratio="2"></avatar-chat>`);
    expect(canvasRatio(two)).to.be.closeTo(2, 0.02);
    pretendPixelRatio(1.5);
    const four = await mountLoaded(html`<avatar-chat server=${API} session-url=${SESSION_URL} avatar-id="kenji-004" max-pixel-ratio="4"></avatar-chat>`);
    expect(canvasRatio(four)).to.be.closeTo(1.5, 0.02);
  });

  it('uses the avatar’s own animations normally, and calm ones when the visitor prefers reduced motion', async () => {
    const lively = await mountLoaded(html`<avatar-chat server=${API} session-url=${SESSION_URL} avatar-id="kenji-004"></avatar-chat>`);
    expect(lively.stage!.animations).to.deep.equal({ idle: 'idle_sway', talking: 'talking_gestures', thinking: 'thinking_chin' });

    await emulateMedia({ reducedMotion: 'reduce' });
    const calm = await mountLoaded(html`<avatar-chat server=${API} session-url=${SESSION_URL} avatar-id="kenji-004"></avatar-chat>`);
    expect(calm.stage!.animations).to.deep.equal({ idle: 'idle_breathing', talking: 'talking_calm', thinking: 'thinking_look_up' });
  });
});
