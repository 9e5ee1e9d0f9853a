import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { repoRoot } from '../support/repo-root.js';
import { splitBytes, startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { readSse } from '../support/sse-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const fixture = (vendor: string, name: string) => readFile(join(repoRoot, 'test/core/providers', vendor, '__fixtures__', name), 'utf8');

/** The text an OpenAI chunk stream carries, read independently of the adapter. */
function openAIText(chunks: string): string {
  return chunks
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => (JSON.parse(line.slice(6)) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content ?? '')
    .join('');
}

const sse = { 'content-type': 'text/event-stream' };

describe('AI routes and vendor providers from configuration', () => {
  let openai: ReplayServer;
  let t: TestServer;
  let streamed: string;

  before(async () => {
    streamed = await fixture('openai', 'streamed.chunks.txt');
    // Every request to the fake OpenAI gets the recorded stream, cut at awkward places.
    openai = await startReplayServer(() => ({ headers: sse, chunks: splitBytes(streamed, [7, 300, 1, 64]) }));
    t = await startTestServer({
      providersFromConfig: true,
      env: { OPENAI_API_KEY: 'sk-test-secret-key-0000', OPENAI_BASE_URL: `${openai.url}/v1`, DEFAULT_AI_PROVIDER: 'local' },
    });
  });
  after(async () => {
    await t.close();
    await openai.close();
  });

  it('GET /v1/models is public and lists every provider, configured or not, with models', async () => {
    const res = await t.request('/v1/models', { auth: null });
    assert.equal(res.status, 200);
    const body = (await res.json()) as {
      default_provider: string;
      providers: { id: string; configured: boolean; kind: string; description: string; models: { id: string; context_window: number; capabilities: string[] }[] }[];
    };
    assert.equal(body.default_provider, 'local');
    const byId = Object.fromEntries(body.providers.map((p) => [p.id, p]));
    assert.deepEqual(Object.keys(byId).sort(), ['anthropic', 'google', 'local', 'ollama', 'openai']);
    assert.equal(byId.openai!.configured, true);
    assert.equal(byId.anthropic!.configured, false);
    assert.equal(byId.local!.kind, 'offline');
    assert.match(byId.local!.description, /offline/i);
    for (const provider of body.providers) {
      assert.ok(provider.models.length > 0, provider.id);
      for (const model of provider.models) assert.ok(model.context_window > 0 && model.capabilities.includes('chat'), model.id);
    }
  });

  it('GET /v1/ai/providers needs a key and says which providers are configured', async () => {
    assert.equal((await t.request('/v1/ai/providers', { auth: null })).status, 401);
    const body = (await (await t.request('/v1/ai/providers')).json()) as { providers: { id: string; configured: boolean; capabilities: string[] }[] };
    assert.deepEqual(
      body.providers.filter((p) => p.configured).map((p) => p.id).sort(),
      ['local', 'openai'],
    );
  });

  it('POST /v1/ai/chat completes through the vendor and meters its usage', async () => {
    const before = openai.requests.length;
    const res = await t.request('/v1/ai/chat', {
      method: 'POST',
      json: { provider: 'openai', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello' }] },
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { id: string; provider: string; model: string; content: string; finish_reason: string; usage: { ai_tokens: number } };
    assert.equal(body.provider, 'openai');
    assert.equal(body.content, openAIText(streamed));
    assert.equal(body.finish_reason, 'stop');
    assert.equal(body.usage.ai_tokens, 57 + 19);
    const sent = JSON.parse(openai.requests[before]!.body) as { messages: { role: string; content: string }[]; stream: boolean };
    assert.equal(sent.stream, true);
    assert.deepEqual(sent.messages[0], { role: 'system', content: 'Be brief.' });
    assert.equal(openai.requests[before]!.headers.authorization, 'Bearer sk-test-secret-key-0000');
    const usage = (await (await t.request('/v1/usage')).json()) as { total: { ai_tokens: number } };
    assert.ok(usage.total.ai_tokens >= 76);
  });

  it('POST /v1/ai/chat streams deltas as SSE ending with done and usage', async () => {
    const res = await t.request('/v1/ai/chat', { method: 'POST', json: { provider: 'openai', messages: [{ role: 'user', content: 'Hi' }], stream: true } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /text\/event-stream/);
    const events = await readSse(res);
    const text = events.filter((e) => e.event === 'message').map((e) => (e.data as { delta: string }).delta).join('');
    assert.equal(text, openAIText(streamed));
    const done = events.at(-1)!;
    assert.equal(done.event, 'done');
    assert.equal((done.data as { usage: { ai_tokens: number } }).usage.ai_tokens, 76);
  });

  it('validates: unknown and unconfigured providers, empty messages, unknown models', async () => {
    const cases: [unknown, RegExp][] = [
      [{ provider: 'skynet', messages: [{ role: 'user', content: 'x' }] }, /provider must be one of: .*openai/],
      [{ provider: 'anthropic', messages: [{ role: 'user', content: 'x' }] }, /not configured/],
      [{ messages: [] }, /messages must have at least 1/],
      [{ messages: [{ role: 'system', content: 'only instructions' }] }, /at least one user message/],
      [{ messages: [{ role: 'assistant', content: 'Hello there.' }] }, /at least one user message/],
      [{ provider: 'openai', model: 'gpt-99', messages: [{ role: 'user', content: 'x' }] }, /model must be one of/],
      [{ messages: [{ role: 'robot', content: 'x' }] }, /role must be one of/],
    ];
    for (const [json, message] of cases) {
      const res = await t.request('/v1/ai/chat', { method: 'POST', json });
      assert.equal(res.status, 400, JSON.stringify(json));
      assert.match(((await res.json()) as { error: { message: string } }).error.message, message);
    }
  });

  it('a conversation with ai_provider openai streams the vendor reply through SSE end to end', async () => {
    const created = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', ai_provider: 'openai', tts_provider: 'browser', system_prompt: 'Mention the weather.' } });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: string };
    const before = openai.requests.length;
    const res = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'Hi Luna', stream: true } });
    const events = await readSse(res);
    const text = events.filter((e) => e.event === 'message').map((e) => (e.data as { delta: string }).delta).join('');
    assert.equal(text, openAIText(streamed));
    assert.equal(events.at(-1)!.event, 'done');
    const sent = JSON.parse(openai.requests[before]!.body) as { messages: { role: string; content: string }[] };
    assert.equal(sent.messages[0]!.role, 'system');
    assert.match(sent.messages[0]!.content, /You are Luna/);
    assert.match(sent.messages[0]!.content, /Mention the weather\./);
    assert.deepEqual(sent.messages.at(-1), { role: 'user', content: 'Hi Luna' });
    const stored = (await (await t.request(`/v1/conversations/${id}`)).json()) as { messages: { role: string; content: string }[]; usage: { ai_tokens: number } };
    assert.equal(stored.messages.at(-1)!.content, text);
    assert.equal(stored.usage.ai_tokens, 76);
  });

  it('rejects ai_provider values that are unknown or not configured here', async () => {
    const unknown = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', ai_provider: 'skynet' } });
    assert.equal(unknown.status, 400);
    assert.match(((await unknown.json()) as { error: { message: string } }).error.message, /ai_provider must be one of: local, openai, anthropic, google, ollama/);
    const unconfigured = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', ai_provider: 'google' } });
    assert.equal(unconfigured.status, 400);
    assert.match(((await unconfigured.json()) as { error: { message: string } }).error.message, /not configured/);
  });
});

describe('AI fallback chain and vendor failures', () => {
  it('falls back to the next provider when the vendor fails before answering, and keeps the user message when all fail', async () => {
    const error500 = await fixture('openai', 'server-error-500.body.json');
    const failing = await startReplayServer(() => ({ status: 500, headers: { 'content-type': 'application/json' }, chunks: [error500] }));
    const withFallback = await startTestServer({
      providersFromConfig: true,
      env: { OPENAI_API_KEY: 'sk-test-secret-key-1111', OPENAI_BASE_URL: `${failing.url}/v1`, AI_FALLBACK: 'local', DEFAULT_TTS_PROVIDER: 'browser' },
    });
    const without = await startTestServer({
      providersFromConfig: true,
      env: { OPENAI_API_KEY: 'sk-test-secret-key-1111', OPENAI_BASE_URL: `${failing.url}/v1`, DEFAULT_TTS_PROVIDER: 'browser' },
    });
    try {
      // The first configured vendor is the default when DEFAULT_AI_PROVIDER is unset.
      const { id } = (await (await withFallback.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } })).json()) as { id: string };
      const reply = await withFallback.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'My name is Ada.' } });
      assert.equal(reply.status, 200);
      const message = (await reply.json()) as { role: string; content: string };
      assert.equal(message.role, 'assistant');
      assert.ok(message.content.length > 0);

      const other = (await (await without.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } })).json()) as { id: string };
      const failed = await without.request(`/v1/conversations/${other.id}/messages`, { method: 'POST', json: { content: 'Are you there?' } });
      assert.equal(failed.status, 502);
      const error = (await failed.json()) as { error: { code: string; message: string } };
      assert.equal(error.error.code, 'provider_error');
      assert.doesNotMatch(error.error.message, /sk-test-secret-key-1111/);
      const history = (await (await without.request(`/v1/conversations/${other.id}`)).json()) as { messages: { role: string; content: string }[] };
      assert.deepEqual(history.messages.map((m) => [m.role, m.content]).slice(0, 1), [['user', 'Are you there?']]);
    } finally {
      await withFallback.close();
      await without.close();
      await failing.close();
    }
  });
});

describe('custom OpenAI-compatible providers from CUSTOM_AI_PROVIDERS', () => {
  it('registers each under its name with its key and default model, and converses through it', async () => {
    const streamed = await fixture('openai', 'streamed.chunks.txt');
    const groq = await startReplayServer(() => ({ headers: sse, chunks: splitBytes(streamed, [33]) }));
    const t = await startTestServer({
      providersFromConfig: true,
      env: { CUSTOM_AI_PROVIDERS: `groq=${groq.url}/openai/v1`, GROQ_API_KEY: 'gsk-test-secret', GROQ_MODEL: 'llama-3.1-8b-instant', DEFAULT_TTS_PROVIDER: 'browser' },
    });
    try {
      const models = (await (await t.request('/v1/models', { auth: null })).json()) as { providers: { id: string; kind: string; configured: boolean; default_model: string }[] };
      const custom = models.providers.find((p) => p.id === 'groq');
      assert.deepEqual(custom && { kind: custom.kind, configured: custom.configured, default_model: custom.default_model }, {
        kind: 'custom',
        configured: true,
        default_model: 'llama-3.1-8b-instant',
      });
      const { id } = (await (await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'kenji-004', ai_provider: 'groq' } })).json()) as { id: string };
      const reply = (await (await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'Quiz me!' } })).json()) as { content: string };
      assert.equal(reply.content, openAIText(streamed));
      const sent = groq.requests[0]!;
      assert.equal(sent.url, '/openai/v1/chat/completions');
      assert.equal(sent.headers.authorization, 'Bearer gsk-test-secret');
      assert.equal((JSON.parse(sent.body) as { model: string }).model, 'llama-3.1-8b-instant');
    } finally {
      await t.close();
      await groq.close();
    }
  });
});
