import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import type {
  AIProvider,
  ChatModel,
  ChatRequest,
  ChatStreamPart,
  ConversationEvent,
  MessageRecord,
  Owner,
  ReplyEvent,
  SpeechProvider,
} from '../../../core/index.js';
import { FsBlobStore, ManualClock, ValidationError, createAvatarService, createIdGenerator, createSqliteStore } from '../../../core/index.js';
import { startCoreService } from '../../support/core-service.js';
import { streamingReply } from '../../support/message-rows.js';
import { scriptedProvider } from '../../support/scripted-provider.js';

const START = Date.UTC(2026, 4, 5, 10, 0, 0);
const MINUTE = 60_000;
let n = 0;

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = () => r()));
  return { promise, resolve };
}

/**
 * An AI provider that streams `reply` (one delta per item) and, when held, stops after `holdAfter`
 * deltas until released or aborted — so a test can act mid-reply without timing guesses.
 */
function heldProvider(id: string, reply: readonly string[]) {
  const requests: ChatRequest[] = [];
  let hold: { after: number; reached: Deferred; gate: Deferred } | undefined;
  const model: ChatModel = {
    provider: id,
    modelId: 'held',
    async *stream(request): AsyncIterable<ChatStreamPart> {
      requests.push(request);
      const current = hold;
      let sent = 0;
      for (const delta of reply) {
        if (current && sent === current.after) {
          current.reached.resolve();
          await new Promise<void>((resolve) => {
            if (request.signal?.aborted) return resolve();
            request.signal?.addEventListener('abort', () => resolve(), { once: true });
            void current.gate.promise.then(() => resolve());
          });
        }
        if (request.signal?.aborted) {
          yield { type: 'finish', finishReason: 'aborted', usage: { inputTokens: 3, outputTokens: sent } };
          return;
        }
        sent++;
        yield { type: 'text-delta', delta };
      }
      yield { type: 'finish', finishReason: 'stop', usage: { inputTokens: 3, outputTokens: sent } };
    },
  };
  const provider: AIProvider = {
    id,
    name: id,
    description: 'held replies (tests)',
    kind: 'offline',
    configured: true,
    defaultModel: 'held',
    models: [{ id: 'held', name: 'held', contextWindow: 1000, capabilities: ['chat', 'streaming'] }],
    chatModel: () => model,
  };
  return {
    provider,
    requests,
    /** The next reply stops after `after` deltas; `reached` resolves there, `release` lets it go on. */
    hold(after: number) {
      const next = { after, reached: deferred(), gate: deferred() };
      hold = next;
      return { reached: next.reached.promise, release: () => next.gate.resolve() };
    },
    unhold() {
      hold = undefined;
    },
  };
}

/** One silent MPEG-1 Layer III frame: 128 kbit/s, 44.1 kHz, stereo, 417 bytes. */
function mp3Frames(count: number): Uint8Array {
  const frame = new Uint8Array(417);
  frame.set([0xff, 0xfb, 0x90, 0x00]);
  const out = new Uint8Array(frame.length * count);
  for (let i = 0; i < count; i++) out.set(frame, i * frame.length);
  return out;
}

/** A speech engine that answers at once with a few silent frames; speaks Neural2 voices and `fake-*`. */
function fakeSpeech(id = 'fake', available = true): SpeechProvider & { spoken: string[] } {
  const spoken: string[] = [];
  return {
    id,
    name: id,
    spoken,
    available: async () => available,
    voices: () => [],
    engineVoiceFor(voiceId) {
      if (/^[a-z]{2}-[A-Z]{2}-Neural2-[A-Z]$/.test(voiceId) || voiceId.startsWith('fake-')) return voiceId;
      throw new ValidationError('voice_id', `voice_id '${voiceId}' is not a voice of ${id}`);
    },
    async synthesize(request) {
      spoken.push(request.text);
      return { audio: mp3Frames(3), contentType: 'audio/mpeg', durationMs: 78, characters: [...request.text].length, engineVoice: request.voiceId };
    },
    close: async () => undefined,
  };
}

const REPLY = ['Hello ', 'there. ', 'How ', 'are ', 'you ', 'today?'];

async function setup(t: TestContext) {
  const i = n++;
  const held = heldProvider('held', REPLY);
  const speech = fakeSpeech();
  const { service, clock } = await startCoreService(t, START, {
    aiProviders: [
      held.provider,
      scriptedProvider({ id: 'scripted', reply: 'Nice to meet you. I am well.' }),
      scriptedProvider({ id: 'fails-at-once', reply: 'never said', failAfter: 0 }),
      scriptedProvider({ id: 'fails-midway', reply: 'One two three four five.', failAfter: 2 }),
      scriptedProvider({ id: 'silent', reply: '' }),
    ],
    defaultAiProvider: 'held',
    speechProviders: [speech, fakeSpeech('offline-engine', false)],
    defaultTtsProvider: 'browser',
  });
  const store = service.store;
  const account = await service.accounts.createAccount({ email: `conv${i}@example.com`, password: 'password-123' });
  const owner: Owner = { accountId: account.id, mode: 'test' };
  return { service, clock, store, conversations: service.conversations, owner, held, speech };
}

async function collect(events: AsyncIterable<ReplyEvent>): Promise<ReplyEvent[]> {
  const out: ReplyEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const summary = (messages: MessageRecord[]) => messages.map((m) => [m.role, m.status, m.content]);

describe('ConversationService.create', () => {
  it('creates an active conversation with the avatar, its default voice and the default providers', async (t) => {
    const { conversations, owner } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'sofia-003' });
    assert.match(conversation.id, /^conv_/);
    assert.equal(conversation.accountId, owner.accountId);
    assert.equal(conversation.mode, 'test');
    assert.equal(conversation.status, 'active');
    assert.equal(conversation.avatarId, 'sofia-003');
    assert.equal(conversation.voiceId, 'en-GB-Neural2-A');
    assert.equal(conversation.aiProvider, 'held');
    assert.equal(conversation.ttsProvider, 'browser');
    assert.equal(conversation.createdAt, START);
    assert.deepEqual(await conversations.get(owner, conversation.id), conversation);
  });

  it('refuses unknown avatars, personas and providers, and an over-long system prompt, naming the field', async (t) => {
    const { conversations, owner } = await setup(t);
    const cases: [Parameters<typeof conversations.create>[1], string][] = [
      [{ avatarId: 'nobody-000' }, 'avatar_id'],
      [{ avatarId: 'luna-001', personaId: 'no-such-persona' }, 'persona_id'],
      [{ avatarId: 'luna-001', systemPrompt: 'x'.repeat(2001) }, 'system_prompt'],
      [{ avatarId: 'luna-001', aiProvider: 'no-such-ai' }, 'ai_provider'],
      [{ avatarId: 'luna-001', aiProvider: 'scripted', aiModel: 'gpt-9' }, 'ai_model'],
      [{ avatarId: 'luna-001', ttsProvider: 'no-such-engine' }, 'tts_provider'],
      [{ avatarId: 'luna-001', ttsProvider: 'offline-engine' }, 'tts_provider'],
    ];
    for (const [input, field] of cases) {
      await assert.rejects(conversations.create(owner, input), { code: 'invalid_request', field }, field);
    }
    const withPersona = await conversations.create(owner, { avatarId: 'luna-001', personaId: 'edu-math-tutor', systemPrompt: 'x'.repeat(2000) });
    assert.equal(withPersona.personaId, 'edu-math-tutor');
  });

  it('checks a chosen voice against the chosen speech: Neural2 ids for browser speech, the engine for an engine', async (t) => {
    const { conversations, owner } = await setup(t);
    assert.equal((await conversations.create(owner, { avatarId: 'luna-001', ttsProvider: 'browser', voiceId: 'en-AU-Neural2-B' })).voiceId, 'en-AU-Neural2-B');
    await assert.rejects(conversations.create(owner, { avatarId: 'luna-001', ttsProvider: 'browser', voiceId: 'fake-alto' }), { field: 'voice_id' });
    await assert.rejects(conversations.create(owner, { avatarId: 'luna-001', ttsProvider: 'browser', voiceId: 'en-us-neural2-f' }), { field: 'voice_id' });
    assert.equal((await conversations.create(owner, { avatarId: 'luna-001', ttsProvider: 'fake', voiceId: 'fake-alto' })).voiceId, 'fake-alto');
    await assert.rejects(conversations.create(owner, { avatarId: 'luna-001', ttsProvider: 'fake', voiceId: 'nova' }), { field: 'voice_id' });
  });

  it("hides a conversation from other accounts and from the other mode", async (t) => {
    const { conversations, owner, service } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'luna-001' });
    const stranger = await service.accounts.createAccount({ email: 'stranger@example.com', password: 'password-123' });
    await assert.rejects(conversations.get({ accountId: stranger.id, mode: 'test' }, conversation.id), { code: 'not_found' });
    await assert.rejects(conversations.get({ ...owner, mode: 'live' }, conversation.id), { code: 'not_found' });
    await assert.rejects(conversations.end({ ...owner, mode: 'live' }, conversation.id), { code: 'not_found' });
    await assert.rejects(conversations.delete({ accountId: stranger.id, mode: 'test' }, conversation.id), { code: 'not_found' });
    assert.equal((await conversations.get(owner, conversation.id)).status, 'active');
  });
});

describe('ConversationService: replies', () => {
  it('stores the user message before the reply starts, and the reply when it is done', async (t) => {
    const { conversations, owner, store, held } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'luna-001' });
    const { reached, release } = held.hold(0);
    const { userMessage, events } = await conversations.startReply(owner, conversation.id, 'Hi Luna!');
    await reached;
    assert.equal(userMessage.role, 'user');
    assert.equal(userMessage.status, 'complete');
    const during = await store.messages.listByConversation(conversation.id);
    assert.deepEqual(during[0], userMessage);
    assert.deepEqual(summary((await conversations.getWithMessages(owner, conversation.id)).messages), [['user', 'complete', 'Hi Luna!']]);
    assert.equal(conversations.isReplying(conversation.id), true);
    // The model saw the stored message as the last one.
    assert.deepEqual(held.requests.at(-1)!.messages.at(-1), { role: 'user', content: 'Hi Luna!' });

    release();
    const seen = await collect(events);
    assert.deepEqual(seen.map((e) => (e.type === 'state' ? `state:${e.state}` : e.type)), [
      'state:thinking',
      'state:talking',
      'text-delta', // Hello there.
      'text-delta', // How are you today? — shown sentence by sentence, once checked
      'done',
      'state:idle',
    ]);
    const done = seen.find((e) => e.type === 'done')!;
    assert.equal(done.message.content, REPLY.join(''));
    assert.equal(done.message.status, 'complete');
    assert.equal(done.message.aiTokens, 3 + REPLY.length);
    assert.equal(conversations.isReplying(conversation.id), false);
    assert.deepEqual(summary(await store.messages.listByConversation(conversation.id)), [
      ['user', 'complete', 'Hi Luna!'],
      ['assistant', 'complete', REPLY.join('')],
    ]);
    assert.equal((await conversations.get(owner, conversation.id)).aiTokens, 3 + REPLY.length);
  });

  it('sendMessage waits for the whole reply and returns the stored assistant message', async (t) => {
    const { conversations, owner, store } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'luna-001', aiProvider: 'scripted' });
    const reply = await conversations.sendMessage(owner, conversation.id, 'How are you?');
    assert.equal(reply.role, 'assistant');
    assert.equal(reply.content, 'Nice to meet you. I am well.');
    assert.equal(reply.status, 'complete');
    assert.deepEqual((await store.messages.listByConversation(conversation.id)).at(-1), reply);
  });

  it('refuses invalid content, unknown conversations and ended ones before storing anything', async (t) => {
    const { conversations, owner, store } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'luna-001' });
    await assert.rejects(conversations.startReply(owner, conversation.id, '   '), { code: 'invalid_request', field: 'content' });
    await assert.rejects(conversations.startReply(owner, conversation.id, 'x'.repeat(5001)), { code: 'invalid_request', field: 'content' });
    await assert.rejects(conversations.startReply(owner, conversation.id, 'lone \ud800'), { code: 'invalid_request', field: 'content' });
    await assert.rejects(conversations.startReply(owner, 'conv_missing', 'hi'), { code: 'not_found' });
    await assert.rejects(conversations.startReply({ ...owner, mode: 'live' }, conversation.id, 'hi'), { code: 'not_found' });
    await conversations.end(owner, conversation.id);
    await assert.rejects(conversations.startReply(owner, conversation.id, 'hi'), { code: 'conversation_ended', status: 409 });
    assert.deepEqual(await store.messages.listByConversation(conversation.id), []);
  });

  it('runs one reply at a time: a second message is 409 busy and is not stored', async (t) => {
    const { conversations, owner, store, held } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'luna-001' });
    const { reached, release } = held.hold(2);
    const first = await conversations.startReply(owner, conversation.id, 'first');
    await reached;
    await assert.rejects(conversations.startReply(owner, conversation.id, 'second'), {
      code: 'conversation_busy',
      status: 409,
      isRetryable: true,
    });
    await assert.rejects(conversations.sendMessage(owner, conversation.id, 'second', { whenBusy: 'reject' }), { code: 'conversation_busy' });
    release();
    await collect(first.events);
    assert.deepEqual(summary(await store.messages.listByConversation(conversation.id)), [
      ['user', 'complete', 'first'],
      ['assistant', 'complete', REPLY.join('')],
    ]);
    // Free again once the reply is done.
    held.unhold();
    await conversations.sendMessage(owner, conversation.id, 'third');
  });

  it('two messages sent at the same moment: one is answered, the other refused as busy', async (t) => {
    const { conversations, owner, store } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'luna-001' });
    const results = await Promise.allSettled(['a', 'b'].map((text) => conversations.startReply(owner, conversation.id, text)));
    const started = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    assert.equal(started.length, 1);
    assert.equal((refused[0]!.reason as { code: string }).code, 'conversation_busy');
    for (const r of started) await collect(r.value.events);
    assert.deepEqual((await store.messages.listByConversation(conversation.id)).map((m) => m.role), ['user', 'assistant']);
  });

  it("whenBusy 'interrupt' cuts the running reply off (kept as interrupted) and answers the new message", async (t) => {
    const { conversations, owner, store, held } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'luna-001' });
    const { reached } = held.hold(2);
    const first = await conversations.startReply(owner, conversation.id, 'tell me a story');
    const firstEvents = collect(first.events);
    await reached;
    held.unhold();
    const reply = await conversations.sendMessage(owner, conversation.id, 'stop, new question', { whenBusy: 'interrupt' });
    assert.equal(reply.status, 'complete');
    const cut = (await firstEvents).find((e) => e.type === 'done');
    assert.equal(cut?.type === 'done' && cut.message.status, 'interrupted');
    assert.deepEqual(summary(await store.messages.listByConversation(conversation.id)), [
      ['user', 'complete', 'tell me a story'],
      ['assistant', 'interrupted', 'Hello there.'],
      ['user', 'complete', 'stop, new question'],
      ['assistant', 'complete', REPLY.join('')],
    ]);
    // The model answering the new message saw the interrupted part.
    assert.deepEqual(held.requests.at(-1)!.messages.map((m) => m.content), ['tell me a story', 'Hello there.', 'stop, new question']);
  });

  it('interrupt() keeps what was said as interrupted and resolves once it is stored', async (t) => {
    const { conversations, owner, store, held } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'luna-001' });
    const { reached } = held.hold(3);
    const { events } = await conversations.startReply(owner, conversation.id, 'go on');
    const seen = collect(events);
    await reached;
    await conversations.interrupt(owner, conversation.id);
    assert.equal(conversations.isReplying(conversation.id), false);
    assert.deepEqual(summary(await store.messages.listByConversation(conversation.id)), [
      ['user', 'complete', 'go on'],
      ['assistant', 'interrupted', 'Hello there.'],
    ]);
    const last = (await seen).filter((e) => e.type !== 'state').at(-1);
    assert.equal(last?.type, 'done');
    // Interrupting when nothing runs is harmless.
    await conversations.interrupt(owner, conversation.id);
  });

  it('an abort before anything was said leaves no assistant message and no error', async (t) => {
    const { conversations, owner, store, held } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'luna-001' });
    const { reached } = held.hold(0);
    const controller = new AbortController();
    const { events } = await conversations.startReply(owner, conversation.id, 'hello?', { signal: controller.signal });
    await reached;
    controller.abort();
    const seen = await collect(events);
    assert.deepEqual(seen.filter((e) => e.type === 'error' || e.type === 'done'), []);
    assert.deepEqual(summary(await store.messages.listByConversation(conversation.id)), [['user', 'complete', 'hello?']]);
  });

  it('a failing provider keeps the user message and emits the error (to the caller and to listeners)', async (t) => {
    const { conversations, owner, store } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'luna-001', aiProvider: 'fails-at-once' });
    const heard: ConversationEvent[] = [];
    conversations.onEvent((id, event) => id === conversation.id && heard.push(event));
    const { events } = await conversations.startReply(owner, conversation.id, 'are you there?');
    const seen = await collect(events);
    const error = seen.find((e) => e.type === 'error');
    assert.ok(error?.type === 'error');
    assert.equal(error.error.code, 'provider_error');
    assert.equal(error.message, undefined);
    assert.deepEqual(seen.at(-1), { type: 'state', state: 'idle' });
    assert.ok(heard.some((e) => e.type === 'error'));
    assert.deepEqual(summary(await store.messages.listByConversation(conversation.id)), [['user', 'complete', 'are you there?']]);
    await assert.rejects(conversations.sendMessage(owner, conversation.id, 'again?'), { code: 'provider_error', status: 502 });
    assert.equal((await store.messages.listByConversation(conversation.id)).length, 2, 'the second user message is stored too');
    assert.equal(conversations.isReplying(conversation.id), false);
  });

  it('a provider failing midway keeps the partial reply as interrupted, attached to the error', async (t) => {
    const { conversations, owner, store } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'luna-001', aiProvider: 'fails-midway' });
    const { events } = await conversations.startReply(owner, conversation.id, 'count');
    const error = (await collect(events)).find((e) => e.type === 'error');
    assert.ok(error?.type === 'error');
    assert.equal(error.error.code, 'provider_error');
    assert.equal(error.message?.status, 'interrupted');
    assert.equal(error.message?.content, 'One two');
    assert.deepEqual(summary(await store.messages.listByConversation(conversation.id)), [
      ['user', 'complete', 'count'],
      ['assistant', 'interrupted', 'One two'],
    ]);
  });

  it('an empty reply is an error, and no empty assistant message is stored', async (t) => {
    const { conversations, owner, store } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'luna-001', aiProvider: 'silent' });
    await assert.rejects(conversations.sendMessage(owner, conversation.id, 'say nothing'), { code: 'provider_error' });
    assert.deepEqual(summary(await store.messages.listByConversation(conversation.id)), [['user', 'complete', 'say nothing']]);
  });

  it('lists messages in the order stored, even when the clock does not move', async (t) => {
    const { conversations, owner, store, clock } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'luna-001', aiProvider: 'scripted' });
    for (const text of ['one', 'two', 'three', 'four']) await conversations.sendMessage(owner, conversation.id, text);
    const messages = await store.messages.listByConversation(conversation.id);
    assert.ok(messages.every((m) => m.createdAt === clock.now()), 'all in the same millisecond');
    assert.deepEqual(
      messages.map((m) => (m.role === 'user' ? m.content : 'reply')),
      ['one', 'reply', 'two', 'reply', 'three', 'reply', 'four', 'reply'],
    );
    assert.deepEqual(
      (await conversations.getWithMessages(owner, conversation.id)).messages.map((m) => m.id),
      messages.map((m) => m.id),
    );
  });

  it('speaks the reply sentence by sentence and stores its audio', async (t) => {
    const { conversations, owner, service, speech } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'luna-001', ttsProvider: 'fake' });
    const { events } = await conversations.startReply(owner, conversation.id, 'hi');
    const seen = await collect(events);
    const clips = seen.filter((e) => e.type === 'audio');
    assert.deepEqual(clips.map((c) => c.type === 'audio' && c.seq), [0, 1]);
    assert.deepEqual(speech.spoken, ['Hello there.', 'How are you today?']);
    const done = seen.find((e) => e.type === 'done');
    assert.ok(done?.type === 'done' && done.message.audioKey);
    assert.ok(await service.blobs.stat(done.message.audioKey));
    for (const clip of clips) if (clip.type === 'audio') assert.ok(await service.blobs.stat(clip.key), clip.key);
    assert.equal(done.message.ttsCharacters, 'Hello there.'.length + 'How are you today?'.length);
  });
});

describe('ConversationService: lifecycle', () => {
  it('end() ends once: later calls return it unchanged and listeners hear of it once', async (t) => {
    const { conversations, owner, clock } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'luna-001' });
    const heard: [string, ConversationEvent][] = [];
    const unsubscribe = conversations.onEvent((id, event) => heard.push([id, event]));
    clock.advance(MINUTE);
    const ended = await conversations.end(owner, conversation.id);
    assert.deepEqual([ended.status, ended.endReason, ended.endedAt], ['ended', 'ended', START + MINUTE]);
    assert.deepEqual(await conversations.get(owner, conversation.id), ended);
    clock.advance(MINUTE);
    const again = await conversations.end(owner, conversation.id, 'other reason');
    assert.deepEqual(again, ended);
    assert.deepEqual(heard, [[conversation.id, { type: 'ended', reason: 'ended' }]]);
    unsubscribe();
    const other = await conversations.create(owner, { avatarId: 'luna-001' });
    await conversations.end(owner, other.id);
    assert.equal(heard.length, 1, 'an unsubscribed listener hears nothing');
  });

  it('ending a conversation while it replies stops the reply and keeps what was said', async (t) => {
    const { conversations, owner, store, held } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'luna-001' });
    const heard: string[] = [];
    conversations.onEvent((id, event) => id === conversation.id && heard.push(event.type));
    const { reached } = held.hold(2);
    const { events } = await conversations.startReply(owner, conversation.id, 'long answer please');
    const seen = collect(events);
    await reached;
    await conversations.end(owner, conversation.id, 'closed');
    await seen;
    assert.equal(conversations.isReplying(conversation.id), false);
    assert.deepEqual(summary(await store.messages.listByConversation(conversation.id)), [
      ['user', 'complete', 'long answer please'],
      ['assistant', 'interrupted', 'Hello there.'],
    ]);
    assert.equal(heard.at(-1), 'ended', 'the end comes after the reply events');
    assert.equal((await conversations.get(owner, conversation.id)).endReason, 'closed');
  });

  it('delete() removes the conversation, its messages and every audio file of its replies', async (t) => {
    const { conversations, owner, store, service } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'luna-001', ttsProvider: 'fake' });
    const keep = await conversations.create(owner, { avatarId: 'luna-001', ttsProvider: 'fake' });
    const first = await conversations.sendMessage(owner, conversation.id, 'one');
    const second = await conversations.sendMessage(owner, conversation.id, 'two');
    const kept = await conversations.sendMessage(owner, keep.id, 'keep me');
    const keys = [first, second].flatMap((m) => [m.audioKey!, `${m.audioBase}-0.mp3`, `${m.audioBase}-1.mp3`]);
    for (const key of keys) assert.ok(await service.blobs.stat(key), `${key} exists before`);

    await conversations.delete(owner, conversation.id);
    await assert.rejects(conversations.get(owner, conversation.id), { code: 'not_found' });
    assert.deepEqual(await store.messages.listByConversation(conversation.id), []);
    for (const key of keys) assert.equal(await service.blobs.stat(key), undefined, `${key} deleted`);
    // Another conversation keeps its messages and audio.
    assert.equal((await store.messages.listByConversation(keep.id)).length, 2);
    assert.ok(await service.blobs.stat(kept.audioKey!));
    await assert.rejects(conversations.delete(owner, conversation.id), { code: 'not_found' });
  });

  it('endIdle() ends conversations idle longer than the limit, with reason timeout', async (t) => {
    const { conversations, owner, clock, service } = await setup(t);
    const other = await service.accounts.createAccount({ email: 'idle-other@example.com', password: 'password-123' });
    const otherOwner: Owner = { accountId: other.id, mode: 'live' };
    const quiet = await conversations.create(owner, { avatarId: 'luna-001', aiProvider: 'scripted' });
    const quietElsewhere = await conversations.create(otherOwner, { avatarId: 'luna-001' });
    const talking = await conversations.create(owner, { avatarId: 'luna-001', aiProvider: 'scripted' });
    const endedEarlier = await conversations.create(owner, { avatarId: 'luna-001' });
    await conversations.end(owner, endedEarlier.id);
    const heard: [string, ConversationEvent][] = [];
    conversations.onEvent((id, event) => event.type === 'ended' && heard.push([id, event]));

    clock.advance(20 * MINUTE);
    await conversations.sendMessage(owner, talking.id, 'still here');
    clock.advance(20 * MINUTE);
    const ended = await conversations.endIdle(30 * MINUTE);
    assert.deepEqual(ended.map((c) => c.id).sort(), [quiet.id, quietElsewhere.id].sort());
    assert.ok(ended.every((c) => c.endReason === 'timeout' && c.endedAt === START + 40 * MINUTE));
    assert.equal((await conversations.get(owner, talking.id)).status, 'active');
    assert.equal((await conversations.get(otherOwner, quietElsewhere.id)).endReason, 'timeout');
    assert.equal((await conversations.get(owner, endedEarlier.id)).endReason, 'ended', 'an ended one stays as it was');
    assert.deepEqual(heard.map(([, e]) => e), [
      { type: 'ended', reason: 'timeout' },
      { type: 'ended', reason: 'timeout' },
    ]);
    assert.deepEqual(await conversations.endIdle(30 * MINUTE), [], 'nothing left to end');
    clock.advance(10 * MINUTE + 1);
    assert.deepEqual((await conversations.endIdle(30 * MINUTE)).map((c) => c.id), [talking.id]);
  });

  it('endIdle() leaves a conversation alone while it is replying', async (t) => {
    const { conversations, owner, clock, held } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'luna-001' });
    clock.advance(60 * MINUTE);
    const { reached, release } = held.hold(1);
    const { events } = await conversations.startReply(owner, conversation.id, 'hi');
    await reached;
    clock.advance(60 * MINUTE);
    assert.deepEqual(await conversations.endIdle(30 * MINUTE), []);
    release();
    await collect(events);
    assert.equal((await conversations.get(owner, conversation.id)).status, 'active');
  });

  it('recoverInterrupted() keeps replies a crash left streaming as interrupted, removes empty ones and their clips', async (t) => {
    const { conversations, owner, store, service, clock } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'luna-001', ttsProvider: 'fake' });
    const done = await conversations.sendMessage(owner, conversation.id, 'before the crash');
    const row = (patch: Partial<MessageRecord>) => streamingReply(service, conversation.id, patch);
    const spokenBase = service.ids.next('aud');
    const halfSpoken = row({ content: 'Half a sentence. And', audioBase: spokenBase });
    const halfText = row({ content: 'Only text so far' });
    const empty = row({ content: '  ' });
    await service.blobs.put(`${spokenBase}-0.mp3`, mp3Frames(2));
    await service.blobs.put(`${spokenBase}-1.mp3`, mp3Frames(2));
    for (const message of [halfSpoken, halfText, empty]) await store.messages.create(message);

    assert.equal(await conversations.recoverInterrupted(), 3);
    const messages = await store.messages.listByConversation(conversation.id);
    assert.deepEqual(messages.map((m) => m.id), [messages[0]!.id, done.id, halfSpoken.id, halfText.id]);
    const [, , spoken, text] = messages;
    assert.deepEqual([spoken!.status, spoken!.content, spoken!.audioKey, spoken!.audioBase], ['interrupted', 'Half a sentence. And', null, null]);
    assert.ok(spoken!.audioError);
    assert.deepEqual([text!.status, text!.content, text!.audioError], ['interrupted', 'Only text so far', null]);
    assert.equal(await service.blobs.stat(`${spokenBase}-0.mp3`), undefined);
    assert.equal(await service.blobs.stat(`${spokenBase}-1.mp3`), undefined);
    // A complete reply's audio is untouched, and a second run finds nothing.
    assert.ok(await service.blobs.stat(done.audioKey!));
    assert.equal(await conversations.recoverInterrupted(), 0);
    // The recovered conversation can go on.
    await conversations.sendMessage(owner, conversation.id, 'after the crash');
  });

  it('recoverInterrupted({olderThanMs}) leaves young replies to the process that may be writing them, and never takes its own', async (t) => {
    const { conversations, owner, store, service, clock, held } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'luna-001' });
    const streaming = (content: string) => streamingReply(service, conversation.id, { content });
    const old = streaming('Left by a crashed node');
    await store.messages.create(old);
    clock.advance(10 * MINUTE);
    const young = streaming('Being written by another node');
    await store.messages.create(young);
    clock.advance(1);

    assert.equal(await conversations.recoverInterrupted({ olderThanMs: 10 * MINUTE }), 1);
    const statusOf = async (id: string) => (await store.messages.listByConversation(conversation.id)).find((m) => m.id === id)?.status;
    assert.deepEqual([await statusOf(old.id), await statusOf(young.id)], ['interrupted', 'streaming']);
    clock.advance(10 * MINUTE);
    assert.equal(await conversations.recoverInterrupted({ olderThanMs: 10 * MINUTE }), 1, 'found once it is older than any reply runs');
    assert.equal(await statusOf(young.id), 'interrupted');

    // A reply this process is running is never taken, however old.
    const { reached, release } = held.hold(1);
    const { events } = await conversations.startReply(owner, conversation.id, 'hi');
    await reached;
    clock.advance(60 * MINUTE);
    const running = (await store.messages.listByConversation(conversation.id)).filter((m) => m.status === 'streaming');
    assert.equal(running.length, 1, 'the running reply is stored as streaming');
    assert.equal(await conversations.recoverInterrupted({ olderThanMs: 10 * MINUTE }), 0);
    release();
    await collect(events);
    assert.equal(await statusOf(running[0]!.id), 'complete');
  });

  it('a restart recovers rows a crash left streaming before serving', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'avatar-restart-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const filename = join(dir, 'avatar.db');
    const clock = new ManualClock(START);
    const open = async () => {
      const service = createAvatarService({
        store: await createSqliteStore({ filename }),
        blobs: new FsBlobStore(join(dir, 'restart-blobs')),
        jwtSecret: 'conversation-tests-secret-0123456789',
        aiProviders: [scriptedProvider({ reply: 'Fine.' })],
        speechProviders: [],
        clock,
        ids: createIdGenerator(clock),
      });
      await service.start();
      return service;
    };
    const before = await open();
    const account = await before.accounts.createAccount({ email: 'restart@example.com', password: 'password-123' });
    const owner: Owner = { accountId: account.id, mode: 'live' };
    const conversation = await before.conversations.create(owner, { avatarId: 'luna-001' });
    await before.store.messages.create({
      id: before.ids.next('msg'),
      conversationId: conversation.id,
      role: 'assistant',
      content: 'cut off',
      status: 'streaming',
      audioKey: null,
      audioBase: null,
      audioError: null,
      aiTokens: 0,
      ttsCharacters: 0,
      createdAt: clock.now(),
      safety: [],
    });
    assert.deepEqual((await before.conversations.getWithMessages(owner, conversation.id)).messages, [], 'a streaming row is not shown');
    await before.close();

    const after = await open();
    t.after(() => after.close());
    assert.deepEqual(summary((await after.conversations.getWithMessages(owner, conversation.id)).messages), [['assistant', 'interrupted', 'cut off']]);
  });

  it('onEvent listeners see every reply event with its conversation id, until they unsubscribe', async (t) => {
    const { conversations, owner } = await setup(t);
    const a = await conversations.create(owner, { avatarId: 'luna-001', aiProvider: 'scripted' });
    const b = await conversations.create(owner, { avatarId: 'atlas-002', aiProvider: 'scripted' });
    const heard: [string, string][] = [];
    const unsubscribe = conversations.onEvent((id, event) => heard.push([id, event.type]));
    const { events } = await conversations.startReply(owner, a.id, 'hello a');
    const direct = await collect(events);
    assert.deepEqual(heard, direct.map((e) => [a.id, e.type]), 'listeners see what the caller sees');
    await conversations.sendMessage(owner, b.id, 'hello b');
    assert.ok(heard.slice(direct.length).every(([id]) => id === b.id));
    assert.ok(heard.length > direct.length);
    const count = heard.length;
    unsubscribe();
    await conversations.sendMessage(owner, a.id, 'again');
    assert.equal(heard.length, count);
  });

  it('close() interrupts running replies and stores what they said', async (t) => {
    const { conversations, owner, store, held } = await setup(t);
    const conversation = await conversations.create(owner, { avatarId: 'luna-001' });
    const { reached } = held.hold(2);
    const { events } = await conversations.startReply(owner, conversation.id, 'hi');
    const seen = collect(events);
    await reached;
    await conversations.close();
    await seen;
    assert.deepEqual(summary(await store.messages.listByConversation(conversation.id)).at(-1), ['assistant', 'interrupted', 'Hello there.']);
  });
});

