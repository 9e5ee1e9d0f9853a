import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AccountRecord, AvatarRecord, ConversationRecord, MessageRecord, Store, WebhookRecord } from '../../../core/index.js';
import { DEFAULT_SAFETY, createIdGenerator } from '../../../core/index.js';

/**
 * The behaviour every {@link Store} engine must have. Each engine's test file calls this with a
 * factory giving a fresh, migrated store.
 */
export function testStoreConformance(engine: string, open: () => Promise<Store>): void {
  describe(`Store conformance: ${engine}`, () => {
    const ids = createIdGenerator();
    let store: Store;
    let account: AccountRecord;

    const newAccount = (email: string): AccountRecord => ({
      id: ids.next('acct'),
      email,
      passwordHash: 'scrypt$x',
      tier: 'free',
      rpmOverride: null,
      connectionsOverride: null,
      createdAt: 1_700_000_000_000,
    });
    const newConversation = (owner: AccountRecord, mode: 'live' | 'test' = 'test'): ConversationRecord => ({
      id: ids.next('conv'),
      accountId: owner.id,
      mode,
      avatarId: 'luna-001',
      personaId: null,
      status: 'active',
      aiProvider: 'local',
      aiModel: 'm',
      ttsProvider: 'local',
      voiceId: 'en-US-Neural2-F',
      systemPrompt: 'Be brief.',
      aiTokens: 0,
      ttsCharacters: 0,
      createdAt: 1_700_000_000_000,
      updatedAt: 1_700_000_000_000,
      endedAt: null,
      endReason: null,
      safety: DEFAULT_SAFETY,
      escalatedAt: null,
      escalationReason: null,
    });
    const newMessage = (conversationId: string, createdAt: number, content = 'hello'): MessageRecord => ({
      id: ids.next('msg'),
      conversationId,
      role: 'user',
      content,
      status: 'complete',
      audioKey: null,
      audioBase: null,
      audioError: null,
      aiTokens: 0,
      ttsCharacters: 0,
      createdAt,
      safety: [],
    });

    before(async () => {
      store = await open();
      account = newAccount('owner@example.com');
      await store.accounts.create(account);
    });
    after(() => store.close());

    it('migrating twice applies nothing the second time', async () => {
      assert.deepEqual(await store.migrate(), []);
    });

    it('stores and finds accounts by id and email; emails are unique', async () => {
      assert.deepEqual(await store.accounts.findById(account.id), account);
      assert.deepEqual(await store.accounts.findByEmail('owner@example.com'), account);
      assert.equal(await store.accounts.findByEmail('nobody@example.com'), undefined);
      await assert.rejects(store.accounts.create({ ...newAccount('owner@example.com') }));
    });

    it('finds API keys by hash, scopes them by account, revokes once', async () => {
      const key = {
        id: ids.next('key'),
        accountId: account.id,
        name: 'k',
        mode: 'live' as const,
        hash: 'a'.repeat(64),
        last4: 'abcd',
        allowedOrigins: ['https://shop.example.com', 'https://example.org'],
        createdAt: 1,
        lastUsedAt: null,
        revokedAt: null,
      };
      await store.apiKeys.create(key);
      assert.deepEqual(await store.apiKeys.findByHash('a'.repeat(64)), key);
      assert.equal(await store.apiKeys.findById('acct_other', key.id), undefined);
      await store.apiKeys.touch(key.id, 5);
      await store.apiKeys.revoke(key.id, 10);
      await store.apiKeys.revoke(key.id, 20);
      const revoked = await store.apiKeys.findById(account.id, key.id);
      assert.equal(revoked?.revokedAt, 10);
      assert.equal(revoked?.lastUsedAt, 5);
      assert.equal((await store.apiKeys.listByAccount(account.id)).length, 1);
    });

    it('pages an account\'s keys oldest first after a cursor', async () => {
      const owner = newAccount('pages@example.com');
      await store.accounts.create(owner);
      const ids = ['key_01a', 'key_01b', 'key_01c', 'key_01d', 'key_01e'];
      for (const [i, id] of ids.entries()) {
        await store.apiKeys.create({ id, accountId: owner.id, name: id, mode: 'test', hash: String(i).repeat(64), last4: 'abcd', allowedOrigins: null, createdAt: i, lastUsedAt: null, revokedAt: null });
      }
      const idsOf = (keys: { id: string }[]) => keys.map((k) => k.id);
      assert.deepEqual(idsOf(await store.apiKeys.listByAccount(owner.id)), ids);
      assert.deepEqual(idsOf(await store.apiKeys.listByAccount(owner.id, { limit: 2 })), ids.slice(0, 2));
      assert.deepEqual(idsOf(await store.apiKeys.listByAccount(owner.id, { limit: 2, after: 'key_01b' })), ids.slice(2, 4));
      assert.deepEqual(idsOf(await store.apiKeys.listByAccount(owner.id, { limit: 10, after: 'key_01d' })), ['key_01e']);
      assert.deepEqual(await store.apiKeys.listByAccount(owner.id, { limit: 10, after: 'key_01e' }), []);
    });

    it('conversations are visible only to their owner and mode', async () => {
      const other = newAccount('other@example.com');
      await store.accounts.create(other);
      const conversation = newConversation(account);
      await store.conversations.create(conversation);
      assert.deepEqual(await store.conversations.find({ accountId: account.id, mode: 'test' }, conversation.id), conversation);
      assert.equal(await store.conversations.find({ accountId: account.id, mode: 'live' }, conversation.id), undefined);
      assert.equal(await store.conversations.find({ accountId: other.id, mode: 'test' }, conversation.id), undefined);
    });

    it('updates an account plan', async () => {
      await store.accounts.update(account.id, { tier: 'enterprise', rpmOverride: 1000 });
      const found = await store.accounts.findById(account.id);
      assert.equal(found?.tier, 'enterprise');
      assert.equal(found?.rpmOverride, 1000);
      assert.equal(found?.connectionsOverride, null);
      await store.accounts.update(account.id, { tier: 'free', rpmOverride: null });
      account = (await store.accounts.findById(account.id))!;
    });

    it('adds usage atomically and updates status', async () => {
      const conversation = newConversation(account);
      await store.conversations.create(conversation);
      await Promise.all([
        store.conversations.addUsage(conversation.id, { aiTokens: 10, ttsCharacters: 3 }, 2),
        store.conversations.addUsage(conversation.id, { aiTokens: 5, ttsCharacters: 4 }, 3),
      ]);
      await store.conversations.update(conversation.id, { status: 'ended', endedAt: 9, endReason: 'ended' });
      const found = await store.conversations.find({ accountId: account.id, mode: 'test' }, conversation.id);
      assert.equal(found?.aiTokens, 15);
      assert.equal(found?.ttsCharacters, 7);
      assert.equal(found?.status, 'ended');
      assert.equal(found?.endedAt, 9);
      assert.equal(found?.endReason, 'ended');
    });

    it('lists messages in the order stored and deletes them with the conversation', async () => {
      const conversation = newConversation(account);
      await store.conversations.create(conversation);
      const first = newMessage(conversation.id, 100, 'first');
      const second = { ...newMessage(conversation.id, 200, 'second'), role: 'assistant' as const, audioKey: 'aud_x.mp3', audioBase: 'aud_x', aiTokens: 7 };
      await store.messages.create(first);
      await store.messages.create(second);
      assert.deepEqual(await store.messages.listByConversation(conversation.id), [first, second]);
      assert.deepEqual(await store.messages.listRecent(conversation.id, 1), [second]);
      assert.deepEqual(await store.messages.listRecent(conversation.id, 5), [first, second]);
      await store.messages.deleteByConversation(conversation.id);
      await store.conversations.delete(conversation.id);
      assert.deepEqual(await store.messages.listByConversation(conversation.id), []);
      assert.equal(await store.conversations.find({ accountId: account.id, mode: 'test' }, conversation.id), undefined);
    });

    it('keeps the stored order of messages with the same timestamp or a clock that stepped back', async () => {
      const conversation = newConversation(account);
      await store.conversations.create(conversation);
      // Ids that sort against the order of storing, at one millisecond, then an earlier one.
      const stored = [
        { ...newMessage(conversation.id, 500, 'user'), id: 'msg_zzzz' },
        { ...newMessage(conversation.id, 500, 'reply'), id: 'msg_aaaa', role: 'assistant' as const },
        { ...newMessage(conversation.id, 400, 'after a clock step'), id: 'msg_mmmm' },
      ];
      for (const message of stored) await store.messages.create(message);
      assert.deepEqual((await store.messages.listByConversation(conversation.id)).map((m) => m.content), ['user', 'reply', 'after a clock step']);
      assert.deepEqual((await store.messages.listRecent(conversation.id, 2)).map((m) => m.content), ['reply', 'after a clock step']);
    });

    it('pages settled messages in the stored order after a cursor of the same conversation', async () => {
      const conversation = newConversation(account);
      const neighbour = newConversation(account);
      await store.conversations.create(conversation);
      await store.conversations.create(neighbour);
      // Ids that sort against the stored order: the cursor is a position in that order, not an id range.
      const stored = ['msg_pagezzzz', 'msg_pageaaaa', 'msg_pagemmmm', 'msg_pagebbbb', 'msg_pageyyyy'].map((id, i) => ({ ...newMessage(conversation.id, 500, `m${i}`), id }));
      for (const message of stored) await store.messages.create(message);
      const writing = { ...newMessage(conversation.id, 600, 'so far'), id: 'msg_pagecccc', role: 'assistant' as const, status: 'streaming' as const };
      await store.messages.create(writing);
      const elsewhere = newMessage(neighbour.id, 500, 'elsewhere');
      await store.messages.create(elsewhere);

      assert.deepEqual(await store.messages.listPage(conversation.id, { limit: 2 }), stored.slice(0, 2));
      assert.deepEqual(await store.messages.listPage(conversation.id, { limit: 2, after: 'msg_pageaaaa' }), stored.slice(2, 4));
      assert.deepEqual(await store.messages.listPage(conversation.id, { limit: 10, after: 'msg_pagebbbb' }), stored.slice(4), 'a reply being written is left out');
      assert.deepEqual(await store.messages.listPage(conversation.id, { limit: 10, after: 'msg_pageyyyy' }), []);
      assert.deepEqual(await store.messages.listPage(conversation.id, { limit: 100 }), stored);
      assert.equal(await store.messages.listPage(conversation.id, { limit: 10, after: elsewhere.id }), undefined, "another conversation's message is no cursor");
      assert.equal(await store.messages.listPage(conversation.id, { limit: 10, after: 'msg_pagenone' }), undefined);
      assert.deepEqual(await store.messages.listPage(neighbour.id, { limit: 10 }), [elsewhere]);
    });

    it('updates, finds by status and deletes single messages', async () => {
      const conversation = newConversation(account);
      await store.conversations.create(conversation);
      const reply = { ...newMessage(conversation.id, 1, ''), role: 'assistant' as const, status: 'streaming' as const, audioBase: 'aud_y' };
      await store.messages.create(reply);
      assert.ok((await store.messages.listByStatus('streaming', 10)).some((m) => m.id === reply.id));
      await store.messages.update(reply.id, { content: 'so far', status: 'interrupted', audioBase: null, audioError: 'stopped', aiTokens: 3 });
      const [updated] = await store.messages.listByConversation(conversation.id);
      assert.deepEqual(updated, { ...reply, content: 'so far', status: 'interrupted', audioBase: null, audioError: 'stopped', aiTokens: 3 });
      assert.ok(!(await store.messages.listByStatus('streaming', 10)).some((m) => m.id === reply.id));
      await store.messages.delete(reply.id);
      assert.deepEqual(await store.messages.listByConversation(conversation.id), []);
    });

    it('reads a conversation with its settled messages for its owner only, every field intact', async () => {
      const conversation = {
        ...newConversation(account),
        personaId: 'support-agent',
        status: 'ended' as const,
        aiTokens: 12,
        ttsCharacters: 34,
        endedAt: 1_700_000_000_500,
        endReason: 'idle',
        safety: { ...DEFAULT_SAFETY, filter: 'strict' as const, blockedTopics: [{ name: 'cars', keywords: ['car', 'sedan'] }] },
        escalatedAt: 1_700_000_000_400,
        escalationReason: 'requested' as const,
      };
      await store.conversations.create(conversation);
      const question = newMessage(conversation.id, 100, 'question');
      const answer = {
        ...newMessage(conversation.id, 200, 'answer'),
        role: 'assistant' as const,
        status: 'interrupted' as const,
        audioKey: 'aud_z.mp3',
        audioBase: 'aud_z',
        audioError: 'tts failed',
        aiTokens: 5,
        ttsCharacters: 6,
        safety: ['topic_blocked', 'moderation_flagged'] as const,
      };
      const writing = { ...newMessage(conversation.id, 300, 'so far'), role: 'assistant' as const, status: 'streaming' as const };
      for (const message of [question, answer, writing]) await store.messages.create(message);
      const owner = { accountId: account.id, mode: 'test' as const };
      assert.deepEqual(await store.conversations.findWithMessages(owner, conversation.id), { conversation, messages: [question, answer] });
      assert.deepEqual(await store.conversations.find(owner, conversation.id), conversation);
      assert.deepEqual(await store.messages.listByConversation(conversation.id), [question, answer, writing]);
      assert.deepEqual(await store.messages.listRecent(conversation.id, 2), [answer, writing]);
      assert.equal(await store.conversations.findWithMessages({ ...owner, mode: 'live' }, conversation.id), undefined);
      assert.equal(await store.conversations.findWithMessages({ accountId: 'acct_other', mode: 'test' }, conversation.id), undefined);
      assert.equal(await store.conversations.findWithMessages(owner, 'conv_none'), undefined);
    });

    it('finds a key by id across accounts with every field, and sees its revocation at once', async () => {
      const key = {
        id: ids.next('key'),
        accountId: account.id,
        name: 'by id',
        mode: 'test' as const,
        hash: 'c'.repeat(64),
        last4: 'wxyz',
        allowedOrigins: null,
        createdAt: 3,
        lastUsedAt: 4,
        revokedAt: null,
      };
      await store.apiKeys.create(key);
      assert.deepEqual(await store.apiKeys.findByIdAnyAccount(key.id), key);
      assert.deepEqual(await store.apiKeys.findByHash(key.hash), key);
      await store.apiKeys.revoke(key.id, 9);
      assert.equal((await store.apiKeys.findByIdAnyAccount(key.id))?.revokedAt, 9);
      assert.equal((await store.apiKeys.findByHash(key.hash))?.revokedAt, 9);
      assert.equal(await store.apiKeys.findByIdAnyAccount('key_none'), undefined);
      assert.equal(await store.apiKeys.findByHash('d'.repeat(64)), undefined);
    });

    it('never shows a read the uncommitted writes of a transaction still open', async () => {
      const conversation = newConversation(account);
      await store.conversations.create(conversation);
      const owner = { accountId: account.id, mode: 'test' as const };
      let wrote!: () => void;
      const written = new Promise<void>((resolve) => (wrote = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const failing = store.transaction(async (tx) => {
        await tx.messages.create(newMessage(conversation.id, 1, 'never committed'));
        await tx.conversations.update(conversation.id, { status: 'ended' });
        wrote();
        await released;
        throw new Error('rolled back');
      });
      await written;
      // Reads issued while the transaction is open, answered whenever the engine can.
      const reads = Promise.all([
        store.conversations.findWithMessages(owner, conversation.id),
        store.conversations.find(owner, conversation.id),
        store.messages.listByConversation(conversation.id),
        store.messages.listRecent(conversation.id, 5),
      ]);
      release();
      await assert.rejects(failing, /rolled back/);
      const [withMessages, found, listed, recent] = await reads;
      assert.deepEqual(withMessages, { conversation, messages: [] });
      assert.equal(found?.status, 'active');
      assert.deepEqual(listed, []);
      assert.deepEqual(recent, []);
    });

    it('keeps unicode content intact', async () => {
      const conversation = newConversation(account);
      await store.conversations.create(conversation);
      const message = newMessage(conversation.id, 1, 'こんにちは 👋🏽 — "quoted" \\ \'single\' \t\n end');
      await store.messages.create(message);
      assert.equal((await store.messages.listByConversation(conversation.id))[0]?.content, message.content);
    });

    it('lists idle active conversations', async () => {
      const idle = { ...newConversation(account), updatedAt: 50 };
      await store.conversations.create(idle);
      const found = await store.conversations.listIdle(60, 100);
      assert.ok(found.some((c) => c.id === idle.id));
      assert.ok(found.every((c) => c.status === 'active' && c.updatedAt < 60));
    });

    it('lists an owner\'s active conversations with one avatar', async () => {
      const owner = { accountId: account.id, mode: 'test' as const };
      const first = { ...newConversation(account), avatarId: 'robin-001', createdAt: 1 };
      const second = { ...newConversation(account), avatarId: 'robin-001', createdAt: 2 };
      const ended = { ...newConversation(account), avatarId: 'robin-001', status: 'ended' as const };
      const live = { ...newConversation(account, 'live'), avatarId: 'robin-001' };
      const otherAvatar = { ...newConversation(account), avatarId: 'robin-002' };
      for (const c of [second, first, ended, live, otherAvatar]) await store.conversations.create(c);
      assert.deepEqual((await store.conversations.listActiveByAvatar(owner, 'robin-001', 10)).map((c) => c.id), [first.id, second.id]);
      assert.deepEqual((await store.conversations.listActiveByAvatar(owner, 'robin-001', 1)).map((c) => c.id), [first.id]);
    });

    it('keeps custom avatars per owner and mode, with ids unique across owners', async () => {
      const other = newAccount('avatar-other@example.com');
      await store.accounts.create(other);
      const newAvatar = (id: string, owner: AccountRecord, createdAt: number, mode: 'live' | 'test' = 'test'): AvatarRecord => ({
        id,
        accountId: owner.id,
        mode,
        name: 'Zoë 🙂',
        description: 'A guide',
        tags: ['support', 'ünïcode'],
        defaultVoice: 'en-US-Neural2-F',
        animations: { idle: 'idle_sway', talking: 'talking_calm', thinking: 'thinking_chin' },
        personality: 'Calm.',
        speakingStyle: 'Short.',
        modelKey: `avf_${id.replace('-', '')}.vrm`,
        modelBytes: 625_092,
        vrmVersion: '0.x',
        previewKey: null,
        safety: null,
        createdAt,
        updatedAt: createdAt,
      });
      const owner = { accountId: account.id, mode: 'test' as const };
      const later = newAvatar('zoe-002', account, 20);
      const first = newAvatar('zoe-001', account, 10);
      assert.equal(await store.avatars.create(later), true);
      assert.equal(await store.avatars.create(first), true);
      assert.equal(await store.avatars.create(newAvatar('zoe-003', account, 30, 'live')), true);
      assert.equal(await store.avatars.create(newAvatar('zoe-001', other, 40)), false, 'an id is taken whoever owns it');
      assert.deepEqual(await store.avatars.find(owner, 'zoe-001'), first);
      assert.equal(await store.avatars.find({ accountId: account.id, mode: 'live' }, 'zoe-001'), undefined);
      assert.equal(await store.avatars.find({ accountId: other.id, mode: 'test' }, 'zoe-001'), undefined);
      assert.deepEqual((await store.avatars.listByOwner(owner)).map((a) => a.id), ['zoe-001', 'zoe-002']);
      assert.deepEqual(await store.avatars.listByOwner({ accountId: other.id, mode: 'test' }), []);
      assert.deepEqual((await store.avatars.takenIds(['zoe-000', 'zoe-001', 'zoe-003', 'zoe-004'])).sort(), ['zoe-001', 'zoe-003']);
      assert.deepEqual(await store.avatars.takenIds([]), []);

      await store.avatars.update('zoe-001', { description: 'Changed', tags: [], previewKey: 'avf_x.png', vrmVersion: '1.0', updatedAt: 50 });
      assert.deepEqual(await store.avatars.find(owner, 'zoe-001'), { ...first, description: 'Changed', tags: [], previewKey: 'avf_x.png', vrmVersion: '1.0', updatedAt: 50 });
      const safety = { ...DEFAULT_SAFETY, blockedTopics: [{ name: 'rivals', keywords: ['acme'] }], filter: 'strict' as const };
      await store.avatars.update('zoe-001', { safety });
      assert.deepEqual((await store.avatars.find(owner, 'zoe-001'))?.safety, safety);
      await store.avatars.update('zoe-001', { safety: null });
      assert.equal((await store.avatars.find(owner, 'zoe-001'))?.safety, null);
      await store.avatars.update('zoe-001', {});
      await store.avatars.delete('zoe-001');
      assert.equal(await store.avatars.find(owner, 'zoe-001'), undefined);
      assert.deepEqual(await store.avatars.takenIds(['zoe-001']), []);
    });

    it('meters usage per owner and day with atomic upserts', async () => {
      const owner = { accountId: account.id, mode: 'test' as const };
      await Promise.all([
        store.usage.add(owner, '2026-01-02', { aiTokens: 10, ttsCharacters: 1 }),
        store.usage.add(owner, '2026-01-02', { aiTokens: 5, ttsCharacters: 2 }),
        store.usage.add(owner, '2026-01-01', { aiTokens: 1, ttsCharacters: 0 }),
        store.usage.add({ ...owner, mode: 'live' }, '2026-01-02', { aiTokens: 100, ttsCharacters: 100 }),
      ]);
      assert.deepEqual(await store.usage.list(owner, '2026-01-01', '2026-01-31'), [
        { day: '2026-01-01', aiTokens: 1, ttsCharacters: 0 },
        { day: '2026-01-02', aiTokens: 15, ttsCharacters: 3 },
      ]);
      assert.deepEqual(await store.usage.list(owner, '2026-01-02', '2026-01-02'), [{ day: '2026-01-02', aiTokens: 15, ttsCharacters: 3 }]);
    });

    it('rolls back every write of a failed transaction', async () => {
      const conversation = newConversation(account);
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.conversations.create(conversation);
          await tx.messages.create(newMessage(conversation.id, 1));
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.equal(await store.conversations.find({ accountId: account.id, mode: 'test' }, conversation.id), undefined);
      assert.deepEqual(await store.messages.listByConversation(conversation.id), []);
    });

    const newWebhook = (owner: AccountRecord, events: string[], mode: 'live' | 'test' = 'test'): WebhookRecord => ({
      id: ids.next('wh'),
      accountId: owner.id,
      mode,
      url: 'https://hooks.example.com/in',
      events,
      secret: 'secret-0123456789abcdef',
      status: 'active',
      statusReason: null,
      statusSince: null,
      createdAt: 1_700_000_000_000,
      updatedAt: 1_700_000_000_000,
    });
    const enqueue = async (webhookIds: string[], at: number) => {
      const event = { id: ids.next('evt'), accountId: account.id, mode: 'test' as const, type: 'conversation.started', body: '{"id":"x"}', createdAt: at };
      await store.webhookDeliveries.enqueue(event, webhookIds.map((webhookId) => ({ id: ids.next('dlv'), webhookId })));
      assert.equal(await store.transaction((tx) => tx.webhookDeliveries.relayOutbox(1)), webhookIds.length > 0 ? 1 : 0, 'relayed a batch of 1');
      while ((await store.transaction((tx) => tx.webhookDeliveries.relayOutbox(1))) > 0);
      return event;
    };

    it('keeps webhooks per owner and mode; lists subscribers of a type, never disabled ones', async () => {
      const other = newAccount('hooks-other@example.com');
      await store.accounts.create(other);
      const started = newWebhook(account, ['conversation.started']);
      const both = newWebhook(account, ['conversation.started', 'message.created']);
      const live = newWebhook(account, ['conversation.started'], 'live');
      const foreign = newWebhook(other, ['conversation.started']);
      for (const webhook of [started, both, live, foreign]) await store.webhooks.create(webhook);
      const owner = { accountId: account.id, mode: 'test' as const };
      assert.deepEqual(await store.webhooks.find(owner, started.id), started);
      assert.equal(await store.webhooks.find(owner, foreign.id), undefined, "another account's webhook is not found");
      assert.equal(await store.webhooks.find(owner, live.id), undefined, 'nor one of the other mode');
      assert.deepEqual((await store.webhooks.listSubscribed(owner, 'conversation.started')).map((w) => w.id).sort(), [started.id, both.id].sort());
      assert.deepEqual((await store.webhooks.listSubscribed(owner, 'message.created')).map((w) => w.id), [both.id]);
      assert.equal(await store.webhooks.transition(both.id, 'failing', { status: 'active' }), false, 'a transition from the wrong status does nothing');
      assert.equal(await store.webhooks.transition(both.id, 'active', { status: 'disabled', statusReason: 'r' }), true);
      assert.deepEqual((await store.webhooks.listSubscribed(owner, 'message.created')).map((w) => w.id), []);
      const page = await store.webhooks.listByOwner(owner, { limit: 1 });
      assert.equal(page.length, 1);
      assert.deepEqual((await store.webhooks.listByOwner(owner, { limit: 10, after: page[0]!.id })).map((w) => w.id), [both.id]);
      assert.equal(await store.webhooks.countByOwner(owner), 2);
    });

    it('claims due deliveries atomically, per-webhook capped, held until the claim lapses', async () => {
      const a = newWebhook(account, ['conversation.started']);
      const b = newWebhook(account, ['conversation.started']);
      await store.webhooks.create(a);
      await store.webhooks.create(b);
      for (let i = 0; i < 5; i++) await enqueue([a.id, b.id], 1_000);
      await enqueue([b.id], 9_000);
      const options = { now: 2_000, lockedUntil: 3_000, limit: 100, perWebhook: 3, skipWebhooks: [] as string[] };
      const [first, second] = await Promise.all([store.webhookDeliveries.claimDue(options), store.webhookDeliveries.claimDue(options)]);
      const claimed = [...first!, ...second!];
      assert.equal(new Set(claimed.map((c) => c.delivery.id)).size, claimed.length, 'no delivery claimed twice');
      assert.equal(claimed.length, 10, 'every due delivery claimed once: the later event is not due');
      for (const claim of [first!, second!]) {
        for (const webhook of [a, b]) assert.ok(claim.filter((c) => c.webhook.id === webhook.id).length <= 3, 'at most 3 per webhook in one claim');
      }
      assert.ok(claimed.every((c) => c.body === '{"id":"x"}' && c.delivery.lockedUntil === 3_000));
      assert.equal((await store.webhookDeliveries.claimDue(options)).length, 0, 'held deliveries are not claimed again');
      const lapsed = await store.webhookDeliveries.claimDue({ ...options, now: 3_000, lockedUntil: 4_000, perWebhook: 100 });
      assert.equal(lapsed.length, 10, 'claims that lapsed are claimed again');
      assert.equal((await store.webhookDeliveries.claimDue({ ...options, now: 10_000, lockedUntil: 20_000, perWebhook: 100, skipWebhooks: [a.id] })).length, 6, 'skipped webhooks get nothing');
      assert.equal(await store.webhookDeliveries.cancelPending(b.id), 6);
      const log = await store.webhookDeliveries.listByWebhook(b.id, { limit: 2 });
      assert.deepEqual(log.map((d) => d.status), ['cancelled', 'cancelled']);
      assert.ok(log[0]!.id > log[1]!.id, 'newest first');
      await store.webhooks.delete(a.id);
      assert.deepEqual(await store.webhookDeliveries.listByWebhook(a.id, { limit: 10 }), [], 'deleting a webhook deletes its deliveries');
      await enqueue([b.id], 1_500);
      assert.equal(await store.webhookDeliveries.prune(9_500), 6, 'finished deliveries before the cut-off go; pending ones and later ones stay');
      assert.deepEqual((await store.webhookDeliveries.listByWebhook(b.id, { limit: 10 })).map((d) => d.status), ['pending']);
      assert.equal((await store.webhookDeliveries.claimDue({ ...options, now: 50_000, lockedUntil: 60_000 })).length, 1, 'the pending one still has its event');
    });

    it('keeps events in the outbox until relayed: pending for live webhooks, cancelled for disabled ones, dropped for deleted ones', async () => {
      const live = newWebhook(account, ['conversation.started']);
      const disabled = { ...newWebhook(account, ['conversation.started']), status: 'disabled' as const };
      const deleted = newWebhook(account, ['conversation.started']);
      for (const webhook of [live, disabled, deleted]) await store.webhooks.create(webhook);
      const event = { id: ids.next('evt'), accountId: account.id, mode: 'test' as const, type: 'conversation.started', body: '{"n":1}', createdAt: 5_000 };
      await store.webhookDeliveries.enqueue(event, [live, disabled, deleted].map((w) => ({ id: ids.next('dlv'), webhookId: w.id })));
      assert.deepEqual(await store.webhookDeliveries.listByWebhook(live.id, { limit: 10 }), [], 'not a delivery until relayed');
      await store.webhooks.delete(deleted.id);
      assert.equal(await store.transaction((tx) => tx.webhookDeliveries.relayOutbox(100)), 3);
      assert.equal(await store.transaction((tx) => tx.webhookDeliveries.relayOutbox(100)), 0, 'taken once');
      const [pending] = await store.webhookDeliveries.listByWebhook(live.id, { limit: 10 });
      assert.deepEqual([pending?.status, pending?.nextAttemptAt, pending?.eventId], ['pending', 5_000, event.id]);
      assert.deepEqual((await store.webhookDeliveries.listByWebhook(disabled.id, { limit: 10 })).map((d) => d.status), ['cancelled']);
      assert.deepEqual(await store.webhookDeliveries.listByWebhook(deleted.id, { limit: 10 }), []);
    });

    it('counts the webhook queue: outbox rows not yet relayed and pending deliveries, not finished ones', async () => {
      const webhook = newWebhook(account, ['conversation.started']);
      await store.webhooks.create(webhook);
      const before = await store.webhookDeliveries.countQueued();
      const event = { id: ids.next('evt'), accountId: account.id, mode: 'test' as const, type: 'conversation.started', body: '{}', createdAt: 7_000 };
      await store.webhookDeliveries.enqueue(event, [{ id: ids.next('dlv'), webhookId: webhook.id }]);
      assert.equal(await store.webhookDeliveries.countQueued(), before + 1, 'in the outbox');
      while ((await store.transaction((tx) => tx.webhookDeliveries.relayOutbox(100))) > 0);
      assert.equal(await store.webhookDeliveries.countQueued(), before + 1, 'a pending delivery');
      const [delivery] = await store.webhookDeliveries.listByWebhook(webhook.id, { limit: 1 });
      await store.webhookDeliveries.update(delivery!.id, { status: 'succeeded', nextAttemptAt: null });
      assert.equal(await store.webhookDeliveries.countQueued(), before, 'delivered: off the queue');
      await store.webhooks.delete(webhook.id);
    });

    it('lists what retention sweeps: conversations updated before a time, settled replies with audio created before a time, oldest first', async () => {
      const owner = newAccount('retention@example.com');
      await store.accounts.create(owner);
      const stale = { ...newConversation(owner), updatedAt: 100 };
      const older = { ...newConversation(owner), updatedAt: 40 };
      const fresh = { ...newConversation(owner), updatedAt: 10_000 };
      for (const conversation of [stale, older, fresh]) await store.conversations.create(conversation);
      const found = (await store.conversations.listUpdatedBefore(200, 1_000)).filter((c) => c.accountId === owner.id);
      assert.deepEqual(found.map((c) => c.id), [older.id, stale.id]);
      assert.equal((await store.conversations.listUpdatedBefore(200, 1)).length, 1, 'at most limit');

      const reply = (createdAt: number, patch: Partial<MessageRecord> = {}): MessageRecord => ({
        ...newMessage(fresh.id, createdAt),
        role: 'assistant',
        audioKey: 'aud_a.mp3',
        audioBase: `aud_${createdAt}`,
        ...patch,
      });
      const spoken = reply(300);
      const earlier = reply(200);
      const streaming = reply(250, { status: 'streaming' });
      const silent = reply(260, { audioKey: null, audioBase: null });
      const late = reply(5_000);
      for (const message of [spoken, earlier, streaming, silent, late]) await store.messages.create(message);
      const withAudio = (await store.messages.listWithAudioBefore(1_000, 1_000)).filter((m) => m.conversationId === fresh.id);
      assert.deepEqual(withAudio.map((m) => m.id), [earlier.id, spoken.id]);
      await store.messages.update(earlier.id, { audioKey: null, audioBase: null, audioError: 'gone' });
      assert.deepEqual((await store.messages.listWithAudioBefore(1_000, 1_000)).filter((m) => m.conversationId === fresh.id).map((m) => m.id), [spoken.id]);
    });

    it('commits every write of a successful transaction', async () => {
      const conversation = newConversation(account);
      await store.transaction(async (tx) => {
        await tx.conversations.create(conversation);
        await tx.messages.create(newMessage(conversation.id, 1));
      });
      assert.equal((await store.messages.listByConversation(conversation.id)).length, 1);
    });

    it('refuses a message for a conversation that does not exist', async () => {
      await assert.rejects(store.messages.create(newMessage('conv_missing', 1)));
    });
  });
}
