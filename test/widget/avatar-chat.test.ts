// <avatar-chat> in real Chromium against the real service (started by web-test-runner.config.mjs
// from dist/: run `npm run build` first). Replies come from the offline `local` engine with
// offline speech, so audio is real MP3 played through WebAudio.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../widget/index.js';
import type { AvatarChat, AvatarErrorDetail, AvatarMessageDetail, AvatarSafetyDetail } from '../../widget/index.js';
import { AvatarStage } from '../../widget/stage/avatar-stage.js';
import type { MouthWeights } from '../../widget/audio/mouth-weights.js';
// @ts-expect-error: a virtual module served by the avatar-test-server plugin
import { SERVER_URL } from '/__avatar-server.js';

const API = `${SERVER_URL as string}/v1`;
const SESSION_URL = `${SERVER_URL as string}/demo/session`;
const LONG = { timeout: 45_000, interval: 20 };

interface Session {
  token: string;
  conversation_id: string;
}

async function demoSession(avatarId = 'luna-001'): Promise<Session> {
  const res = await fetch(SESSION_URL, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ avatar_id: avatarId }) });
  expect(res.status).to.equal(201);
  return (await res.json()) as Session;
}

/** Mounts the element and waits for `avatar-ready` (fails on `avatar-error`). */
async function mountReady(template: ReturnType<typeof html>): Promise<AvatarChat> {
  const wrapper = await fixture<HTMLDivElement>(html`<div style="width:480px">${template}</div>`);
  const el = wrapper.querySelector('avatar-chat')!;
  if (!el.ready) {
    await new Promise<void>((resolve, reject) => {
      el.addEventListener('avatar-ready', () => resolve(), { once: true });
      el.addEventListener('avatar-error', (e) => reject(new Error(`avatar-error ${e.detail.code}: ${e.detail.message}`)), { once: true });
    });
  }
  return el;
}

const defaultChat = (transport = 'socket.io') =>
  html`<avatar-chat server=${API} session-url=${SESSION_URL} avatar-id="luna-001" transport=${transport}></avatar-chat>`;

function shadow(el: AvatarChat): ShadowRoot {
  return el.shadowRoot!;
}

/** Records every state the element reports. */
function recordStates(el: AvatarChat): string[] {
  const states: string[] = [];
  el.addEventListener('avatar-state', (e) => states.push(e.detail.state));
  return states;
}

/** Wraps the stage's setMouth to record the largest openness it was given. */
function recordMouth(stage: AvatarStage): { max: number; calls: number } {
  const record = { max: 0, calls: 0 };
  const original = stage.setMouth.bind(stage);
  stage.setMouth = (w: MouthWeights) => {
    record.calls++;
    record.max = Math.max(record.max, w.aa + w.ih + w.ou + w.ee + w.oh);
    original(w);
  };
  return record;
}

describe('<avatar-chat> against the real service', () => {
  it('renders the conversation avatar\'s VRM in its shadow root', async () => {
    const el = await mountReady(defaultChat());
    const stage = el.stage!;
    expect(stage, 'stage').to.be.instanceOf(AvatarStage);
    expect(stage.vrm, 'VRM loaded').to.not.equal(undefined);
    expect(shadow(el).querySelector('.canvas-host canvas')).to.equal(stage.canvas);
    expect(shadow(el).querySelector('[part~="progress"]'), 'progress bar gone after load').to.equal(null);
    await waitUntil(() => stage.renderedFrames > 0, 'a frame is rendered', LONG);
    const image = stage.capture();
    let opaque = 0;
    for (let i = 3; i < image.data.length; i += 4) if (image.data[i]! > 0) opaque++;
    expect(opaque / (image.width * image.height), 'share of the canvas covered by the avatar').to.be.greaterThan(0.05);
    expect(stage.state).to.equal('idle');
  });

  it('shows the preview image and the chat when WebGL is unavailable', async () => {
    const original = AvatarStage.webglAvailable;
    AvatarStage.webglAvailable = () => false;
    try {
      const wrapper = await fixture<HTMLDivElement>(html`<div>${defaultChat()}</div>`);
      const el = wrapper.querySelector('avatar-chat')!;
      const { detail } = await oneEvent(el, 'avatar-ready');
      expect(detail.fallback).to.equal(true);
      expect(el.stage).to.equal(undefined);
      await el.updateComplete;
      const img = shadow(el).querySelector<HTMLImageElement>('img[part="preview"]')!;
      expect(img.src).to.match(/\/assets\/avatars\/luna-001\.png$/);
      expect(shadow(el).querySelector('input')!.disabled).to.equal(false);
      expect(shadow(el).querySelector('[part="status"]')!.textContent, 'says 3D is unavailable, not a state over a still picture').to.equal(
        'Luna · 3D view unavailable',
      );
      expect(getComputedStyle(img).objectFit, 'the picture fills the stage').to.equal('cover');
    } finally {
      AvatarStage.webglAvailable = original;
    }
  });

  it('switches the stage animation thinking → talking → idle with the reply, and the mouth moves with the audio', async () => {
    const el = await mountReady(defaultChat());
    const stage = el.stage!;
    const states = recordStates(el);
    const stageStates: string[] = [];
    const setState = stage.setState.bind(stage);
    stage.setState = (s) => {
      stageStates.push(s);
      setState(s);
    };
    const mouth = recordMouth(stage);
    const reply = new Promise<AvatarMessageDetail>((resolve) =>
      el.addEventListener('avatar-message', (e) => e.detail.role === 'assistant' && resolve(e.detail)),
    );
    await el.send('Hello! Please tell me a little about yourself.');
    expect(el.avatarState).to.equal('thinking');
    expect(stage.state).to.equal('thinking');
    await waitUntil(() => el.avatarState === 'talking', 'talking while audio plays', LONG);
    expect(stage.state).to.equal('talking');
    expect(el.playing).to.equal(true);
    const done = await reply;
    expect(done.content.length).to.be.greaterThan(0);
    expect(done.timings?.first_token_ms).to.be.a('number');
    expect(done.timings?.first_audio_ms).to.be.a('number');
    await waitUntil(() => el.avatarState === 'idle', 'idle after the audio', { timeout: 60_000, interval: 50 });
    expect(stage.state).to.equal('idle');
    expect(states.slice(0, 2)).to.deep.equal(['thinking', 'talking']);
    expect(states.at(-1)).to.equal('idle');
    expect(stageStates).to.include.members(['thinking', 'talking', 'idle']);
    expect(mouth.max, 'the mouth opened while talking').to.be.greaterThan(0.1);
    const transcript = shadow(el).querySelector('[part="transcript"]')!;
    expect(transcript.getAttribute('aria-live')).to.equal('polite');
    expect(transcript.textContent).to.contain(done.content.trim().slice(0, 20));
  });

  it('smiles while it speaks a greeting (the reply\'s emotion blended in) and eases back to neutral', async () => {
    const el = await mountReady(defaultChat());
    const stage = el.stage!;
    const asked: (string | undefined)[] = [];
    const setEmotion = stage.setEmotion.bind(stage);
    stage.setEmotion = (emotion, weight) => {
      asked.push(emotion);
      setEmotion(emotion, weight);
    };
    let peak = 0;
    let onModel = 0;
    const sample = () => {
      peak = Math.max(peak, stage.emotionWeight('happy'));
      onModel = Math.max(onModel, stage.vrm?.expressionManager?.getValue('happy') ?? 0);
      return false;
    };
    await el.send('Hello!');
    await waitUntil(() => el.avatarState === 'talking', 'talking', LONG);
    await waitUntil(() => sample() || el.avatarState === 'idle' || peak > 0.3, 'the smile rises while the greeting plays', LONG);
    expect(asked, 'the greeting sentence asked for a smile').to.include('happy');
    expect(peak, 'happy weight on the stage during the greeting').to.be.greaterThan(0.3);
    expect(peak, 'kept low enough for the visemes to read').to.be.at.most(0.6);
    expect(onModel, "the model's happy expression follows").to.be.greaterThan(0.3);
    await waitUntil(() => el.avatarState === 'idle', 'idle after the audio', { timeout: 60_000, interval: 50 });
    await waitUntil(() => stage.emotionWeight('happy') === 0, 'back to neutral', LONG);
  });

  it('follows the server\'s state events for a reply started elsewhere (REST, same conversation)', async () => {
    const session = await demoSession('atlas-002');
    const el = await mountReady(html`<avatar-chat server=${API} token=${session.token} conversation-id=${session.conversation_id}></avatar-chat>`);
    expect(el.stage!.vrm).to.not.equal(undefined);
    const states = recordStates(el);
    const res = await fetch(`${API}/conversations/${session.conversation_id}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'What do you like to do?' }),
    });
    expect(res.status).to.equal(200);
    const message = (await res.json()) as { content: string };
    expect(states[0], 'the server said thinking').to.equal('thinking');
    await waitUntil(() => shadow(el).querySelector('[part~="message-assistant"]')?.textContent?.includes(message.content.trim().slice(0, 15)), 'reply in the transcript', LONG);
    await waitUntil(() => states.includes('talking'), 'talking from the relayed audio', LONG);
    await waitUntil(() => el.avatarState === 'idle', 'idle at the end', { timeout: 60_000, interval: 50 });
  });

  it('interrupt() silences the audio at once and returns to idle', async () => {
    const el = await mountReady(defaultChat());
    await el.send('Tell me a long story about the sea, please.');
    await waitUntil(() => el.playing, 'audio plays', LONG);
    await el.interrupt();
    expect(el.playing).to.equal(false);
    expect(el.avatarState).to.equal('idle');
    expect(el.stage!.state).to.equal('idle');
    const assistantLines = () => shadow(el).querySelectorAll('[part~="message-assistant"]').length;
    const lines = assistantLines();
    // Late events of the stopped reply must neither restart the audio nor add lines.
    await new Promise((r) => setTimeout(r, 1500));
    expect(el.playing).to.equal(false);
    expect(el.avatarState).to.equal('idle');
    expect(assistantLines()).to.equal(lines);
  });

  it('surfaces a refused token as avatar-error', async () => {
    const wrapper = await fixture<HTMLDivElement>(
      html`<div><avatar-chat server=${API} token="sess_not_a_real_token_at_all" conversation-id="conv_0000000000000000"></avatar-chat></div>`,
    );
    const el = wrapper.querySelector('avatar-chat')!;
    const { detail } = (await oneEvent(el, 'avatar-error')) as CustomEvent<AvatarErrorDetail>;
    expect(detail.code).to.equal('unauthorized');
    expect(el.ready).to.equal(false);
  });

  it('surfaces a message the server rejects as avatar-error and stays usable', async () => {
    const el = await mountReady(defaultChat());
    const error = oneEvent(el, 'avatar-error');
    await el.send('x'.repeat(5001));
    const { detail } = (await error) as CustomEvent<AvatarErrorDetail>;
    expect(detail.code).to.equal('invalid_request');
    expect(el.avatarState).to.equal('idle');
    const reply = new Promise<AvatarMessageDetail>((resolve) =>
      el.addEventListener('avatar-message', (e) => e.detail.role === 'assistant' && resolve(e.detail)),
    );
    await el.send('Hi');
    expect((await reply).content.length).to.be.greaterThan(0);
    await el.interrupt();
  });

  it('disposes the renderer, audio and connection when removed', async () => {
    const el = await mountReady(defaultChat());
    const stage = el.stage!;
    const canvas = stage.canvas;
    const gl = canvas.getContext('webgl2')!;
    let disposed = 0;
    const dispose = stage.dispose.bind(stage);
    stage.dispose = () => {
      disposed++;
      dispose();
    };
    await el.send('Hello there!');
    await waitUntil(() => el.playing, 'audio plays', LONG);
    el.remove();
    expect(disposed).to.equal(1);
    expect(el.stage).to.equal(undefined);
    expect(canvas.isConnected).to.equal(false);
    expect(gl.isContextLost(), 'WebGL context released').to.equal(true);
    expect(el.playing).to.equal(false);
    expect(el.activeConversationId).to.equal(undefined);
    const frames = stage.renderedFrames;
    await new Promise((r) => setTimeout(r, 300));
    expect(stage.renderedFrames).to.equal(frames);
  });

  it('works with the keyboard only: Tab to the input, Enter sends, Escape interrupts', async () => {
    const el = await mountReady(defaultChat());
    const root = shadow(el);
    const input = root.querySelector<HTMLInputElement>('input[name="message"]')!;
    for (let i = 0; i < 4 && root.activeElement !== input; i++) await sendKeys({ press: 'Tab' });
    expect(root.activeElement).to.equal(input);
    const sent = oneEvent(el, 'avatar-message');
    await sendKeys({ type: 'Hello from the keyboard' });
    await sendKeys({ press: 'Enter' });
    expect(((await sent) as CustomEvent<AvatarMessageDetail>).detail).to.deep.include({ role: 'user', content: 'Hello from the keyboard' });
    expect(input.value).to.equal('');
    await waitUntil(() => el.avatarState === 'talking', 'talking', LONG);
    await sendKeys({ press: 'Escape' });
    await waitUntil(() => el.avatarState === 'idle' && !el.playing, 'Escape interrupted', { timeout: 2000 });
    await sendKeys({ press: 'Tab' });
    expect(root.activeElement?.getAttribute('part')).to.contain('send-button');
    // Stop is disabled while idle, so the next stop is Mute.
    await sendKeys({ press: 'Tab' });
    expect(root.activeElement?.getAttribute('part')).to.contain('mute-button');
    await sendKeys({ press: 'Enter' });
    expect(el.muted).to.equal(true);
    expect(root.activeElement?.getAttribute('aria-pressed')).to.equal('true');
  });

  it('streams the reply over SSE as well', async () => {
    const el = await mountReady(defaultChat('sse'));
    const states = recordStates(el);
    const reply = new Promise<AvatarMessageDetail>((resolve) =>
      el.addEventListener('avatar-message', (e) => e.detail.role === 'assistant' && resolve(e.detail)),
    );
    await el.send('Good morning!');
    const done = await reply;
    expect(done.content.length).to.be.greaterThan(0);
    expect(done.id).to.match(/^msg_/);
    await waitUntil(() => states.includes('talking'), 'talking', LONG);
    await el.interrupt();
    expect(el.playing).to.equal(false);
  });

  for (const transport of ['socket.io', 'sse']) {
    it(`shows a hand-off notice when the conversation is handed to a person (${transport}), and again after a reload`, async () => {
      const session = await demoSession();
      const chat = () =>
        html`<avatar-chat server=${API} token=${session.token} conversation-id=${session.conversation_id} transport=${transport}></avatar-chat>`;
      const el = await mountReady(chat());
      expect(shadow(el).querySelector('[part="handoff"]')).to.equal(null);
      const safety = new Promise<AvatarSafetyDetail>((resolve) => el.addEventListener('avatar-safety', (e) => resolve(e.detail), { once: true }));
      await el.send('Can I talk to a real person please?');
      const detail = await safety;
      expect(detail.action).to.equal('escalate');
      expect(detail.escalation?.reason).to.equal('requested');
      await waitUntil(() => shadow(el).querySelector('[part="handoff"]') !== null, 'the hand-off notice', LONG);
      const notice = shadow(el).querySelector('[part="handoff"]')!;
      expect(notice.getAttribute('role')).to.equal('status');
      expect(notice.textContent).to.contain('person');
      await el.interrupt();
      el.remove();

      const reloaded = await mountReady(chat());
      expect(shadow(reloaded).querySelector('[part="handoff"]'), 'an escalated conversation shows the notice on load').to.not.equal(null);
      reloaded.remove();
    });
  }
});
