import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { VendorHttpSettings } from '../../../../core/vendor-http/http-settings.js';
import { ValidationError } from '../../../../core/errors.js';
import { ProviderRegistry } from '../../../../core/providers/provider-registry.js';
import { createOpenAICompatibleProvider } from '../../../../core/providers/openai-compatible/index.js';
import { OpenAIChatModel } from '../../../../core/providers/openai/index.js';
import { resolveUsage } from '../../../../core/providers/token-count.js';
import { chatRequest, collect, finishOf, readFixture, testVendorChatModel } from '../vendor-chat-conformance.js';
import type { ReplayServer } from '../../../support/replay-server.js';
import { startReplayServer } from '../../../support/replay-server.js';

const apiKey = 'gsk_test_0123456789abcdefghij';
const text = "Hi Sam! Café time? Let's try ½ + ¼ — that's ¾. 🙂";
const model = (baseUrl: string, http: VendorHttpSettings) =>
  createOpenAICompatibleProvider({ id: 'groq', baseUrl: `${baseUrl}/openai/v1`, apiKey, models: ['llama-3.3-70b-versatile'], http }).chatModel();

// This server ignores `stream_options.include_usage` (as llama.cpp and older vLLM do): no usage
// chunk, so the adapter must ESTIMATE both sides with the tokenizer-like count.
testVendorChatModel({
  vendor: 'openai-compatible',
  provider: 'groq',
  apiKey,
  contentType: 'text/event-stream',
  eventSeparator: '\n\n',
  model,
  plain: {
    fixture: 'plain-no-usage.chunks.txt',
    text: 'Hello! How can I help you today?',
    usage: resolveUsage(chatRequest, 'Hello! How can I help you today?'),
    finishReason: 'stop',
  },
  streamed: { fixture: 'streamed-no-usage.chunks.txt', text, usage: resolveUsage(chatRequest, text), finishReason: 'stop' },
  rateLimit: { status: 429, fixture: 'rate-limit-429.body.json', headers: { 'retry-after': '2' }, expectedDelayMs: 2_000 },
  serverError: { status: 503, fixture: 'server-error-503.body.json' },
  bodyEchoingKey: (key) => JSON.stringify({ error: { message: `Invalid API Key ${key}`, type: 'invalid_request_error', code: 'invalid_api_key' } }),
});

describe('createOpenAICompatibleProvider', () => {
  const servers: ReplayServer[] = [];
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  const serveReply = async (): Promise<ReplayServer> => {
    const server = await startReplayServer([
      { headers: { 'content-type': 'text/event-stream' }, chunks: [readFixture('openai-compatible', 'plain-no-usage.chunks.txt')] },
    ]);
    servers.push(server);
    return server;
  };

  it('registers under the operator-chosen id as a custom provider, reusing the OpenAI chat model', () => {
    const provider = createOpenAICompatibleProvider({
      id: 'lmstudio',
      name: 'LM Studio',
      baseUrl: 'http://127.0.0.1:1234/v1',
      models: ['qwen2.5-7b-instruct', { id: 'llama-3.1-8b', name: 'Llama 3.1 8B', contextWindow: 131_072, capabilities: ['chat', 'streaming'] }],
    });
    assert.equal(provider.id, 'lmstudio');
    assert.equal(provider.name, 'LM Studio');
    assert.equal(provider.kind, 'custom');
    assert.equal(provider.configured, true);
    assert.equal(provider.defaultModel, 'qwen2.5-7b-instruct');
    assert.equal(provider.models[0]?.contextWindow, 8_192, 'a bare id gets a nominal window');
    assert.equal(provider.models[1]?.contextWindow, 131_072);
    const model = provider.chatModel();
    assert.ok(model instanceof OpenAIChatModel);
    assert.equal(model.provider, 'lmstudio');
    const registry = new ProviderRegistry([provider]);
    assert.equal(registry.chatModel('lmstudio', 'any-model-the-server-has').modelId, 'any-model-the-server-has');
  });

  it('sends max_tokens (what compatible servers read) and no Authorization without a key', async () => {
    const s = await serveReply();
    const provider = createOpenAICompatibleProvider({ id: 'vllm', baseUrl: `${s.url}/v1`, defaultModel: 'mistral-7b' });
    finishOf(await collect(provider.chatModel().stream(chatRequest)));
    const [request] = s.requests;
    assert.equal(request?.url, '/v1/chat/completions');
    assert.equal(request?.headers.authorization, undefined);
    const body = JSON.parse(request!.body);
    assert.equal(body.model, 'mistral-7b');
    assert.equal(body.max_tokens, 200);
    assert.equal(body.max_completion_tokens, undefined);
    assert.deepEqual(body.messages[0], { role: 'system', content: chatRequest.system });
  });

  it('can leave out stream_options for servers that reject unknown fields', async () => {
    const s = await serveReply();
    const provider = createOpenAICompatibleProvider({ id: 'strict', baseUrl: `${s.url}/v1`, models: ['m'], includeUsage: false });
    finishOf(await collect(provider.chatModel().stream(chatRequest)));
    assert.equal(JSON.parse(s.requests[0]!.body).stream_options, undefined);
  });

  it('sends the key as a bearer token when given', async () => {
    const s = await serveReply();
    const provider = createOpenAICompatibleProvider({ id: 'together', baseUrl: `${s.url}/v1`, apiKey, models: ['m'] });
    await collect(provider.chatModel().stream(chatRequest));
    assert.equal(s.requests[0]?.headers.authorization, `Bearer ${apiKey}`);
  });

  it('rejects bad ids, a missing URL and a missing model', () => {
    const baseUrl = 'http://127.0.0.1:8000/v1';
    assert.throws(() => createOpenAICompatibleProvider({ id: 'My Server', baseUrl, models: ['m'] }), ValidationError);
    assert.throws(() => createOpenAICompatibleProvider({ id: 'x', baseUrl: 'not a url', models: ['m'] }), ValidationError);
    assert.throws(() => createOpenAICompatibleProvider({ id: 'x', baseUrl }), /defaultModel/);
  });
});
