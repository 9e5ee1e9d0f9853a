import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { VendorHttpSettings } from '../../../../core/vendor-http/http-settings.js';
import { createGoogleProvider } from '../../../../core/providers/google/index.js';
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

const apiKey = 'AIzaSyTEST-0123456789abcdefghijklmnopq';
const model = (baseUrl: string, http: VendorHttpSettings) => createGoogleProvider({ apiKey, baseUrl, http }).chatModel('gemini-2.5-flash');

testVendorChatModel({
  vendor: 'google',
  provider: 'google',
  apiKey,
  contentType: 'text/event-stream',
  eventSeparator: '\r\n\r\n',
  model,
  plain: {
    fixture: 'plain.chunks.txt',
    text: 'Hello! How can I help you today?',
    usage: { inputTokens: 8, outputTokens: 9 },
    finishReason: 'stop',
  },
  streamed: {
    fixture: 'streamed.chunks.txt',
    text: "Hi Sam! Café time? Let's try ½ + ¼ — that's ¾. 🙂",
    usage: { inputTokens: 48, outputTokens: 20 },
    finishReason: 'stop',
  },
  // Gemini sends no Retry-After header: the wait is the body's RetryInfo.retryDelay ("7s").
  rateLimit: { status: 429, fixture: 'rate-limit-429.body.json', expectedDelayMs: 7_000 },
  serverError: { status: 500, fixture: 'server-error-500.body.json' },
  bodyEchoingKey: (key) => JSON.stringify({ error: { code: 400, message: `API key not valid: ${key}`, status: 'INVALID_ARGUMENT' } }),
});

describe('google wire format', () => {
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
  const event = (value: object) => `data: ${JSON.stringify(value)}\r\n\r\n`;

  it('POSTs streamGenerateContent?alt=sse with the key in a header and the system prompt in systemInstruction', async () => {
    const s = await serve([{ headers: sse, chunks: [readFixture('google', 'plain.chunks.txt')] }]);
    await collect(createGoogleProvider({ apiKey, baseUrl: `${s.url}/` }).chatModel('models/gemini-2.5-pro').stream(chatRequest));
    const [request] = s.requests;
    assert.ok(request);
    assert.equal(request.method, 'POST');
    assert.equal(request.url, '/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse');
    assert.equal(request.headers['x-goog-api-key'], apiKey);
    assert.ok(!request.url.includes(apiKey), 'never in the URL, where logs would keep it');
    assert.deepEqual(JSON.parse(request.body), {
      contents: [
        { role: 'user', parts: [{ text: "Hi, I'm Sam." }] },
        { role: 'model', parts: [{ text: 'Hello Sam! What shall we learn today?' }] },
        { role: 'user', parts: [{ text: 'Can we add fractions?' }] },
      ],
      systemInstruction: { parts: [{ text: chatRequest.system }] },
      generationConfig: { temperature: 0.7, maxOutputTokens: 200 },
    });
  });

  it('skips thought parts and counts thinking tokens as output', async () => {
    const s = await serve([
      {
        headers: sse,
        chunks: [
          event({ candidates: [{ content: { parts: [{ text: 'Let me think…', thought: true }], role: 'model' }, index: 0 }] }),
          event({
            candidates: [{ content: { parts: [{ text: 'Three quarters.' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
            usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 4, thoughtsTokenCount: 30, totalTokenCount: 46 },
          }),
        ],
      },
    ]);
    const parts = await collect(createGoogleProvider({ apiKey, baseUrl: s.url }).chatModel().stream(chatRequest));
    assert.equal(textOf(parts), 'Three quarters.');
    assert.deepEqual(finishOf(parts).usage, { inputTokens: 12, outputTokens: 34 });
  });

  it('maps SAFETY and a blocked prompt to content-filter', async () => {
    const s = await serve((_, index) => ({
      headers: sse,
      chunks: [
        index === 0
          ? event({ candidates: [{ content: { parts: [{ text: 'I' }], role: 'model' }, finishReason: 'SAFETY', index: 0 }] })
          : event({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 } }),
      ],
    }));
    const provider = createGoogleProvider({ apiKey, baseUrl: s.url });
    assert.equal(finishOf(await collect(provider.chatModel().stream(chatRequest))).finishReason, 'content-filter');
    const blocked = finishOf(await collect(provider.chatModel().stream(chatRequest)));
    assert.equal(blocked.finishReason, 'content-filter');
    assert.deepEqual(blocked.usage, { inputTokens: 9, outputTokens: 0 });
  });

  it('surfaces an error object inside the stream', async () => {
    const s = await serve([
      {
        headers: sse,
        chunks: [
          event({ candidates: [{ content: { parts: [{ text: 'Hi' }], role: 'model' }, index: 0 }] }),
          event({ error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } }),
        ],
      },
    ]);
    const parts = await collect(createGoogleProvider({ apiKey, baseUrl: s.url }).chatModel().stream(chatRequest));
    assert.equal(textOf(parts), 'Hi');
    assert.equal(errorOf(parts).message, 'google: stream error INTERNAL: Internal error encountered.');
  });

  it('names the google.rpc status of an HTTP error', async () => {
    const s = await serve([{ status: 400, headers: { 'content-type': 'application/json' }, chunks: [readFixture('google', 'invalid-key-400.body.json')] }]);
    const error = errorOf(await collect(createGoogleProvider({ apiKey, baseUrl: s.url }).chatModel().stream(chatRequest)));
    assert.equal(error.message, 'google: HTTP 400 INVALID_ARGUMENT: API key not valid. Please pass a valid API key.');
    assert.equal(error.isRetryable, false);
    assert.equal(s.requests.length, 1);
  });
});

describe('createGoogleProvider', () => {
  it('lists Gemini models with 1M-token context windows and is configured by a key', () => {
    const provider = createGoogleProvider({ apiKey });
    assert.equal(provider.id, 'google');
    assert.equal(provider.configured, true);
    assert.equal(provider.defaultModel, 'gemini-2.5-flash');
    for (const m of provider.models) assert.equal(m.contextWindow, 1_048_576);
    assert.equal(createGoogleProvider().configured, false);
  });

  it('without a key fails before any request', async () => {
    assert.match(errorOf(await collect(createGoogleProvider().chatModel().stream(chatRequest))).message, /no API key configured$/);
    const hinted = createGoogleProvider({ setupHint: 'set GOOGLE_API_KEY' });
    assert.match(errorOf(await collect(hinted.chatModel().stream(chatRequest))).message, /\(set GOOGLE_API_KEY\)/);
  });
});
