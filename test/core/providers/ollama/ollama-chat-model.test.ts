import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { VendorHttpSettings } from '../../../../core/vendor-http/http-settings.js';
import { createOllamaProvider, OLLAMA_DEFAULT_TIMEOUTS } from '../../../../core/providers/ollama/index.js';
import { estimateInputTokens } from '../../../../core/providers/token-count.js';
import {
  chatRequest,
  collect,
  errorOf,
  finishOf,
  readFixture,
  testVendorChatModel,
  textOf,
} from '../vendor-chat-conformance.js';
import type { ReplayScript, ReplayServer } from '../../../support/replay-server.js';
import { startReplayServer } from '../../../support/replay-server.js';

// A local Ollama needs no key; this one sits behind an authenticating proxy, so the suite can
// check the bearer token never leaks.
const apiKey = 'ollama-proxy-token-0123456789';
const model = (baseUrl: string, http: VendorHttpSettings) => createOllamaProvider({ apiKey, baseUrl, http }).chatModel('llama3.2');

testVendorChatModel({
  vendor: 'ollama',
  provider: 'ollama',
  apiKey,
  contentType: 'application/x-ndjson',
  eventSeparator: '\n',
  model,
  plain: {
    fixture: 'plain.chunks.txt',
    text: 'Hello! How can I help you today?',
    usage: { inputTokens: 26, outputTokens: 10 },
    finishReason: 'stop',
  },
  streamed: {
    fixture: 'streamed.chunks.txt',
    text: "Hi Sam! Café time? Let's try ½ + ¼ — that's ¾. 🙂",
    usage: { inputTokens: 52, outputTokens: 18 },
    finishReason: 'stop',
  },
  // Ollama itself never rate-limits; a proxy in front of it (or ollama.com) does, with Retry-After.
  rateLimit: {
    status: 429,
    fixture: 'rate-limit-429.body.json',
    headers: { 'retry-after': '2' },
    expectedDelayMs: 2_000,
  },
  serverError: { status: 500, fixture: 'server-error-500.body.json' },
  bodyEchoingKey: (key) => JSON.stringify({ error: `unauthorized: bearer ${key} is not valid` }),
});

describe('ollama wire format', () => {
  const servers: ReplayServer[] = [];
  const serve = async (script: ReplayScript): Promise<ReplayServer> => {
    const server = await startReplayServer(script);
    servers.push(server);
    return server;
  };
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  const ndjson = { 'content-type': 'application/x-ndjson' };

  it('POSTs /api/chat with the system prompt as the first (system) message and options', async () => {
    const s = await serve([{ headers: ndjson, chunks: [readFixture('ollama', 'plain.chunks.txt')] }]);
    await collect(createOllamaProvider({ baseUrl: `${s.url}/` }).chatModel('qwen2.5').stream(chatRequest));
    const [request] = s.requests;
    assert.ok(request);
    assert.equal(request.method, 'POST');
    assert.equal(request.url, '/api/chat');
    assert.equal(request.headers.authorization, undefined, 'a local Ollama gets no credential');
    assert.deepEqual(JSON.parse(request.body), {
      model: 'qwen2.5',
      messages: [
        { role: 'system', content: chatRequest.system },
        { role: 'user', content: "Hi, I'm Sam." },
        { role: 'assistant', content: 'Hello Sam! What shall we learn today?' },
        { role: 'user', content: 'Can we add fractions?' },
      ],
      stream: true,
      options: { temperature: 0.7, num_predict: 200 },
    });
  });

  it('estimates input tokens when Ollama served the prompt from its cache and reported none', async () => {
    const s = await serve([{ headers: ndjson, chunks: [readFixture('ollama', 'cached-prompt.chunks.txt')] }]);
    const parts = await collect(createOllamaProvider({ baseUrl: s.url }).chatModel().stream(chatRequest));
    assert.equal(textOf(parts), 'Hello again!');
    assert.deepEqual(finishOf(parts).usage, { inputTokens: estimateInputTokens(chatRequest), outputTokens: 4 });
  });

  it('surfaces an error line inside the stream, keeping the text', async () => {
    const s = await serve([{ headers: ndjson, chunks: [readFixture('ollama', 'error-midstream.chunks.txt')] }]);
    const parts = await collect(createOllamaProvider({ baseUrl: s.url }).chatModel().stream(chatRequest));
    assert.equal(textOf(parts), 'Hi');
    assert.match(errorOf(parts).message, /^ollama: stream error: an error was encountered while running the model: CUDA error/);
  });

  it('explains a model that was not pulled', async () => {
    const s = await serve([{ status: 404, headers: { 'content-type': 'application/json' }, chunks: [readFixture('ollama', 'model-not-found-404.body.json')] }]);
    const error = errorOf(await collect(createOllamaProvider({ baseUrl: s.url }).chatModel('llama3.3').stream(chatRequest)));
    assert.equal(error.message, 'ollama: HTTP 404: model "llama3.3" not found, try pulling it first (check the model id and the base URL)');
    assert.equal(error.isRetryable, false);
  });
});

describe('createOllamaProvider', () => {
  it('is configured by a base URL and lists common models with their context lengths', () => {
    assert.equal(createOllamaProvider().configured, false);
    const provider = createOllamaProvider({ baseUrl: 'http://gpu-box:11434' });
    assert.equal(provider.configured, true);
    assert.equal(provider.kind, 'vendor');
    assert.equal(provider.models.find((m) => m.id === 'llama3.2')?.contextWindow, 131_072);
  });

  it('waits longer for headers by default, since Ollama answers only once a cold model has loaded', () => {
    assert.equal(OLLAMA_DEFAULT_TIMEOUTS.connectMs, 120_000);
  });

  it('lists a default model it did not know, so /models shows what requests get', () => {
    const provider = createOllamaProvider({ baseUrl: 'http://gpu-box:11434', defaultModel: 'phi4' });
    assert.equal(provider.defaultModel, 'phi4');
    assert.ok(provider.models.some((m) => m.id === 'phi4'));
  });
});
