import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readMp3Info } from '../../core/audio/mp3-info.js';
import { parseSse } from '../support/sse-client.js';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

interface ErrorBody {
  error: { code: string; message: string };
}
interface MessageBody {
  id: string;
  role: string;
  content: string;
  audio_url: string | null;
  audio_error?: string;
  created_at: string;
  usage: { ai_tokens: number; tts_characters: number };
}

describe('Conversations API', () => {
  let t: TestServer;
  before(async () => (t = await startTestServer()));
  after(() => t.close());

  async function create(body: Record<string, unknown> = {}, auth?: string): Promise<{ id: string }> {
    const res = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser', ...body }, ...(auth && { auth }) });
    assert.equal(res.status, 201, await res.clone().text());
    return (await res.json()) as { id: string };
  }

  async function expectError(res: Response, status: number, code: string, message?: RegExp): Promise<void> {
    assert.equal(res.status, status);
    const body = (await res.json()) as ErrorBody;
    assert.equal(body.error.code, code);
    if (message) assert.match(body.error.message, message);
  }

  it('runs the whole path: create, send, MP3 audio, history with usage, end, 409, delete, 404', async () => {
    const created = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } });
    assert.equal(created.status, 201);
    const conversation = (await created.json()) as { id: string; avatar_id: string; status: string; created_at: string; config: Record<string, string> };
    assert.match(conversation.id, /^conv_[0-9a-z]{26}$/);
    assert.equal(conversation.avatar_id, 'luna-001');
    assert.equal(conversation.status, 'active');
    assert.ok(!Number.isNaN(Date.parse(conversation.created_at)));
    assert.deepEqual(conversation.config, { ai_provider: 'local', ai_model: conversation.config.ai_model, tts_provider: 'local', voice_id: 'en-US-Neural2-F' });

    const sent = await t.request(`/v1/conversations/${conversation.id}/messages`, { method: 'POST', json: { content: 'Hi! My name is Ada. What can you do?' } });
    assert.equal(sent.status, 200);
    const reply = (await sent.json()) as MessageBody;
    assert.match(reply.id, /^msg_/);
    assert.equal(reply.role, 'assistant');
    assert.ok(reply.content.length > 10);
    assert.ok(reply.usage.ai_tokens > 0);
    assert.ok(reply.usage.tts_characters > 0);
    assert.ok(reply.audio_url?.startsWith(`${t.url}/v1/audio/aud_`), reply.audio_url ?? 'no audio');

    const audio = await fetch(reply.audio_url!);
    assert.equal(audio.status, 200);
    assert.equal(audio.headers.get('content-type'), 'audio/mpeg');
    const info = readMp3Info(new Uint8Array(await audio.arrayBuffer()));
    assert.ok(info.durationMs > 500, `duration ${info.durationMs}`);

    const history = await t.request(`/v1/conversations/${conversation.id}`);
    assert.equal(history.status, 200);
    const full = (await history.json()) as { messages: MessageBody[]; usage: { ai_tokens: number; tts_characters: number }; updated_at: string };
    assert.deepEqual(full.messages.map((m) => m.role), ['user', 'assistant']);
    assert.equal(full.messages[0]?.content, 'Hi! My name is Ada. What can you do?');
    assert.equal(full.messages[1]?.content, reply.content);
    assert.deepEqual(full.usage, reply.usage);
    assert.ok(full.updated_at);

    const today = new Date().toISOString().slice(0, 10);
    const metered = (await (await t.request(`/v1/usage?from=${today}&to=${today}`)).json()) as { total: { ai_tokens: number; tts_characters: number }; days: { date: string }[] };
    assert.ok(metered.total.ai_tokens >= reply.usage.ai_tokens, 'the account is metered');
    assert.ok(metered.total.tts_characters >= reply.usage.tts_characters);
    assert.deepEqual(metered.days.map((d) => d.date), [today]);
    assert.equal((await t.request('/v1/usage?from=yesterday')).status, 400);
    for (const bad of ['to=2026-13-45', 'to=2026-02-30', 'from=2026-04-31&to=2026-05-01']) assert.equal((await t.request(`/v1/usage?${bad}`)).status, 400, bad);

    const ended = await t.request(`/v1/conversations/${conversation.id}/end`, { method: 'POST' });
    assert.equal(ended.status, 200);
    assert.equal(((await ended.json()) as { status: string }).status, 'ended');
    const again = await t.request(`/v1/conversations/${conversation.id}/end`, { method: 'POST' });
    assert.equal(((await again.json()) as { status: string }).status, 'ended');
    await expectError(
      await t.request(`/v1/conversations/${conversation.id}/messages`, { method: 'POST', json: { content: 'still there?' } }),
      409,
      'conversation_ended',
    );

    const deleted = await t.request(`/v1/conversations/${conversation.id}`, { method: 'DELETE' });
    assert.deepEqual(await deleted.json(), { deleted: true });
    await expectError(await t.request(`/v1/conversations/${conversation.id}`), 404, 'not_found');
    assert.equal((await fetch(reply.audio_url!)).status, 404, 'audio is deleted with the conversation');
  });

  it('validates creation, naming the field and the rule', async () => {
    await expectError(await t.request('/v1/conversations', { method: 'POST', json: {} }), 400, 'invalid_request', /avatar_id is required/);
    await expectError(await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'nobody-999' } }), 400, 'invalid_request', /avatar_id 'nobody-999'/);
    await expectError(await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', ai_provider: 'skynet' } }), 400, 'invalid_request', /ai_provider must be one of: local/);
    await expectError(await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'nope' } }), 400, 'invalid_request', /tts_provider must be one of: .*browser/);
    await expectError(await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', system_prompt: 'é'.repeat(2001) } }), 400, 'invalid_request', /system_prompt must be at most 2000 characters/);
    await expectError(await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', voice_id: 'robot' } }), 400, 'invalid_request', /voice_id/);
    await expectError(await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 42 } }), 400, 'invalid_request', /avatar_id must be a string/);
    const ok = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', system_prompt: '😀'.repeat(2000), tts_provider: 'browser', persona_id: 'edu-math-tutor' } });
    assert.equal(ok.status, 201, 'limits count code points, not UTF-16 units');
  });

  it('validates messages: empty, over 5000 characters, missing, wrong id shape', async () => {
    const { id } = await create();
    await expectError(await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: '' } }), 400, 'invalid_request', /content must not be empty/);
    await expectError(await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'a'.repeat(5001) } }), 400, 'invalid_request', /content must be at most 5000/);
    await expectError(await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: {} }), 400, 'invalid_request', /content is required/);
    await expectError(await t.request('/v1/conversations/../../etc/passwd'), 404, 'not_found');
    await expectError(await t.request('/v1/conversations/conv_doesnotexist0000000000000'), 404, 'not_found');
    await expectError(await t.request('/v1/conversations/hello'), 400, 'invalid_request', /id must be a conversation id/);
  });

  it('never shows one account a conversation of another, nor test data to live keys', async () => {
    const { id } = await create();
    for (const auth of [t.otherKey, t.liveKey]) {
      await expectError(await t.request(`/v1/conversations/${id}`, { auth }), 404, 'not_found');
      await expectError(await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'hi' }, auth }), 404, 'not_found');
      await expectError(await t.request(`/v1/conversations/${id}/end`, { method: 'POST', auth }), 404, 'not_found');
      await expectError(await t.request(`/v1/conversations/${id}`, { method: 'DELETE', auth }), 404, 'not_found');
    }
    assert.equal((await t.request(`/v1/conversations/${id}`)).status, 200, 'still there for its owner');
  });

  it('browser speech sends text only: audio_url is null', async () => {
    const { id } = await create({ tts_provider: 'browser' });
    const res = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'Hello there' } });
    const reply = (await res.json()) as MessageBody;
    assert.equal(reply.audio_url, null);
    assert.equal(reply.usage.tts_characters, 0);
    assert.ok(reply.content.length > 0);
  });

  it('keeps the user message when the AI provider fails, and answers 502', async () => {
    const failing = await startTestServer({
      aiProviders: [
        {
          id: 'local',
          name: 'failing',
          description: 'always fails',
          kind: 'offline',
          configured: true,
          defaultModel: 'm',
          models: [{ id: 'm', name: 'm', contextWindow: 1, capabilities: ['chat'] }],
          chatModel: () => ({
            provider: 'local',
            modelId: 'm',
            async *stream() {
              const { ProviderError } = await import('../../core/errors.js');
              yield { type: 'error' as const, error: new ProviderError('local', 'vendor exploded (HTTP 500)') };
            },
          }),
        },
      ],
    });
    try {
      const res = await failing.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser' } });
      const { id } = (await res.json()) as { id: string };
      await expectError(await failing.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'do not lose me' } }), 502, 'provider_error', /vendor exploded/);
      const history = (await (await failing.request(`/v1/conversations/${id}`)).json()) as { messages: MessageBody[] };
      assert.deepEqual(history.messages.map((m) => [m.role, m.content]), [['user', 'do not lose me']]);
    } finally {
      await failing.close();
    }
  });

  it('streams a reply as SSE whose deltas join to the stored message', async () => {
    const { id } = await create();
    const res = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'Tell me about yourself.', stream: true } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.equal(res.headers.get('x-accel-buffering'), 'no');
    const events = parseSse(await res.text());
    const deltas = events.filter((e) => e.event === 'message').map((e) => (e.data as { delta: string }).delta);
    assert.ok(deltas.length > 1, 'several deltas');
    const done = events.at(-1);
    assert.equal(done?.event, 'done');
    const { id: messageId, usage } = done!.data as { id: string; usage: { ai_tokens: number } };
    assert.ok(usage.ai_tokens > 0);
    const history = (await (await t.request(`/v1/conversations/${id}`)).json()) as { messages: MessageBody[] };
    const stored = history.messages.find((m) => m.id === messageId);
    assert.equal(stored?.content, deltas.join(''));
  });
});
