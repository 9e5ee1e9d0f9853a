// A custom avatar end to end in real Chromium: one of the project's generated VRM files uploaded
// over HTTP with the demo account's key (served by web-test-runner.config.mjs), then loaded by
// <avatar-chat> through a session of the same account, like a preset.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../widget/index.js';
import type { AvatarChat } from '../../widget/index.js';
import { AvatarStage } from '../../widget/stage/avatar-stage.js';
// @ts-expect-error: a virtual module served by the avatar-test-server plugin
import { API_KEY, SERVER_URL } from '/__avatar-server.js';

const API = `${SERVER_URL as string}/v1`;
const SESSION_URL = `${SERVER_URL as string}/demo/session`;
const auth = { authorization: `Bearer ${API_KEY as string}` };

interface UploadedAvatar {
  id: string;
  name: string;
  model_url: string;
  preview_url: string | null;
}

async function uploadAvatar(name: string, file: string): Promise<UploadedAvatar> {
  const model = await (await fetch(`${SERVER_URL as string}/assets/avatars/${file}`)).blob();
  const body = new FormData();
  body.set('name', name);
  body.set('traits', JSON.stringify({ personality: 'Calm and precise.', speaking_style: 'Short sentences.' }));
  body.set('file', model, file);
  const res = await fetch(`${API}/avatars`, { method: 'POST', headers: auth, body });
  expect(res.status, await res.clone().text()).to.equal(201);
  return (await res.json()) as UploadedAvatar;
}

describe('<avatar-chat> with a custom avatar', () => {
  let avatar: UploadedAvatar;

  before(async () => {
    avatar = await uploadAvatar('Custom Kenji', 'kenji-004.vrm');
  });
  after(async () => {
    await fetch(`${API}/avatars/${avatar.id}`, { method: 'DELETE', headers: auth });
  });

  it('loads the uploaded VRM from its model_url and renders it', async () => {
    expect(avatar.id).to.match(/^customkenji-\d{3}$/);
    const wrapper = await fixture<HTMLDivElement>(
      html`<div style="width:480px"><avatar-chat server=${API} session-url=${SESSION_URL} avatar-id=${avatar.id}></avatar-chat></div>`,
    );
    const el = wrapper.querySelector<AvatarChat>('avatar-chat')!;
    if (!el.ready) {
      await new Promise<void>((resolve, reject) => {
        el.addEventListener('avatar-ready', () => resolve(), { once: true });
        el.addEventListener('avatar-error', (e) => reject(new Error(`avatar-error ${e.detail.code}: ${e.detail.message}`)), { once: true });
      });
    }
    const stage = el.stage!;
    expect(stage).to.be.instanceOf(AvatarStage);
    expect(stage.vrm, 'VRM loaded').to.not.equal(undefined);
    expect((stage.vrm!.meta as { name?: string }).name, "the uploaded file's own meta").to.equal('Kenji');
    const fetched = performance.getEntriesByType('resource').map((entry) => entry.name);
    expect(fetched, 'the model came from the custom avatar URL').to.include(avatar.model_url);
    await waitUntil(() => stage.renderedFrames > 0, 'a frame is rendered', { timeout: 45_000, interval: 20 });
    const image = stage.capture();
    let opaque = 0;
    for (let i = 3; i < image.data.length; i += 4) if (image.data[i]! > 0) opaque++;
    expect(opaque / (image.width * image.height), 'share of the canvas covered by the avatar').to.be.greaterThan(0.05);
  });

  it('stays private: without credentials the list shows the presets only and the avatar is 404', async () => {
    const res = await fetch(`${API}/avatars`);
    const { avatars } = (await res.json()) as { avatars: { id: string }[] };
    expect(avatars.map((a) => a.id)).to.not.include(avatar.id);
    expect((await fetch(`${API}/avatars/${avatar.id}`)).status).to.equal(404);
  });
});
