// Two services over one database (two processes of a deployment) sharing a message bus: a key
// revoked through one is heard by the other's revocation listeners and dropped from its principal
// cache; a conversation written through one is new to the other's read caches; an interrupt
// sent to one stops the reply the other runs.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import type { ApiKeyRecord, AvatarService, MessageBus } from '../../core/index.js';
import { FsBlobStore, LocalMessageBus, createAvatarService, createSqliteStore, openRedis } from '../../core/index.js';
import { startRedis } from '../support/redis-engine.js';
import type { RedisEngine } from '../support/redis-engine.js';
import { until } from '../support/processes.js';
import { scriptedProvider } from '../support/scripted-provider.js';

let engine: RedisEngine;
before(async () => {
  engine = await startRedis();
});
after(async () => {
  await engine.stop();
});

async function twoNodes(t: TestContext, buses: [MessageBus, MessageBus]): Promise<[AvatarService, AvatarService]> {
  const dir = await mkdtemp(join(tmpdir(), 'avatar-revocation-'));
  const nodes = await Promise.all(
    buses.map(async (bus) =>
      createAvatarService({
        store: await createSqliteStore({ filename: join(dir, 'avatar.db') }),
        blobs: new FsBlobStore(join(dir, 'audio')),
        jwtSecret: 'core-unit-tests-secret-0123456789abcdef',
        aiProviders: [scriptedProvider({ reply: Array.from({ length: 200 }, (_, i) => `Point ${i} is here.`).join(' '), delayMs: 10 })],
        speechProviders: [],
        bus,
      }),
    ),
  );
  for (const node of nodes) await node.start();
  t.after(async () => {
    for (const node of nodes) await node.close();
    await rm(dir, { recursive: true, force: true });
  });
  return nodes as [AvatarService, AvatarService];
}

for (const [name, buses] of [
  ['one in-memory bus', async () => { const bus = new LocalMessageBus(); return [bus, bus] as [MessageBus, MessageBus]; }],
  ['Redis', async (t: TestContext) => {
    const prefix = `revocation${Math.random()}:`;
    const redis = await Promise.all([openRedis({ url: engine.url, prefix }), openRedis({ url: engine.url, prefix })]);
    t.after(() => Promise.all(redis.map((r) => r.close())));
    return [redis[0].bus, redis[1].bus] as [MessageBus, MessageBus];
  }],
] as const) {
  describe(`key revocation across processes (${name})`, () => {
    it('tells every process’s listeners once, with the revoked key; the revoking process hears it once too', async (t) => {
      const [a, b] = await twoNodes(t, await buses(t));
      const account = await a.accounts.createAccount({ email: 'x@example.com', password: 'password-123' });
      const issued = await a.accounts.createApiKey(account.id, { name: 'k', mode: 'test' });
      // Node b has the key in its principal cache.
      await b.accounts.authenticateApiKey(issued.key);
      const heard: Record<'a' | 'b', ApiKeyRecord[]> = { a: [], b: [] };
      a.accounts.onKeyRevoked((key) => heard.a.push(key));
      b.accounts.onKeyRevoked((key) => heard.b.push(key));
      await a.accounts.revokeApiKey(account.id, issued.record.id);
      assert.equal(heard.a.length, 1, 'the revoking process hears it before revokeApiKey returns');
      await until(() => heard.b.length === 1, 'the other process to hear of it');
      assert.equal(heard.b[0]!.id, issued.record.id);
      assert.notEqual(heard.b[0]!.revokedAt, null);
      await assert.rejects(b.accounts.authenticateApiKey(issued.key), /revoked/);
      // Revoking again changes nothing and tells nobody again.
      await a.accounts.revokeApiKey(account.id, issued.record.id);
      // A marker published after it, heard by b, means b has heard everything before it.
      let marked = false;
      const marker = b.bus.subscribe('marker', () => (marked = true));
      await marker.ready;
      await a.bus.publish('marker', 'x');
      await until(() => marked, 'the marker');
      await marker.close();
      assert.deepEqual([heard.a.length, heard.b.length], [1, 1]);
    });

    it('a conversation written through one process gets a new version in the other’s read caches', async (t) => {
      const [a, b] = await twoNodes(t, await buses(t));
      const account = await a.accounts.createAccount({ email: 'y@example.com', password: 'password-123' });
      const owner = { accountId: account.id, mode: 'test' as const };
      const conversation = await a.conversations.create(owner, { avatarId: 'luna-001' });
      const before = b.conversationVersions.of(conversation.id);
      const other = b.conversationVersions.of('conv_other');
      await a.conversations.end(owner, conversation.id);
      await until(() => b.conversationVersions.of(conversation.id) !== before, 'node b to see the change');
      assert.equal(b.conversationVersions.of('conv_other'), other, 'other conversations keep their version');
    });

    it('an interrupt sent to one process stops the reply another process runs', async (t) => {
      const [a, b] = await twoNodes(t, await buses(t));
      const account = await a.accounts.createAccount({ email: 'z@example.com', password: 'password-123' });
      const owner = { accountId: account.id, mode: 'test' as const };
      const conversation = await a.conversations.create(owner, { avatarId: 'luna-001', ttsProvider: 'browser' });
      const started = await a.conversations.startReply(owner, conversation.id, 'talk for a while');
      const events: string[] = [];
      const finished = (async () => {
        for await (const event of started.events) events.push(event.type === 'done' ? `done:${event.message.status}` : event.type);
      })();
      await until(() => events.includes('text-delta'), 'the reply to begin');
      assert.equal(b.conversations.isReplying(conversation.id), false, 'node b runs no reply of it');
      await b.conversations.interrupt(owner, conversation.id);
      await finished;
      assert.deepEqual(events.filter((e) => e.startsWith('done')), ['done:interrupted']);
      assert.equal(a.conversations.isReplying(conversation.id), false);
    });
  });
}
