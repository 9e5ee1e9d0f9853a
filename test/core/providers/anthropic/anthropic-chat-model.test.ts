import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { VendorHttpSettings } from '../../../../core/vendor-http/http-settings.js';
import { createAnthropicProvider } from '../../../../core/providers/anthropic/index.js';
import {
  chatRequest,
  collect,
  errorOf,
  fakeSleep,
  finishOf,
  readFixture,
  testVendorChatModel,
  textOf,
} from '../vendor-chat-conformance.js';
import type { ReplayScript, ReplayServer } from '../../../support/replay-server.js';
import { startReplayServer } from '../../../support/replay-server.js';

const apiKey = 'sk-ant-api03-test-KEY-0123456789';
const model = (baseUrl: string, http: VendorHttpSettings) =>
  createAnthropicProvider({ apiKey, baseUrl, http }).chatModel('claude-haiku-4-5');

testVendorChatModel({
  vendor: 'anthropic',
  provider: 'anthropic',
  apiKey,
  contentType: 'text/event-stream; charset=utf-8',
  eventSeparator: '\n\n',
  model,
  plain: {
    fixture: 'plain.chunks.txt',
    text: 'Hello! How can I help you today?',
    usage: { inputTokens: 25, outputTokens: 11 },
    finishReason: 'stop',
  },
  streamed: {
    fixture: 'streamed.chunks.txt',
    text: "Hi Sam! Café time? Let's try ½ + ¼ — that's ¾. 🙂",
    usage: { inputTokens: 61, outputTokens: 22 },
    finishReason: 'stop',
  },
  rateLimit: {
    status: 429,
    fixture: 'rate-limit-429.body.json',
    headers: { 'retry-after': '3', 'request-id': 'req_011CSHoEeqs5C35K2UUqR7Fy' },
    expectedDelayMs: 3_000,
  },
  serverError: { status: 500, fixture: 'server-error-500.body.json' },
  bodyEchoingKey: (key) => JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${key}` } }),
});

describe('anthropic wire format', () => {
  const servers: ReplayServer[] = [];
  const serve = async (script: ReplayScript): Promise<ReplayServer> => {
    const server = await startReplayServer(script);
    servers.push(server);
    return server;
  };
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  const sse = { 'content-type': 'text/event-stream' };
  const reply = (fixture: string) => ({ headers: sse, chunks: [readFixture('anthropic', fixture)] });

  it('POSTs to /v1/messages with x-api-key, anthropic-version and the system prompt in `system`', async () => {
    const s = await serve([reply('plain.chunks.txt')]);
    await collect(createAnthropicProvider({ apiKey, baseUrl: `${s.url}/` }).chatModel('claude-sonnet-4-5').stream(chatRequest));
    const [request] = s.requests;
    assert.ok(request);
    assert.equal(request.method, 'POST');
    assert.equal(request.url, '/v1/messages');
    assert.equal(request.headers['x-api-key'], apiKey);
    assert.equal(request.headers['anthropic-version'], '2023-06-01');
    assert.equal(request.headers.authorization, undefined);
    assert.deepEqual(JSON.parse(request.body), {
      model: 'claude-sonnet-4-5',
      max_tokens: 200,
      system: chatRequest.system,
      messages: [
        { role: 'user', content: "Hi, I'm Sam." },
        { role: 'assistant', content: 'Hello Sam! What shall we learn today?' },
        { role: 'user', content: 'Can we add fractions?' },
      ],
      stream: true,
      temperature: 0.7,
    });
  });

  it('defaults max_tokens, clamps temperature to 0–1, and opens an assistant-first conversation with a user turn', async () => {
    const s = await serve([reply('plain.chunks.txt')]);
    const request = {
      messages: [
        { role: 'assistant' as const, content: 'Hi! I am Ada.' },
        { role: 'user' as const, content: 'Hello.' },
        { role: 'user' as const, content: 'Are you there?' },
      ],
      temperature: 1.6,
    };
    await collect(createAnthropicProvider({ apiKey, baseUrl: s.url }).chatModel().stream(request));
    const body = JSON.parse(s.requests[0]!.body);
    assert.equal(body.max_tokens, 1024);
    assert.equal(body.temperature, 1);
    assert.equal(body.system, undefined);
    assert.deepEqual(body.messages, [
      { role: 'user', content: '(The conversation begins.)' },
      { role: 'assistant', content: 'Hi! I am Ada.' },
      { role: 'user', content: 'Hello.\n\nAre you there?' },
    ]);
  });

  it('retries an overloaded_error event that arrives before any text', async () => {
    const s = await serve([reply('overloaded-error.chunks.txt'), reply('streamed.chunks.txt')]);
    const { sleep, delays } = fakeSleep();
    const parts = await collect(createAnthropicProvider({ apiKey, baseUrl: s.url, http: { sleep, random: () => 0 } }).chatModel().stream(chatRequest));
    assert.equal(s.requests.length, 2);
    assert.deepEqual(delays, [500]);
    assert.equal(textOf(parts), "Hi Sam! Café time? Let's try ½ + ¼ — that's ¾. 🙂");
  });

  it('surfaces an error event after text as an error part, keeping the text', async () => {
    const body = readFixture('anthropic', 'streamed.chunks.txt');
    const cut = body.indexOf('event: content_block_delta', body.indexOf('" Café"'));
    const error = 'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}\n\n';
    const s = await serve([{ headers: sse, chunks: [body.slice(0, cut), error] }]);
    const parts = await collect(createAnthropicProvider({ apiKey, baseUrl: s.url }).chatModel().stream(chatRequest));
    assert.equal(textOf(parts), 'Hi Sam! Café');
    const failure = errorOf(parts);
    assert.equal(failure.message, 'anthropic: stream error overloaded_error: Overloaded');
    assert.equal(s.requests.length, 1);
  });

  it('maps stop_reason max_tokens to length, with the usage from message_delta', async () => {
    const s = await serve([reply('max-tokens.chunks.txt')]);
    const parts = await collect(createAnthropicProvider({ apiKey, baseUrl: s.url }).chatModel().stream(chatRequest));
    assert.equal(textOf(parts), 'Hi Sam! Let');
    const finish = finishOf(parts);
    assert.equal(finish.finishReason, 'length');
    assert.deepEqual(finish.usage, { inputTokens: 61, outputTokens: 3 });
  });

  it('quotes the error type and request id of an HTTP error, with a hint for a bad key', async () => {
    const s = await serve([
      { status: 401, headers: { 'content-type': 'application/json', 'request-id': 'req_0AB' }, chunks: [readFixture('anthropic', 'invalid-key-401.body.json')] },
    ]);
    const error = errorOf(await collect(createAnthropicProvider({ apiKey, baseUrl: s.url }).chatModel().stream(chatRequest)));
    assert.equal(
      error.message,
      'anthropic: HTTP 401 authentication_error: invalid x-api-key (the vendor rejected the API key) (request id req_0AB)',
    );
    assert.equal(error.isRetryable, false);
  });
});

describe('createAnthropicProvider', () => {
  it('lists Claude models with 200k context windows and is configured by a key', () => {
    const provider = createAnthropicProvider({ apiKey });
    assert.equal(provider.id, 'anthropic');
    assert.equal(provider.kind, 'vendor');
    assert.equal(provider.configured, true);
    assert.ok(provider.models.length >= 3);
    for (const m of provider.models) assert.equal(m.contextWindow, 200_000);
    assert.ok(provider.models.some((m) => m.id === provider.defaultModel));
  });

  it("without a key is unconfigured and fails before any request, with the host's hint", async () => {
    const provider = createAnthropicProvider();
    assert.equal(provider.configured, false);
    assert.match(errorOf(await collect(provider.chatModel().stream(chatRequest))).message, /no API key configured$/);
    const hinted = createAnthropicProvider({ setupHint: 'set ANTHROPIC_API_KEY' });
    assert.match(errorOf(await collect(hinted.chatModel().stream(chatRequest))).message, /no API key configured \(set ANTHROPIC_API_KEY\)/);
  });
});
