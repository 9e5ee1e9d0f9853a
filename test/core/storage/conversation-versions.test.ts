import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ConversationVersions } from '../../../core/index.js';
import { startCoreService } from '../../support/core-service.js';
import { streamingReply } from '../../support/message-rows.js';

const START = Date.UTC(2026, 0, 1);

it('a version is never reused: a forgotten conversation gets a new one, a change a new one', () => {
  const versions = new ConversationVersions(1);
  const a = versions.of('conv_a');
  assert.equal(versions.of('conv_a'), a);
  versions.of('conv_b');
  assert.notEqual(versions.of('conv_a'), a, 'pushed out, then seen again');
  const again = versions.of('conv_a');
  versions.invalidate('conv_a');
  assert.notEqual(versions.of('conv_a'), again);
  const heard: (string | undefined)[] = [];
  versions.onChange((id) => heard.push(id));
  versions.invalidate('conv_a');
  versions.changed('conv_b');
  assert.deepEqual(heard, ['conv_b'], 'invalidations from elsewhere are not published again');
});

it('every write to a conversation or its messages through the service store changes its version', async (t) => {
  const { service, clock } = await startCoreService(t, START);
  const versions = service.conversationVersions;
  const account = await service.accounts.createAccount({ email: 'versions@example.com', password: 'password-1' });
  const owner = { accountId: account.id, mode: 'test' as const };
  const conversation = await service.conversations.create(owner, { avatarId: 'luna-001' });
  const id = conversation.id;
  const { store } = service;
  const changes = async (what: string, write: () => Promise<unknown>) => {
    const before = versions.of(id);
    await write();
    assert.notEqual(versions.of(id), before, `${what} changes the version`);
  };
  const message = streamingReply(service, id, { id: 'msg_versions1' });
  await changes('sending a message', () => service.conversations.sendMessage(owner, id, 'Hello'));
  await changes('messages.create', () => store.messages.create(message));
  await changes('messages.update', () => store.messages.update(message.id, { content: 'so far' }));
  await changes('messages.delete', () => store.messages.delete(message.id));
  await changes('conversations.update', () => store.conversations.update(id, { updatedAt: clock.now() + 1 }));
  await changes('conversations.addUsage', () => store.conversations.addUsage(id, { aiTokens: 1, ttsCharacters: 0 }, clock.now()));
  await changes('a write in a transaction', () => store.transaction((tx) => tx.conversations.update(id, { updatedAt: clock.now() + 2 })));
  await changes('a write in a transaction that rolls back', () =>
    store
      .transaction(async (tx) => {
        await tx.conversations.update(id, { updatedAt: clock.now() + 3 });
        throw new Error('rolled back');
      })
      .catch(() => undefined),
  );
  await changes('a message update this process cannot trace', () => store.messages.update('msg_unknown', { content: 'x' }));
  await changes('ending it', () => service.conversations.end(owner, id));
  await changes('messages.deleteByConversation', () => store.messages.deleteByConversation(id));
  await changes('deleting it', () => service.conversations.delete(owner, id));
});
