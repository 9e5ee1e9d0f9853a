import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import type { Owner } from '../../../core/index.js';
import { SESSION_TTL_DEFAULT_S, SESSION_TTL_MAX_S } from '../../../core/index.js';
import { startCoreService } from '../../support/core-service.js';

const START = Date.UTC(2026, 3, 1, 8, 0, 0);
const SECRET = 'session-tests-secret-0123456789abcdef';
let n = 0;

async function setup(t: TestContext, jwtSecret = SECRET) {
  const i = n++;
  const { service, clock } = await startCoreService(t, START, { jwtSecret });
  const account = await service.accounts.createAccount({ email: `user${i}@example.com`, password: 'password-123' });
  const owner: Owner = { accountId: account.id, mode: 'test' };
  return { service, clock, sessions: service.sessions, owner };
}

describe('SessionService.create', () => {
  it('mints a token for an existing conversation, valid for the default hour', async (t) => {
    const { service, sessions, owner } = await setup(t);
    const conversation = await service.conversations.create(owner, { avatarId: 'atlas-002', ttsProvider: 'browser' });
    const issued = await sessions.create(owner, { conversationId: conversation.id });
    assert.equal(issued.conversationId, conversation.id);
    assert.match(issued.token, /^sess_/);
    assert.equal(issued.expiresAt, START + SESSION_TTL_DEFAULT_S * 1000);
    const principal = await sessions.authenticate(issued.token);
    assert.deepEqual(principal, {
      type: 'session',
      owner,
      conversationId: conversation.id,
      expiresAt: issued.expiresAt,
      allowedOrigins: null,
      keyId: null,
    });
  });

  it('creates a new conversation when none is given: with the avatar asked for, or the default one', async (t) => {
    const { service, sessions, owner } = await setup(t);
    const withAvatar = await sessions.create(owner, { avatarId: 'sofia-003', ttsProvider: 'browser' });
    const created = await service.conversations.get(owner, withAvatar.conversationId);
    assert.equal(created.avatarId, 'sofia-003');
    assert.equal(created.ttsProvider, 'browser');
    assert.equal(created.status, 'active');

    const byDefault = await sessions.create(owner, {});
    assert.notEqual(byDefault.conversationId, withAvatar.conversationId);
    assert.equal((await service.conversations.get(owner, byDefault.conversationId)).avatarId, 'luna-001');
  });

  it('refuses a new conversation with an unknown avatar, and creates nothing', async (t) => {
    const { sessions, owner } = await setup(t);
    await assert.rejects(sessions.create(owner, { avatarId: 'nobody-999' }), { code: 'invalid_request', field: 'avatar_id' });
  });

  it("answers not_found for a conversation of another account or of the other mode", async (t) => {
    const { service, sessions, owner } = await setup(t);
    const conversation = await service.conversations.create(owner, { avatarId: 'luna-001' });
    const stranger = await service.accounts.createAccount({ email: 'stranger@example.com', password: 'password-123' });
    await assert.rejects(sessions.create({ accountId: stranger.id, mode: 'test' }, { conversationId: conversation.id }), { code: 'not_found' });
    await assert.rejects(sessions.create({ ...owner, mode: 'live' }, { conversationId: conversation.id }), { code: 'not_found' });
    await assert.rejects(sessions.create(owner, { conversationId: 'conv_missing' }), { code: 'not_found' });
  });

  it(`takes a ttl from 60 s to ${SESSION_TTL_MAX_S} s, whole seconds only`, async (t) => {
    const { service, sessions, owner } = await setup(t);
    const conversation = await service.conversations.create(owner, { avatarId: 'luna-001' });
    for (const ttlS of [59, 0, -60, SESSION_TTL_MAX_S + 1, 90.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      await assert.rejects(sessions.create(owner, { conversationId: conversation.id, ttlS }), { code: 'invalid_request', field: 'ttl_s' }, String(ttlS));
    }
    for (const ttlS of [60, 600, SESSION_TTL_MAX_S]) {
      const issued = await sessions.create(owner, { conversationId: conversation.id, ttlS });
      assert.equal(issued.expiresAt, START + ttlS * 1000);
    }
  });

  it('refuses a conversation id together with the fields of a new conversation', async (t) => {
    const { service, sessions, owner } = await setup(t);
    const conversation = await service.conversations.create(owner, { avatarId: 'luna-001' });
    await assert.rejects(sessions.create(owner, { conversationId: conversation.id, avatarId: 'luna-001' }), {
      code: 'invalid_request',
      field: 'conversation_id',
    });
    await assert.rejects(sessions.create(owner, { conversationId: conversation.id, ttsProvider: 'browser' }), {
      code: 'invalid_request',
      field: 'conversation_id',
    });
  });

  it('mints a different token each time for the same conversation', async (t) => {
    const { service, sessions, owner } = await setup(t);
    const conversation = await service.conversations.create(owner, { avatarId: 'luna-001' });
    const a = await sessions.create(owner, { conversationId: conversation.id });
    const b = await sessions.create(owner, { conversationId: conversation.id });
    assert.notEqual(a.token, b.token);
    assert.equal((await sessions.authenticate(a.token)).conversationId, conversation.id);
    assert.equal((await sessions.authenticate(b.token)).conversationId, conversation.id);
  });
});

describe('SessionService: edge inputs', () => {
  it("an empty conversation id is refused, not taken as 'create a new conversation'", async (t) => {
    const { sessions, owner } = await setup(t);
    await assert.rejects(sessions.create(owner, { conversationId: '' }), { code: /invalid_request|not_found/ });
  });
});

describe('SessionService.authenticate', () => {
  it('refuses malformed tokens', async (t) => {
    const { sessions } = await setup(t);
    for (const token of ['', 'abc', 'sess_', 'sess_.', 'sess_abc', 'sess_a.b.c', 'Bearer sess_x.y']) {
      await assert.rejects(sessions.authenticate(token), { code: 'unauthorized', status: 401 }, token);
    }
  });

  it('refuses an account token (JWT) and an API key value offered as a session', async (t) => {
    const { service, sessions, owner } = await setup(t);
    const { token } = await service.accounts.issueToken(owner.accountId);
    const { key } = await service.accounts.createApiKey(owner.accountId, { name: 'k', mode: 'test' });
    await assert.rejects(sessions.authenticate(token), { code: 'unauthorized' });
    await assert.rejects(sessions.authenticate(key), { code: 'unauthorized' });
  });

  it('refuses forged tokens: changed claims, a foreign secret, a stripped signature', async (t) => {
    const { service, sessions, owner } = await setup(t);
    const conversation = await service.conversations.create(owner, { avatarId: 'luna-001' });
    const { token } = await sessions.create(owner, { conversationId: conversation.id });
    const [body, signature] = token.slice('sess_'.length).split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
    const reencode = (patch: Record<string, unknown>) => Buffer.from(JSON.stringify({ ...claims, ...patch })).toString('base64url');

    const forged = [
      `sess_${reencode({ c: 'conv_someone_elses' })}.${signature}`,
      `sess_${reencode({ m: 'live' })}.${signature}`,
      `sess_${reencode({ e: (claims.e as number) + 86_400 })}.${signature}`,
      `sess_${reencode({ a: 'acct_other' })}.${signature}`,
      `sess_${body}.`,
      `sess_${body}`,
      `sess_${body}.${signature.slice(0, -2)}`,
    ];
    for (const value of forged) await assert.rejects(sessions.authenticate(value), { code: 'unauthorized' }, value);

    const { sessions: foreignSessions, owner: foreignOwner, service: foreignService } = await setup(t, 'another-secret-0123456789abcdefgh');
    const foreignConversation = await foreignService.conversations.create(foreignOwner, { avatarId: 'luna-001' });
    const foreign = await foreignSessions.create(foreignOwner, { conversationId: foreignConversation.id });
    await assert.rejects(sessions.authenticate(foreign.token), { code: 'unauthorized' });
    await foreignSessions.authenticate(foreign.token);
    // The genuine token still passes.
    await sessions.authenticate(token);
  });

  it('refuses a token once its ttl has passed on the clock', async (t) => {
    const { service, sessions, owner, clock } = await setup(t);
    const conversation = await service.conversations.create(owner, { avatarId: 'luna-001' });
    const { token, expiresAt } = await sessions.create(owner, { conversationId: conversation.id, ttlS: 60 });
    clock.advance(59_999);
    assert.equal((await sessions.authenticate(token)).expiresAt, expiresAt);
    clock.advance(1);
    await assert.rejects(sessions.authenticate(token), { code: 'unauthorized', message: /expired/ });
  });

  it('carries the minting key and its allowed origins, and dies when that key is revoked', async (t) => {
    const { service, sessions, owner } = await setup(t);
    const { record, key } = await service.accounts.createApiKey(owner.accountId, {
      name: 'site',
      mode: 'test',
      allowedOrigins: ['https://shop.example', 'http://localhost:5173'],
    });
    const keyPrincipal = await service.accounts.authenticateApiKey(key);
    const conversation = await service.conversations.create(keyPrincipal.owner, { avatarId: 'luna-001' });
    const issued = await sessions.create(keyPrincipal.owner, { conversationId: conversation.id }, {
      keyId: keyPrincipal.keyId,
      allowedOrigins: keyPrincipal.allowedOrigins,
    });
    const principal = await sessions.authenticate(issued.token);
    assert.equal(principal.keyId, record.id);
    assert.deepEqual(principal.allowedOrigins, ['https://shop.example', 'http://localhost:5173']);

    // A key allowed everywhere mints sessions allowed everywhere.
    const { record: open } = await service.accounts.createApiKey(owner.accountId, { name: 'open', mode: 'test' });
    const openSession = await sessions.create(owner, { conversationId: conversation.id }, { keyId: open.id, allowedOrigins: null });
    assert.equal((await sessions.authenticate(openSession.token)).allowedOrigins, null);

    await service.accounts.revokeApiKey(owner.accountId, record.id);
    await assert.rejects(sessions.authenticate(issued.token), { code: 'unauthorized', message: /revoked/ });
    // Sessions of other keys live on.
    await sessions.authenticate(openSession.token);
  });

  it('refuses a session whose minting key does not exist', async (t) => {
    const { service, sessions, owner } = await setup(t);
    const conversation = await service.conversations.create(owner, { avatarId: 'luna-001' });
    const issued = await sessions.create(owner, { conversationId: conversation.id }, { keyId: 'key_never_was', allowedOrigins: null });
    await assert.rejects(sessions.authenticate(issued.token), { code: 'unauthorized' });
  });
});

describe('SessionService: scope', () => {
  it('grants one conversation of one account in one mode, nothing else', async (t) => {
    const { service, sessions, owner } = await setup(t);
    const mine = await service.conversations.create(owner, { avatarId: 'luna-001' });
    const sibling = await service.conversations.create(owner, { avatarId: 'atlas-002' });
    const live = await service.conversations.create({ ...owner, mode: 'live' }, { avatarId: 'luna-001' });
    const principal = await sessions.authenticate((await sessions.create(owner, { conversationId: mine.id })).token);
    assert.equal(principal.conversationId, mine.id);
    assert.notEqual(principal.conversationId, sibling.id);
    assert.deepEqual(principal.owner, owner);
    // The owner it carries cannot reach the other mode's data.
    await assert.rejects(service.conversations.get(principal.owner, live.id), { code: 'not_found' });

    const livePrincipal = await sessions.authenticate((await sessions.create({ ...owner, mode: 'live' }, { conversationId: live.id })).token);
    assert.deepEqual(livePrincipal.owner, { accountId: owner.accountId, mode: 'live' });
    assert.equal(livePrincipal.conversationId, live.id);
  });

  it('keeps authenticating a session after its conversation ended (ending is enforced where it is used)', async (t) => {
    const { service, sessions, owner } = await setup(t);
    const conversation = await service.conversations.create(owner, { avatarId: 'luna-001', ttsProvider: 'browser' });
    const { token } = await sessions.create(owner, { conversationId: conversation.id });
    await service.conversations.end(owner, conversation.id);
    const principal = await sessions.authenticate(token);
    await assert.rejects(service.conversations.startReply(principal.owner, principal.conversationId, 'hello?'), {
      code: 'conversation_ended',
      status: 409,
    });
  });
});
