import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import type { AvatarService, Owner, RetentionOptions } from '../../../core/index.js';
import {
  AUDIO_EXPIRED,
  ConfigurationError,
  FsBlobStore,
  ManualClock,
  createAvatarService,
  createIdGenerator,
  createLocalProvider,
  createLocalSpeechProvider,
  createSqliteStore,
} from '../../../core/index.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Two services (two nodes) on one SQLite file and one audio folder, sharing a manual clock. */
async function twoNodes(t: TestContext, retention: RetentionOptions) {
  const dir = await mkdtemp(join(tmpdir(), 'avatar-retention-'));
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const audioDir = join(dir, 'audio');
  const node = async () =>
    createAvatarService({
      store: await createSqliteStore({ filename: join(dir, 'avatar.db') }),
      blobs: new FsBlobStore(audioDir),
      jwtSecret: 'core-unit-tests-secret-0123456789abcdef',
      aiProviders: [createLocalProvider()],
      speechProviders: [createLocalSpeechProvider({ poolSize: 1 })],
      clock,
      ids: createIdGenerator(clock),
      retention,
    });
  const a = await node();
  await a.start();
  const b = await node();
  await b.start();
  t.after(async () => {
    await a.close();
    await b.close();
    await rm(dir, { recursive: true, force: true });
  });
  const files = async () => (await readdir(audioDir).catch(() => [] as string[])).sort();
  return { a, b, clock, files };
}

async function conversationWith(service: AvatarService, owner: Owner, turns: number) {
  const conversation = await service.conversations.create(owner, { avatarId: 'luna-001' });
  for (let i = 0; i < turns; i++) await service.conversations.sendMessage(owner, conversation.id, `Hello, turn ${i + 1}.`);
  return conversation.id;
}

describe('RetentionSweeper', () => {
  it('deletes reply audio past AUDIO_RETENTION and conversations past CONVERSATION_RETENTION, with two nodes sweeping at once', async (t) => {
    const { a, b, clock, files } = await twoNodes(t, { audioMs: DAY, conversationsMs: 7 * DAY });
    const account = await a.accounts.createAccount({ email: 'r@example.com', password: 'password-r' });
    const owner: Owner = { accountId: account.id, mode: 'test' };
    const old = await conversationWith(a, owner, 2);
    const oldReplies = (await a.store.messages.listByConversation(old)).filter((m) => m.role === 'assistant');
    assert.equal(oldReplies.length, 2);
    assert.ok(oldReplies.every((m) => m.audioBase !== null), 'the replies were spoken');
    const oldFiles = await files();
    assert.ok(oldFiles.length >= 2);

    clock.advance(2 * DAY);
    const recent = await conversationWith(b, owner, 1);
    const recentFiles = (await files()).filter((f) => !oldFiles.includes(f));
    assert.ok(recentFiles.length >= 1);

    await Promise.all([a.retention.sweep(), b.retention.sweep()]);
    assert.deepEqual(await files(), recentFiles, "only the old replies' audio is gone");
    for (const message of (await a.store.messages.listByConversation(old)).filter((m) => m.role === 'assistant')) {
      assert.deepEqual([message.audioKey, message.audioBase, message.audioError], [null, null, AUDIO_EXPIRED]);
      assert.notEqual(message.content, '', 'the text stays');
    }
    const recentReply = (await a.store.messages.listByConversation(recent)).find((m) => m.role === 'assistant')!;
    assert.notEqual(recentReply.audioBase, null);

    // Day 8: the first conversation was last updated 8 days ago, the second 6.
    clock.advance(6 * DAY);
    await Promise.all([a.retention.sweep(), b.retention.sweep()]);
    await assert.rejects(a.conversations.get(owner, old), { code: 'not_found' });
    assert.equal((await a.store.messages.listByConversation(old)).length, 0);
    assert.equal((await a.conversations.get(owner, recent)).id, recent);

    // Day 10: the second one goes too, with its audio (already past AUDIO_RETENTION, so gone before).
    clock.advance(2 * DAY);
    const swept = await a.retention.sweep();
    assert.deepEqual(swept, { audioDeleted: 0, conversationsDeleted: 1 });
    await assert.rejects(b.conversations.get(owner, recent), { code: 'not_found' });
    assert.deepEqual(await files(), []);
  });

  it('keeps everything when no retention is set', async (t) => {
    const { a, clock, files } = await twoNodes(t, {});
    const account = await a.accounts.createAccount({ email: 'k@example.com', password: 'password-k' });
    const owner: Owner = { accountId: account.id, mode: 'test' };
    const id = await conversationWith(a, owner, 1);
    const before = await files();
    clock.advance(3650 * DAY);
    assert.equal(a.retention.enabled, false);
    assert.deepEqual(await a.retention.sweep(), { audioDeleted: 0, conversationsDeleted: 0 });
    assert.deepEqual(await files(), before);
    assert.equal((await a.conversations.get(owner, id)).id, id);
  });

  it('refuses a retention period under an hour, naming the option', async () => {
    const options = {
      store: await createSqliteStore({ filename: ':memory:' }),
      blobs: new FsBlobStore(join(tmpdir(), 'avatar-retention-unused')),
      jwtSecret: 'core-unit-tests-secret-0123456789abcdef',
      aiProviders: [createLocalProvider()],
      speechProviders: [],
    };
    try {
      assert.throws(() => createAvatarService({ ...options, retention: { audioMs: 60_000 } }), (error: unknown) => {
        assert.ok(error instanceof ConfigurationError);
        assert.match(error.message, /^retention\.audioMs: must be at least 1h/);
        return true;
      });
    } finally {
      await options.store.close();
    }
  });
});
