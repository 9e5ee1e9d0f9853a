import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { ChatRequest } from '../../../../core/providers/chat-model.js';
import type { VendorHttpSettings } from '../../../../core/vendor-http/http-settings.js';
import { ValidationError } from '../../../../core/errors.js';
import { createOpenAIProvider, OPENAI_DEFAULT_BASE_URL } from '../../../../core/providers/openai/index.js';
import {
  chatRequest,
  collect,
  errorOf,
  finishOf,
  readFixture,
  testVendorChatModel,
  textOf,
} from '../vendor-chat-conformance.js';
import type { ReplayServer } from '../../../support/replay-server.js';
import { startReplayServer } from '../../../support/replay-server.js';

const apiKey = 'sk-test-abcdefgh12345678';
const model = (baseUrl: string, http: VendorHttpSettings) =>
  createOpenAIProvider({ apiKey, baseUrl: `${baseUrl}/v1`, http }).chatModel('gpt-4o-mini');

testVendorChatModel({
  vendor: 'openai',
  provider: 'openai',
  apiKey,
  contentType: 'text/event-stream; charset=utf-8',
  eventSeparator: '\n\n',
  model,
  plain: {
    fixture: 'plain.chunks.txt',
    text: 'Hello! How can I help you today?',
    usage: { inputTokens: 21, outputTokens: 9 },
    finishReason: 'stop',
  },
  streamed: {
    fixture: 'streamed.chunks.txt',
    text: "Hi Sam! Café time? Let's try ½ + ¼ — that's ¾. 🙂",
    usage: { inputTokens: 57, outputTokens: 19 },
    finishReason: 'stop',
  },
  rateLimit: {
    status: 429,
    fixture: 'rate-limit-429.body.json',
    headers: { 'retry-after': '20', 'x-request-id': 'req_7f1d' },
    expectedDelayMs: 20_000,
  },
  serverError: { status: 500, fixture: 'server-error-500.body.json' },
  bodyEchoingKey: (key) =>
    JSON.stringify({ error: { message: `Incorrect API key provided: ${key}.`, type: 'invalid_request_error', code: 'invalid_api_key' } }),
});

describe('openai wire format', () => {
  const servers: ReplayServer[] = [];
  const serve = async (...script: Parameters<typeof startReplayServer>): Promise<ReplayServer> => {
    const server = await startReplayServer(...script);
    servers.push(server);
    return server;
  };
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  const sse = { 'content-type': 'text/event-stream' };

  it('POSTs a streamed Chat Completions request with the system prompt in the system message', async () => {
    const s = await serve([{ headers: sse, chunks: [readFixture('openai', 'plain.chunks.txt')] }]);
    await collect(createOpenAIProvider({ apiKey, baseUrl: `${s.url}/v1/` }).chatModel('gpt-4o').stream(chatRequest));
    const [request] = s.requests;
    assert.ok(request);
    assert.equal(request.method, 'POST');
    assert.equal(request.url, '/v1/chat/completions');
    assert.equal(request.headers.authorization, `Bearer ${apiKey}`);
    assert.match(String(request.headers['content-type']), /^application\/json/);
    assert.deepEqual(JSON.parse(request.body), {
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: chatRequest.system },
        { role: 'user', content: "Hi, I'm Sam." },
        { role: 'assistant', content: 'Hello Sam! What shall we learn today?' },
        { role: 'user', content: 'Can we add fractions?' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.7,
      max_completion_tokens: 200,
    });
  });

  it('reports HTTP errors with the vendor code, message and request id', async () => {
    const s = await serve([
      {
        status: 429,
        headers: { 'content-type': 'application/json', 'x-request-id': 'req_7f1d' },
        chunks: [readFixture('openai', 'rate-limit-429.body.json')],
      },
    ]);
    const model = createOpenAIProvider({ apiKey, baseUrl: `${s.url}/v1`, http: { maxRetries: 0 } }).chatModel();
    const error = errorOf(await collect(model.stream(chatRequest)));
    assert.match(error.message, /^openai: HTTP 429 rate_limit_exceeded: Rate limit reached for gpt-4o-mini/);
    assert.match(error.message, /request id req_7f1d/);
  });

  it('does not retry a 429 insufficient_quota: waiting does not refill a quota', async () => {
    const body = JSON.stringify({ error: { message: 'You exceeded your current quota.', type: 'insufficient_quota', code: 'insufficient_quota' } });
    const s = await serve([{ status: 429, headers: { 'content-type': 'application/json' }, chunks: [body] }]);
    const model = createOpenAIProvider({ apiKey, baseUrl: `${s.url}/v1` }).chatModel();
    const error = errorOf(await collect(model.stream(chatRequest)));
    assert.equal(error.isRetryable, false);
    assert.equal(s.requests.length, 1);
  });

  it('surfaces an error object sent inside a 200 stream', async () => {
    const chunks = [
      'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}],"usage":null}\n\n',
      'data: {"error":{"message":"The model is overloaded.","type":"server_error","param":null,"code":null}}\n\n',
    ];
    const s = await serve([{ headers: sse, chunks }]);
    const parts = await collect(createOpenAIProvider({ apiKey, baseUrl: `${s.url}/v1` }).chatModel().stream(chatRequest));
    assert.equal(textOf(parts), 'Hi');
    assert.match(errorOf(parts).message, /^openai: stream error server_error: The model is overloaded/);
  });

  it('speaks a refusal and maps length and content_filter finish reasons', async () => {
    const chunk = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }], usage: null })}\n\n`;
    const s = await serve((_, index) => ({
      headers: sse,
      chunks:
        index === 0
          ? [chunk({ refusal: "I can't help with that." }, null), chunk({}, 'content_filter'), 'data: [DONE]\n\n']
          : [chunk({ content: 'One two' }, null), chunk({}, 'length'), 'data: [DONE]\n\n'],
    }));
    const provider = createOpenAIProvider({ apiKey, baseUrl: `${s.url}/v1` });
    const refused = await collect(provider.chatModel().stream(chatRequest));
    assert.equal(textOf(refused), "I can't help with that.");
    assert.equal(finishOf(refused).finishReason, 'content-filter');
    const cut = await collect(provider.chatModel().stream(chatRequest));
    assert.equal(finishOf(cut).finishReason, 'length');
  });

  it('rejects a malformed stream without retrying', async () => {
    const s = await serve([{ headers: sse, chunks: ['data: {not json\n\n'] }]);
    const parts = await collect(createOpenAIProvider({ apiKey, baseUrl: `${s.url}/v1` }).chatModel().stream(chatRequest));
    const error = errorOf(parts);
    assert.match(error.message, /malformed stream/);
    assert.equal(error.isRetryable, false);
    assert.equal(s.requests.length, 1);
  });
});

describe('createOpenAIProvider', () => {
  it('lists real models and is configured by a key', () => {
    const provider = createOpenAIProvider({ apiKey });
    assert.equal(provider.id, 'openai');
    assert.equal(provider.kind, 'vendor');
    assert.equal(provider.configured, true);
    assert.equal(provider.defaultModel, 'gpt-4o-mini');
    const gpt4o = provider.models.find((m) => m.id === 'gpt-4o');
    assert.equal(gpt4o?.contextWindow, 128_000);
    assert.ok(gpt4o?.capabilities.includes('streaming'));
    assert.ok(Object.isFrozen(provider) && Object.isFrozen(provider.models));
    assert.equal(provider.chatModel().provider, 'openai');
    assert.equal(provider.chatModel('gpt-4.1').modelId, 'gpt-4.1');
  });

  it("without a key is unconfigured and fails before any request, with the host's hint", async () => {
    const provider = createOpenAIProvider({ apiKey: '  ', setupHint: 'set OPENAI_API_KEY' });
    assert.equal(provider.configured, false);
    const error = errorOf(await collect(provider.chatModel().stream(chatRequest)));
    assert.match(error.message, /OPENAI_API_KEY/);
    assert.equal(OPENAI_DEFAULT_BASE_URL, 'https://api.openai.com/v1');
  });

  it('with only a base URL (a keyless compatible server) is configured and sends no Authorization', async () => {
    const s = await startReplayServer([{ headers: { 'content-type': 'text/event-stream' }, chunks: [readFixture('openai', 'plain.chunks.txt')] }]);
    try {
      const provider = createOpenAIProvider({ baseUrl: `${s.url}/v1` });
      assert.equal(provider.configured, true);
      finishOf(await collect(provider.chatModel().stream(chatRequest)));
      assert.equal(s.requests[0]?.headers.authorization, undefined);
    } finally {
      await s.close();
    }
  });

  it('never throws from stream(), even for a request it cannot serialize', async () => {
    const provider = createOpenAIProvider({ apiKey, baseUrl: 'http://127.0.0.1:9/v1' });
    const broken = { messages: [{ role: 'user', content: undefined }] } as unknown as ChatRequest;
    const error = errorOf(await collect(provider.chatModel().stream(broken)));
    assert.match(error.message, /^openai: unexpected failure/);
  });

  it('validates settings once, when built', () => {
    assert.throws(() => createOpenAIProvider({ baseUrl: 'api.openai.com' }), ValidationError);
    assert.throws(() => createOpenAIProvider({ baseUrl: 'ftp://example.com' }), ValidationError);
    assert.throws(() => createOpenAIProvider({ http: { timeouts: { connectMs: 0 } } }), ValidationError);
    assert.throws(() => createOpenAIProvider({ http: { maxRetries: -1 } }), ValidationError);
    assert.throws(() => createOpenAIProvider().chatModel(''), ValidationError);
  });
});
