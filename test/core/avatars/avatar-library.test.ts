import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { AvatarRecord, Owner, ServiceError } from '../../../core/index.js';
import { avatarIdsOf, avatarSlug } from '../../../core/avatars/avatar-ids.js';
import { startCoreService } from '../../support/core-service.js';
import { repoRoot } from '../../support/repo-root.js';

const START = Date.UTC(2026, 4, 5, 10, 0, 0);
const asset = (file: string) => new Uint8Array(readFileSync(join(repoRoot, 'assets', 'avatars', file)));
const luna = asset('luna-001.vrm');
const atlas = asset('atlas-002.vrm');
const preview = asset('luna-001.png');

function rejectsWith(code: string, status: number, field?: string) {
  return (error: unknown) => {
    const e = error as ServiceError;
    assert.equal(e.code, code, e.message);
    assert.equal(e.status, status);
    if (field !== undefined) assert.equal(e.field, field);
    return true;
  };
}

describe('avatar ids', () => {
  it('slug the name to its letters a–z: accents dropped, nothing else kept, avatar when empty, at most 32', () => {
    assert.equal(avatarSlug('Robin'), 'robin');
    assert.equal(avatarSlug('Dr. Émile Zoë-Smith 2'), 'dremilezoesmith');
    assert.equal(avatarSlug('李雷'), 'avatar');
    assert.equal(avatarSlug('🙂 123'), 'avatar');
    assert.equal(avatarSlug('a'.repeat(80)), 'a'.repeat(32));
  });

  it('a slug has 1000 ids, 000 to 999', () => {
    const ids = avatarIdsOf('robin');
    assert.equal(ids.length, 1000);
    assert.deepEqual([ids[0], ids[42], ids[999]], ['robin-000', 'robin-042', 'robin-999']);
  });
});

describe('AvatarLibrary', () => {
  it('creates a custom avatar seen by its owner only, next to the presets', async (t) => {
    const { service } = await startCoreService(t, START);
    const owner: Owner = { accountId: (await service.accounts.createAccount({ email: 'o@example.com', password: 'password-o' })).id, mode: 'test' };
    const avatar = await service.avatars.create(owner, { name: 'Robin', model: luna, preview, tags: ['support'] });
    assert.match(avatar.id, /^robin-\d{3}$/);
    assert.deepEqual([avatar.preset, avatar.defaultVoice, avatar.model.vrmVersion, avatar.model.bytes], [false, 'en-US-Neural2-F', '1.0', luna.byteLength]);
    assert.deepEqual(avatar.animations, { idle: 'idle_breathing', talking: 'talking_gestures', thinking: 'thinking_chin' });
    assert.ok(await service.blobs.stat(avatar.model.key));
    assert.ok(await service.blobs.stat(avatar.previewKey!));

    const all = await service.avatars.list(owner);
    assert.deepEqual(all.map((a) => a.id), [...service.avatars.presets.list().map((a) => a.id), avatar.id]);
    assert.deepEqual((await service.avatars.list()).map((a) => a.preset), Array(6).fill(true));
    assert.equal(await service.avatars.find({ ...owner, mode: 'live' }, avatar.id), undefined);
    assert.equal(await service.avatars.find(undefined, avatar.id), undefined);
    await assert.rejects(service.avatars.get({ accountId: 'acct_other', mode: 'test' }, avatar.id), rejectsWith('not_found', 404));
  });

  it('presets are read-only: 403 for update, a new model and delete', async (t) => {
    const { service } = await startCoreService(t, START);
    const owner: Owner = { accountId: 'acct_anyone', mode: 'test' };
    await assert.rejects(service.avatars.update(owner, 'luna-001', { name: 'Moon' }), rejectsWith('forbidden', 403));
    await assert.rejects(service.avatars.replaceModel(owner, 'luna-001', { model: luna }), rejectsWith('forbidden', 403));
    await assert.rejects(service.avatars.delete(owner, 'luna-001'), rejectsWith('forbidden', 403));
    assert.equal(service.avatars.presets.get('luna-001').name, 'Luna');
  });

  it('refuses bad fields and files before storing anything', async (t) => {
    const { service } = await startCoreService(t, START);
    const owner: Owner = { accountId: (await service.accounts.createAccount({ email: 'o@example.com', password: 'password-o' })).id, mode: 'test' };
    const cases: [Parameters<typeof service.avatars.create>[1], string][] = [
      [{ name: ' ', model: luna }, 'name'],
      [{ name: 'x'.repeat(65), model: luna }, 'name'],
      [{ name: 'Robin', defaultVoice: 'en-US-Neural2-Z', model: luna }, 'default_voice'],
      [{ name: 'Robin', tags: Array(11).fill('t'), model: luna }, 'tags'],
      [{ name: 'Robin', traits: { personality: '', speakingStyle: 'x' }, model: luna }, 'traits.personality'],
      [{ name: 'Robin', animations: { idle: 'dance' as never }, model: luna }, 'animations.idle'],
      [{ name: 'Robin', model: preview }, 'file'],
      [{ name: 'Robin', model: luna.subarray(0, 5000) }, 'file'],
      [{ name: 'Robin', model: luna, preview: luna }, 'preview'],
    ];
    for (const [input, field] of cases) await assert.rejects(service.avatars.create(owner, input), rejectsWith('invalid_request', 400, field), field);
    assert.deepEqual(await service.avatars.presets.list().length, 6);
    assert.deepEqual(await service.store.avatars.listByOwner(owner), []);
  });

  it('picks a free id at random and answers 409 once all 1000 of a slug are taken', async (t) => {
    const { service } = await startCoreService(t, START);
    const owner: Owner = { accountId: (await service.accounts.createAccount({ email: 'o@example.com', password: 'password-o' })).id, mode: 'test' };
    const record = (id: string): AvatarRecord => ({
      id, accountId: owner.accountId, mode: 'test', name: 'Zed', description: '', tags: [], defaultVoice: 'en-US-Neural2-F',
      animations: { idle: 'idle_breathing', talking: 'talking_gestures', thinking: 'thinking_chin' }, personality: 'p', speakingStyle: 's',
      modelKey: 'avf_taken.vrm', modelBytes: 1, vrmVersion: '1.0', previewKey: null, safety: null, createdAt: START, updatedAt: START,
    });
    const ids = avatarIdsOf('zed');
    await service.store.transaction(async (tx) => {
      for (const id of ids.slice(0, 999)) await tx.avatars.create(record(id));
    });
    assert.equal((await service.avatars.create(owner, { name: 'ZED!', model: luna })).id, 'zed-999', 'the one id left');
    await assert.rejects(service.avatars.create(owner, { name: 'Zed', model: luna }), (error: unknown) => {
      assert.equal((error as ServiceError).status, 409);
      assert.match((error as Error).message, /zed-000 to zed-999\) is taken/);
      return true;
    });
  });

  it('updates fields (the id stays), replaces the model under a new key and deletes the old file', async (t) => {
    const { service, clock } = await startCoreService(t, START);
    const owner: Owner = { accountId: (await service.accounts.createAccount({ email: 'o@example.com', password: 'password-o' })).id, mode: 'test' };
    const created = await service.avatars.create(owner, { name: 'Robin', model: luna, preview });
    clock.advance(1000);
    const updated = await service.avatars.update(owner, created.id, { name: 'Robina', traits: { personality: 'Bold.', speakingStyle: 'Terse.' }, animations: { idle: 'idle_sway' } });
    assert.equal(updated.id, created.id);
    assert.deepEqual([updated.name, updated.traits.personality, updated.animations.idle, updated.animations.talking], ['Robina', 'Bold.', 'idle_sway', 'talking_gestures']);
    assert.equal(updated.updatedAt, START + 1000);
    await assert.rejects(service.avatars.update(owner, created.id, {}), rejectsWith('invalid_request', 400, 'body'));

    const replaced = await service.avatars.replaceModel(owner, created.id, { model: atlas });
    assert.notEqual(replaced.model.key, created.model.key);
    assert.equal(replaced.model.bytes, atlas.byteLength);
    assert.equal(replaced.previewKey, created.previewKey, 'the preview stays without a new one');
    assert.equal(await service.blobs.stat(created.model.key), undefined, 'the old model is deleted');
    assert.deepEqual(await service.avatars.get(owner, created.id), replaced);
  });

  it('deleting an avatar removes its files and ends its active conversations (reason avatar_deleted)', async (t) => {
    const { service } = await startCoreService(t, START);
    const owner: Owner = { accountId: (await service.accounts.createAccount({ email: 'o@example.com', password: 'password-o' })).id, mode: 'test' };
    const avatar = await service.avatars.create(owner, { name: 'Robin', model: luna, preview, defaultVoice: 'en-GB-Neural2-B' });
    const conversation = await service.conversations.create(owner, { avatarId: avatar.id, ttsProvider: 'browser' });
    assert.equal(conversation.voiceId, 'en-GB-Neural2-B', "the avatar's default voice");
    const reply = await service.conversations.sendMessage(owner, conversation.id, 'Hello! What is your name?');
    assert.match(reply.content, /Robin/);

    await service.avatars.delete(owner, avatar.id);
    assert.equal(await service.avatars.find(owner, avatar.id), undefined);
    assert.equal(await service.blobs.stat(avatar.model.key), undefined);
    assert.equal(await service.blobs.stat(avatar.previewKey!), undefined);
    const ended = await service.conversations.get(owner, conversation.id);
    assert.deepEqual([ended.status, ended.endReason], ['ended', 'avatar_deleted']);
    await assert.rejects(service.conversations.create(owner, { avatarId: avatar.id }), rejectsWith('invalid_request', 400, 'avatar_id'));
  });
});
