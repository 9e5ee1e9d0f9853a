import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';
import { startReceiver } from '../support/webhook-receiver.js';
import type { Receiver } from '../support/webhook-receiver.js';
import { repoRoot } from '../support/repo-root.js';
import { json } from '../support/read-json.js';
import { dereference } from '../support/dereference.js';

const SECRET = 'whsec-avatars-0123456789abcdef';
/** Small enough to test refusals cheaply, large enough for the generated models (~600 KB). */
const MAX_BYTES = 1024 * 1024;
const asset = (file: string) => readFileSync(join(repoRoot, 'assets', 'avatars', file));
const luna = asset('luna-001.vrm');
const atlas = asset('atlas-002.vrm');
const preview = asset('luna-001.png');

type Part = string | { data: Uint8Array; filename: string };

function form(parts: Record<string, Part>): FormData {
  const body = new FormData();
  for (const [name, part] of Object.entries(parts)) {
    if (typeof part === 'string') body.append(name, part);
    else body.append(name, new Blob([new Uint8Array(part.data)]), part.filename);
  }
  return body;
}


describe('Custom avatars over HTTP', () => {
  let t: TestServer;
  let receiver: Receiver;
  let avatarId: string;
  let created: Record<string, unknown> & { model_url: string; preview_url: string };

  const upload = (parts: Record<string, Part>, auth?: string) => t.request('/v1/avatars', { method: 'POST', body: form(parts), ...(auth && { auth }) });
  const eventsOf = (id: string) => receiver.received.filter((e) => e.body.type.startsWith('avatar.') && e.body.data.avatarId === id).sort((a, b) => a.body.id.localeCompare(b.body.id));
  /** What is stored: the blob folder's files, the owner's avatars, and the temporary upload folder. */
  const stored = async () => ({
    blobs: readdirSync(join(t.dataDir, 'audio')).sort(),
    avatars: (await t.service.store.avatars.listByOwner({ accountId: t.accountId, mode: 'test' })).map((a) => a.id),
    uploads: readdirSync(join(t.dataDir, 'uploads')),
  });

  before(async () => {
    t = await startTestServer({ env: { AVATAR_MAX_BYTES: String(MAX_BYTES) } });
    receiver = await startReceiver({ secret: SECRET });
    const hook = await json(await t.request('/v1/webhooks', { method: 'POST', json: { url: receiver.url, events: ['avatar.updated', 'avatar.deleted', 'conversation.ended'], secret: SECRET } }));
    assert.equal(hook.status, 201, hook.text);
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  it('uploads a generated VRM with its fields and a preview: 201, id from the name, files served by unguessable URLs', async () => {
    const res = await json(
      await upload({
        name: 'Robin Hood',
        description: 'A patient guide for first-time customers.',
        default_voice: 'en-GB-Neural2-B',
        tags: '["support","english"]',
        traits: JSON.stringify({ personality: 'Calm and patient.', speaking_style: 'Short, clear sentences.' }),
        animations: '{"idle":"idle_sway"}',
        file: { data: luna, filename: 'robin.vrm' },
        preview: { data: preview, filename: 'robin.png' },
      }),
    );
    assert.equal(res.status, 201, res.text);
    created = res.body;
    avatarId = res.body.id;
    assert.match(avatarId, /^robinhood-\d{3}$/);
    assert.deepEqual(
      { ...res.body, model_url: undefined, preview_url: undefined },
      {
        id: avatarId,
        name: 'Robin Hood',
        description: 'A patient guide for first-time customers.',
        preview_url: undefined,
        model_url: undefined,
        default_voice: 'en-GB-Neural2-B',
        tags: ['support', 'english'],
        preset: false,
        animations: { idle: 'idle_sway', talking: 'talking_gestures', thinking: 'thinking_chin' },
        voice: { default: 'en-GB-Neural2-B', alternatives: [] },
        traits: { personality: 'Calm and patient.', speaking_style: 'Short, clear sentences.' },
        safety: null,
      },
    );
    assert.match(created.model_url, new RegExp(`^${t.url}/v1/avatar-files/avf_[0-9a-z]{26}\\.vrm$`));
    assert.match(created.preview_url, new RegExp(`^${t.url}/v1/avatar-files/avf_[0-9a-z]{26}\\.png$`));
    const model = await fetch(created.model_url);
    assert.equal(model.headers.get('content-type'), 'model/gltf-binary');
    assert.match(model.headers.get('cache-control') ?? '', /immutable/);
    assert.ok(Buffer.from(await model.arrayBuffer()).equals(luna), 'the model is served as uploaded');
    assert.ok(Buffer.from(await (await fetch(created.preview_url)).arrayBuffer()).equals(preview));
    const info = await json(await t.request(`/v1/avatars/${avatarId}/model`));
    assert.deepEqual(info.body, { id: avatarId, model_url: created.model_url, format: 'vrm', spec_version: '1.0', size_bytes: luna.length });
    assert.deepEqual((await stored()).uploads, [], 'temporary files are gone');
  });

  it('lists it after the presets for its owner (API key or session token) and for no one else: 404 across accounts and modes', async () => {
    const ids = async (auth: string | null) => (await json(await t.request('/v1/avatars', { auth }))).body.avatars.map((a: { id: string }) => a.id);
    const presets = ['luna-001', 'atlas-002', 'sofia-003', 'kenji-004', 'maya-005', 'orion-006'];
    assert.deepEqual(await ids(t.key), [...presets, avatarId]);
    assert.deepEqual(await ids(null), presets);
    assert.deepEqual(await ids(t.otherKey), presets);
    assert.deepEqual(await ids(t.liveKey), presets, 'live and test data never mix');
    for (const auth of [t.otherKey, t.liveKey, null]) {
      assert.equal((await t.request(`/v1/avatars/${avatarId}`, { auth })).status, 404);
      assert.equal((await t.request(`/v1/avatars/${avatarId}/model`, { auth })).status, 404);
      assert.equal((await t.request(`/v1/avatars/${avatarId}`, { method: 'PATCH', json: { name: 'Mine' }, auth: auth ?? t.otherKey })).status, 404);
    }
    const session = await json(await t.request('/v1/sessions', { method: 'POST', json: { avatar_id: avatarId } }));
    assert.equal(session.status, 201, session.text);
    assert.equal((await json(await t.request(`/v1/avatars/${avatarId}`, { auth: session.body.token }))).body.id, avatarId, 'the widget reads it with its session token');
    assert.deepEqual(await ids(session.body.token), [...presets, avatarId]);
    assert.equal((await t.request(`/v1/avatars/${avatarId}`, { method: 'DELETE', auth: session.body.token })).status, 401, 'changes need the API key');
  });

  it('talks as the custom avatar on the local engine: its name, its default voice', async () => {
    const conversation = await json(await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: avatarId, tts_provider: 'browser' } }));
    assert.equal(conversation.status, 201, conversation.text);
    assert.equal(conversation.body.config.voice_id, 'en-GB-Neural2-B');
    const reply = await json(await t.request(`/v1/conversations/${conversation.body.id}/messages`, { method: 'POST', json: { content: 'Hi! What is your name?' } }));
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.body.content, /Robin Hood/);
    const other = await json(await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: avatarId }, auth: t.otherKey }));
    assert.equal(other.status, 400, 'another account cannot use it');
    assert.match(other.body.error.message, /avatar_id/);
  });

  it('PATCH changes the given fields; the id stays', async () => {
    const res = await json(await t.request(`/v1/avatars/${avatarId}`, { method: 'PATCH', json: { name: 'Robin', description: 'Changed.', tags: ['vip'] } }));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.id, res.body.name, res.body.description, res.body.tags, res.body.default_voice], [avatarId, 'Robin', 'Changed.', ['vip'], 'en-GB-Neural2-B']);
    for (const [body, message] of [
      [{}, /at least one field/],
      [{ colour: 'red' }, /Unknown field colour/],
      [{ default_voice: 'en-US-Neural2-Z' }, /default_voice en-US-Neural2-Z is not an avatar voice/],
      [{ traits: { personality: 'x' } }, /traits.speaking_style is required/],
      [{ tags: Array(11).fill('t') }, /tags must have at most 10 items/],
    ] as const) {
      const refused = await json(await t.request(`/v1/avatars/${avatarId}`, { method: 'PATCH', json: body }));
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.match(refused.body.error.message, message);
    }
  });

  it("carries safety defaults its conversations start from (over the persona's); PATCH replaces or removes them", async () => {
    const safety = { blocked_topics: [{ name: 'competitors', keywords: ['acme corp'] }], refusal: 'I only talk about our shop.' };
    const res = await upload({ file: { data: atlas, filename: 'shopkeeper.vrm' }, name: 'Shopkeeper', safety: JSON.stringify(safety) });
    const body = (await json(res)).body;
    assert.equal(res.status, 201, JSON.stringify(body));
    assert.deepEqual(body.safety.blocked_topics, safety.blocked_topics);
    assert.equal(body.safety.refusal, 'I only talk about our shop.');
    // Even with a persona that has its own defaults, the avatar's own settings are the base.
    const conversation = await json(await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: body.id, persona_id: 'health-clinic-reception', tts_provider: 'browser' } }));
    assert.deepEqual(conversation.body.safety.blocked_topics, safety.blocked_topics);
    const reply = await json(await t.request(`/v1/conversations/${conversation.body.id}/messages`, { method: 'POST', json: { content: 'Is Acme Corp cheaper?' } }));
    assert.equal(reply.body.content, 'I only talk about our shop.');
    assert.deepEqual(reply.body.safety, ['topic_blocked']);

    const bad = await json(await upload({ file: { data: atlas, filename: 'x.vrm' }, name: 'Bad', safety: '{"filter":"maximum"}' }));
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /safety\.filter/);

    const cleared = await json(await t.request(`/v1/avatars/${body.id}`, { method: 'PATCH', json: { safety: null } }));
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(cleared.body.safety, null);
    const withPersona = await json(await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: body.id, persona_id: 'health-clinic-reception' } }));
    assert.equal(withPersona.body.safety.blocked_topics[0].name, 'medical advice', "without its own, the persona's defaults apply");
    await t.request(`/v1/avatars/${body.id}`, { method: 'DELETE' });
  });

  it('PUT /model replaces the file under a new URL; the old URL is gone, the preview stays', async () => {
    const res = await json(await t.request(`/v1/avatars/${avatarId}/model`, { method: 'PUT', body: form({ file: { data: atlas, filename: 'atlas.vrm' } }) }));
    assert.equal(res.status, 200, res.text);
    assert.notEqual(res.body.model_url, created.model_url);
    assert.equal(res.body.preview_url, created.preview_url);
    assert.equal((await fetch(created.model_url)).status, 404);
    assert.ok(Buffer.from(await (await fetch(res.body.model_url)).arrayBuffer()).equals(atlas));
    assert.equal((await json(await t.request(`/v1/avatars/${avatarId}/model`))).body.size_bytes, atlas.length);
    created = res.body;
  });

  it('refuses a non-VRM, an oversized file and a truncated GLB — and every other bad upload — storing nothing', async () => {
    const before = await stored();
    const cases: [string, () => Promise<Response>, number, RegExp][] = [
      ['a PNG as the model', () => upload({ name: 'Bad', file: { data: preview, filename: 'x.vrm' } }), 400, /file must be a VRM file \(a glTF binary\); this is not a glTF binary/],
      ['a plain glTF binary without VRM', () => upload({ name: 'Bad', file: { data: plainGlb(), filename: 'x.vrm' } }), 400, /has no VRM extension/],
      ['a truncated GLB', () => upload({ name: 'Bad', file: { data: luna.subarray(0, 300_000), filename: 'x.vrm' } }), 400, /file is truncated: the header says \d+ bytes, got 300000/],
      ['an empty file', () => upload({ name: 'Bad', file: { data: new Uint8Array(0), filename: 'x.vrm' } }), 400, /file is empty/],
      ['a file just over AVATAR_MAX_BYTES', () => upload({ name: 'Big', file: { data: new Uint8Array(MAX_BYTES + 1), filename: 'x.vrm' } }), 413, new RegExp(`file is ${MAX_BYTES + 1} bytes; the limit is ${MAX_BYTES}`)],
      ['a body far over every limit (cut off while streaming)', () => upload({ name: 'Huge', file: { data: new Uint8Array(8 * MAX_BYTES), filename: 'x.vrm' } }), 413, /larger than this route takes/],
      ['a preview that is not a PNG', () => upload({ name: 'Bad', file: { data: luna, filename: 'x.vrm' }, preview: { data: luna.subarray(0, 1000), filename: 'p.png' } }), 400, /preview must be a PNG image/],
      ['a truncated preview', () => upload({ name: 'Bad', file: { data: luna, filename: 'x.vrm' }, preview: { data: preview.subarray(0, preview.length - 20), filename: 'p.png' } }), 400, /preview is truncated/],
      ['no file', () => upload({ name: 'Bad' }), 400, /file is required/],
      ['the file as a text field', () => upload({ name: 'Bad', file: 'not a file' }), 400, /file must be a file part/],
      ['two files', () => upload({ name: 'Bad', file: { data: luna, filename: 'x.vrm' }, extra: { data: luna, filename: 'y.vrm' } }), 400, /Too many files|Unknown file field extra/],
      ['an unknown text field', () => upload({ name: 'Bad', colour: 'red', file: { data: luna, filename: 'x.vrm' } }), 400, /Unknown field colour/],
      ['no name', () => upload({ file: { data: luna, filename: 'x.vrm' } }), 400, /name is required/],
      ['tags that are not JSON', () => upload({ name: 'Bad', tags: 'a,b', file: { data: luna, filename: 'x.vrm' } }), 400, /tags must be valid JSON, e\.g\. \["support","english"\]/],
      ['tags of the wrong type', () => upload({ name: 'Bad', tags: '[1]', file: { data: luna, filename: 'x.vrm' } }), 400, /tags\[0\] must be a string/],
      ['an unknown voice', () => upload({ name: 'Bad', default_voice: 'xx-XX-Neural2-A', file: { data: luna, filename: 'x.vrm' } }), 400, /default_voice xx-XX-Neural2-A is not an avatar voice/],
      ['JSON instead of a form', () => t.request('/v1/avatars', { method: 'POST', json: { name: 'Bad' } }), 415, /multipart\/form-data/],
      ['a form without its boundary', () => t.request('/v1/avatars', { method: 'POST', body: '--x\r\n', headers: { 'content-type': 'multipart/form-data' } }), 400, /malformed/],
      ['a cut-off form', () => t.request('/v1/avatars', { method: 'POST', body: '--b\r\nContent-Disposition: form-data; name="file"; filename="x.vrm"\r\n\r\nglTF', headers: { 'content-type': 'multipart/form-data; boundary=b' } }), 400, /malformed/],
    ];
    for (const [what, send, status, message] of cases) {
      const res = await json(await send());
      assert.equal(res.status, status, `${what}: ${res.text}`);
      assert.match(res.body.error.message, message, what);
      assert.equal(res.body.error.code, { 400: 'invalid_request', 413: 'payload_too_large', 415: 'unsupported_media_type' }[status], what);
      assert.deepEqual(await stored(), before, `${what}: nothing stored`);
    }
    // The PUT route refuses the same way and keeps the model it has.
    const truncated = await json(await t.request(`/v1/avatars/${avatarId}/model`, { method: 'PUT', body: form({ file: { data: atlas.subarray(0, 1000), filename: 'x.vrm' } }) }));
    assert.equal(truncated.status, 400);
    assert.deepEqual(await stored(), before);
    assert.equal((await json(await t.request(`/v1/avatars/${avatarId}`))).body.model_url, created.model_url);
  });

  it('presets are read-only: PATCH, PUT /model and DELETE answer 403 forbidden', async () => {
    for (const res of [
      await t.request('/v1/avatars/luna-001', { method: 'PATCH', json: { name: 'Moon' } }),
      await t.request('/v1/avatars/luna-001/model', { method: 'PUT', body: form({ file: { data: luna, filename: 'x.vrm' } }) }),
      await t.request('/v1/avatars/luna-001', { method: 'DELETE' }),
    ]) {
      const { status, body } = await json(res);
      assert.equal(status, 403);
      assert.deepEqual(body.error.code, 'forbidden');
      assert.match(body.error.message, /luna-001 is a preset; presets are read-only/);
    }
    assert.equal((await json(await t.request('/v1/avatars/luna-001'))).body.name, 'Luna');
  });

  it('DELETE removes the avatar and its files and ends its active conversations (reason avatar_deleted)', async () => {
    const conversation = (await json(await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: avatarId, tts_provider: 'browser' } }))).body.id as string;
    const res = await json(await t.request(`/v1/avatars/${avatarId}`, { method: 'DELETE' }));
    assert.deepEqual([res.status, res.body], [200, { deleted: true }]);
    assert.equal((await t.request(`/v1/avatars/${avatarId}`)).status, 404);
    assert.equal((await fetch(created.model_url)).status, 404);
    assert.equal((await fetch(created.preview_url)).status, 404);
    assert.deepEqual((await stored()).blobs.filter((file) => file.startsWith('avf_')), [], 'no avatar file is left');
    const ended = await json(await t.request(`/v1/conversations/${conversation}`));
    assert.deepEqual([ended.body.status, ended.body.end_reason], ['ended', 'avatar_deleted']);
    const sent = await json(await t.request(`/v1/conversations/${conversation}/messages`, { method: 'POST', json: { content: 'Still there?' } }));
    assert.equal(sent.status, 409);
    assert.equal((await t.request(`/v1/avatars/${avatarId}`, { method: 'DELETE' })).status, 404);
    await receiver.waitFor(() => receiver.ofType('conversation.ended').some((e) => e.body.data.conversationId === conversation && e.body.data.reason === 'avatar_deleted'));
  });

  it('delivers every change to the webhook, signed, with the documented data', async () => {
    await receiver.waitFor(() => eventsOf(avatarId).length >= 4);
    const events = eventsOf(avatarId);
    assert.ok(events.every((e) => e.verified));
    assert.deepEqual(
      events.map((e) => [e.body.type, e.body.data.change, e.body.data.fields]),
      [
        ['avatar.updated', 'created', undefined],
        ['avatar.updated', 'updated', ['name', 'description', 'tags']],
        ['avatar.updated', 'model_replaced', undefined],
        ['avatar.deleted', undefined, undefined],
      ],
    );
    const [createdEvent, , replacedEvent, deletedEvent] = events.map((e) => e.body.data as { avatarId: string; avatar: Record<string, unknown> });
    assert.deepEqual(Object.keys(createdEvent!).sort(), ['avatar', 'avatarId', 'change']);
    const avatar = createdEvent!.avatar;
    assert.deepEqual(
      { ...avatar, createdAt: undefined, updatedAt: undefined },
      {
        id: avatarId,
        name: 'Robin Hood',
        description: 'A patient guide for first-time customers.',
        tags: ['support', 'english'],
        defaultVoice: 'en-GB-Neural2-B',
        animations: { idle: 'idle_sway', talking: 'talking_gestures', thinking: 'thinking_chin' },
        traits: { personality: 'Calm and patient.', speakingStyle: 'Short, clear sentences.' },
        vrmVersion: '1.0',
        modelBytes: luna.length,
        hasPreview: true,
        createdAt: undefined,
        updatedAt: undefined,
      },
    );
    assert.match(String(avatar.createdAt), /^\d{4}-\d\d-\d\dT/);
    assert.equal(replacedEvent!.avatar.modelBytes, atlas.length);
    assert.deepEqual([deletedEvent!.avatarId, deletedEvent!.avatar.name], [avatarId, 'Robin']);
    assert.ok(!JSON.stringify(events.map((e) => e.body.data)).includes('avf_'), 'file keys (which work as URLs) are not sent');
  });

  it('documents both multipart bodies in the OpenAPI document', async () => {
    const doc = dereference((await json(await t.request('/v1/openapi.json', { auth: null }))).body);
    for (const [path, method, required] of [['/v1/avatars', 'post', ['name', 'file']], ['/v1/avatars/{id}/model', 'put', ['file']]] as const) {
      const content = doc.paths[path][method].requestBody.content['multipart/form-data'];
      assert.deepEqual(content.schema.required, required);
      assert.equal(content.schema.properties.file.contentMediaType, 'model/gltf-binary');
      assert.match(content.schema.properties.file.description, new RegExp(`at most ${MAX_BYTES} bytes`));
      assert.equal(content.schema.properties.preview.contentMediaType, 'image/png');
    }
    const create = doc.paths['/v1/avatars'].post.requestBody.content['multipart/form-data'];
    assert.deepEqual(create.encoding, {
      tags: { contentType: 'application/json' },
      traits: { contentType: 'application/json' },
      animations: { contentType: 'application/json' },
      safety: { contentType: 'application/json' },
    });
    assert.equal(create.schema.properties.tags.contentSchema.maxItems, 10);
    assert.ok(doc.paths['/v1/avatars/{id}'].patch.requestBody.content['application/json']);
    assert.ok(doc.paths['/v1/avatars/{id}'].delete);
    assert.ok(doc.paths['/v1/avatar-files/{file}'].get);
  });
});

/** A valid glTF binary with no VRM extension. */
function plainGlb(): Uint8Array {
  const text = Buffer.from(JSON.stringify({ asset: { version: '2.0' } }).padEnd(32, ' '));
  const out = Buffer.alloc(12 + 8 + text.length);
  out.writeUInt32LE(0x46546c67, 0);
  out.writeUInt32LE(2, 4);
  out.writeUInt32LE(out.length, 8);
  out.writeUInt32LE(text.length, 12);
  out.writeUInt32LE(0x4e4f534a, 16);
  text.copy(out, 20);
  return out;
}
