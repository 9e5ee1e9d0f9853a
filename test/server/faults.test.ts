/**
 * Faults at the vendor edge, through the real server: an AI or speech vendor that never answers,
 * resets mid-stream, rate-limits, fails with 500 or sends garbage. The vendors are local replay
 * servers speaking the recorded wire formats; the server is wired from environment variables the
 * way `npm start` wires it. Properties checked every time:
 *   - errors are structured `{error: {code, message}}`, `provider_error` / `unavailable`, with
 *     502 / 503 / 504 only — never `internal_error`, never another 5xx;
 *   - the user's message survives, and streamed partial text is stored as `interrupted`;
 *   - the rest of the server keeps serving while a vendor hangs.
 * The last test kills the real CLI process mid-reply and restarts it on the same data folder.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import type { AIProvider, AvatarService, SpeechProvider } from '../../core/index.js';
import {
  FsBlobStore,
  createAnthropicProvider,
  createAvatarService,
  createOpenAIProvider,
  createOpenAISpeechProvider,
  createSqliteStore,
} from '../../core/index.js';
import type { VendorHttpSettings } from '../../core/vendor-http/http-settings.js';
import { idsFor, loadConfig, providerOptionsFor, startServer } from '../../server/index.js';
import { makeMp3 } from '../core/speech/vendor-speech-conformance.js';
import { repoRoot } from '../support/repo-root.js';
import { splitBytes, startReplayServer } from '../support/replay-server.js';
import type { RecordedRequest, ReplayResponse, ReplayServer } from '../support/replay-server.js';
import { readSse } from '../support/sse-client.js';
import type { SseEvent } from '../support/sse-client.js';
import { freePort, killCli, startCli, until } from '../support/processes.js';
import type { Cli } from '../support/processes.js';

// ---------------------------------------------------------------------------------------------
// Vendor wire formats (recorded fixtures, and replies built in the same shape)

const fixture = (path: string): string => readFileSync(join(repoRoot, 'test/core', path), 'utf8');

/** SSE events of a recorded stream, each with its blank-line terminator. */
const sseEvents = (stream: string): string[] => stream.split('\n\n').filter((e) => e.trim()).map((e) => `${e}\n\n`);

const OPENAI_STREAM = fixture('providers/openai/__fixtures__/streamed.chunks.txt');
const OPENAI_429 = fixture('providers/openai/__fixtures__/rate-limit-429.body.json');
const OPENAI_500 = fixture('providers/openai/__fixtures__/server-error-500.body.json');
const ANTHROPIC_STREAM = fixture('providers/anthropic/__fixtures__/streamed.chunks.txt');
const ANTHROPIC_500 = fixture('providers/anthropic/__fixtures__/server-error-500.body.json');

function openaiText(events: readonly string[]): string {
  let text = '';
  for (const event of events) {
    const data = /^data: (.*)$/m.exec(event)?.[1];
    if (!data || data === '[DONE]') continue;
    text += (JSON.parse(data) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content ?? '';
  }
  return text;
}

function anthropicText(events: readonly string[]): string {
  let text = '';
  for (const event of events) {
    const data = /^data: (.*)$/m.exec(event)?.[1];
    const parsed = data ? (JSON.parse(data) as { type: string; delta?: { text?: string } }) : undefined;
    if (parsed?.type === 'content_block_delta') text += parsed.delta?.text ?? '';
  }
  return text;
}

const OPENAI_EVENTS = sseEvents(OPENAI_STREAM);
const OPENAI_REPLY = openaiText(OPENAI_EVENTS);
const ANTHROPIC_EVENTS = sseEvents(ANTHROPIC_STREAM);
const ANTHROPIC_REPLY = anthropicText(ANTHROPIC_EVENTS);
const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'x-request-id': 'req_fault' };
const JSON_HEADERS = { 'content-type': 'application/json', 'x-request-id': 'req_fault' };

/** OpenAI chunks streaming `pieces` one per event, then the finish, usage and `[DONE]` events. */
function openaiChunks(pieces: readonly string[]): string[] {
  const base = { id: 'chatcmpl-fault', object: 'chat.completion.chunk', created: 1741570283, model: 'gpt-4o-mini-2024-07-18' };
  const event = (body: object) => `data: ${JSON.stringify({ ...base, ...body })}\n\n`;
  return [
    ...pieces.map((content) => event({ choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: null }], usage: null })),
    event({ choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }], usage: null }),
    event({ choices: [], usage: { prompt_tokens: 50, completion_tokens: pieces.length, total_tokens: 50 + pieces.length } }),
    'data: [DONE]\n\n',
  ];
}

const openaiOk = (): ReplayResponse => ({ headers: SSE_HEADERS, chunks: splitBytes(OPENAI_STREAM, [97, 13, 401]) });
const anthropicOk = (): ReplayResponse => ({ headers: { 'content-type': 'text/event-stream', 'request-id': 'req_fault' }, chunks: ANTHROPIC_EVENTS });

// ---------------------------------------------------------------------------------------------
// The server under test

/**
 * Vendor HTTP settings for the test: the production retry count (2) and Retry-After cap (60 s),
 * shorter timeouts and backoff. No environment variable sets these (`npm start` always uses 10 s
 * to the headers, 30 s of silence), so the vendors are rebuilt with the configured keys and URLs
 * plus these settings; everything else comes from `providerOptionsFor(config)` as in production.
 */
const CONNECT_MS = 700;
const FAST_HTTP: VendorHttpSettings = { timeouts: { connectMs: CONNECT_MS, idleMs: CONNECT_MS }, backoff: { initialMs: 20, maxMs: 40 } };

type VendorRoute = 'chat' | 'speech' | 'anthropic';

interface Vendor {
  url: string;
  /** Requests per route since the last `program`. */
  seen: Record<VendorRoute, RecordedRequest[]>;
  /** Answers the n-th request of a route with `list[n]` (the last entry repeats). */
  program(scripts: Partial<Record<VendorRoute, ReplayResponse[]>>): void;
  close(): Promise<void>;
}

async function startVendor(defaults: Record<VendorRoute, ReplayResponse[]>): Promise<Vendor> {
  let scripts = { ...defaults };
  const seen: Record<VendorRoute, RecordedRequest[]> = { chat: [], speech: [], anthropic: [] };
  const replay: ReplayServer = await startReplayServer((request) => {
    const path = request.url.split('?')[0]!;
    const route: VendorRoute | undefined = path.endsWith('/chat/completions')
      ? 'chat'
      : path.endsWith('/audio/speech')
        ? 'speech'
        : path.endsWith('/v1/messages')
          ? 'anthropic'
          : undefined;
    if (!route) return { status: 404, headers: JSON_HEADERS, chunks: ['{"error":{"message":"no such route"}}'] };
    const n = seen[route].push(request) - 1;
    const list = scripts[route];
    return list[Math.min(n, list.length - 1)]!;
  });
  return {
    url: replay.url,
    seen,
    program(next) {
      scripts = { ...defaults, ...next };
      for (const route of Object.keys(seen) as VendorRoute[]) seen[route] = [];
    },
    close: () => replay.close(),
  };
}

interface FaultServer {
  /** `PUBLIC_URL`, where the server listens. */
  url: string;
  key: string;
  service: AvatarService;
  /** What the app logged as unexpected (it logs every 500 it answers). */
  unexpected: string[];
  fallbacks: { kind: string; failed: string; next: string }[];
  request(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

async function startFaultServer(env: Record<string, string>): Promise<FaultServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'avatar-faults-'));
  const port = await freePort();
  const config = loadConfig({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DEV_BOOTSTRAP: 'false', ACCESS_LOG: 'false', ...env });
  const providers = providerOptionsFor(config);
  const v = config.vendors;
  const aiProviders: AIProvider[] = providers.aiProviders.map((p) => {
    if (p.id === 'openai' && p.configured) return createOpenAIProvider({ apiKey: v.OPENAI_API_KEY!, baseUrl: v.OPENAI_BASE_URL!, http: FAST_HTTP });
    if (p.id === 'anthropic' && p.configured) return createAnthropicProvider({ apiKey: v.ANTHROPIC_API_KEY!, baseUrl: v.ANTHROPIC_BASE_URL!, http: FAST_HTTP });
    return p;
  });
  const speechProviders: SpeechProvider[] = providers.speechProviders.map((p) =>
    p.id === 'openai' && v.OPENAI_API_KEY ? createOpenAISpeechProvider({ apiKey: v.OPENAI_API_KEY, ...(v.OPENAI_BASE_URL && { baseUrl: v.OPENAI_BASE_URL }), http: FAST_HTTP }) : p,
  );
  const fallbacks: FaultServer['fallbacks'] = [];
  const service = createAvatarService({
    store: await createSqliteStore({ filename: join(dataDir, 'avatar.db') }),
    blobs: new FsBlobStore(join(dataDir, 'audio')),
    ids: idsFor(config),
    jwtSecret: config.jwtSecret,
    ...providers,
    aiProviders,
    speechProviders,
    onFallback: ({ kind, failed, next }) => fallbacks.push({ kind, failed, next }),
  });
  // The app logs what it answers with 500 (and unhandled errors) through console.error.
  const unexpected: string[] = [];
  const consoleError = console.error;
  console.error = (...args: unknown[]) => void unexpected.push(args.map(String).join(' '));
  // The production start-up path (HTTP server, realtime transports, connection limits), with this service.
  const running = await startServer(config, service);
  const account = await service.accounts.createAccount({ email: 'faults@example.com', password: 'password-faults', tier: 'pro' });
  const key = (await service.accounts.createApiKey(account.id, { name: 'faults', mode: 'test' })).key;
  const url = config.publicUrl;
  return {
    url,
    key,
    service,
    unexpected,
    fallbacks,
    request(path, init = {}) {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      headers.set('authorization', `Bearer ${key}`);
      if (json !== undefined) headers.set('content-type', 'application/json');
      return fetch(url + path, { ...rest, headers, ...(json !== undefined && { body: JSON.stringify(json) }) });
    },
    async close() {
      await running.close();
      console.error = consoleError;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}


// ---------------------------------------------------------------------------------------------
// Client helpers and the properties every fault must keep

interface StoredMessage {
  id: string;
  role: string;
  content: string;
  status?: string;
  audio_url?: string | null;
  audio_error?: string;
}



async function conversation(t: FaultServer, body: Record<string, unknown>): Promise<string> {
  const res = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', ...body } });
  assert.equal(res.status, 201, await res.clone().text());
  return ((await res.json()) as { id: string }).id;
}

async function history(t: FaultServer, id: string): Promise<StoredMessage[]> {
  const res = await t.request(`/v1/conversations/${id}`);
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { messages: StoredMessage[] }).messages;
}

/** A structured vendor error: 502 `provider_error` (or 503 `unavailable` / 504), never a 500. */
async function expectVendorError(res: Response, message?: RegExp): Promise<{ code: string; message: string }> {
  const text = await res.text();
  assert.ok([502, 503, 504].includes(res.status), `status ${res.status}: ${text}`);
  const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
  assert.equal(typeof body.error?.message, 'string', text);
  assert.ok(body.error!.code === 'provider_error' || body.error!.code === 'unavailable', text);
  if (message) assert.match(body.error!.message as string, message);
  return body.error as { code: string; message: string };
}

function expectErrorEvent(event: SseEvent | undefined, message?: RegExp): void {
  assert.equal(event?.event, 'error', JSON.stringify(event));
  const { error } = event!.data as { error: { code: string; message: string } };
  assert.ok(error.code === 'provider_error' || error.code === 'unavailable', JSON.stringify(error));
  assert.equal(typeof error.message, 'string');
  if (message) assert.match(error.message, message);
}

async function sendJson(t: FaultServer, id: string, content: string): Promise<Response> {
  return t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content } });
}

/** Sends with `stream: true`; a failure before the stream starts may still be a JSON error. */
async function sendSse(t: FaultServer, id: string, content: string): Promise<{ res: Response; events: SseEvent[]; text: string }> {
  const res = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content, stream: true } });
  if (!/^text\/event-stream/.test(res.headers.get('content-type') ?? '')) return { res, events: [], text: '' };
  assert.equal(res.status, 200);
  const events = await readSse(res);
  const text = events.filter((e) => e.event === 'message').map((e) => (e.data as { delta: string }).delta).join('');
  return { res, events, text };
}

/** The user's message is stored; so is the partial reply (interrupted) when text had streamed. */
async function expectSurvivors(t: FaultServer, id: string, userText: string, partial: string): Promise<void> {
  const messages = await history(t, id);
  assert.deepEqual(messages[0] && [messages[0].role, messages[0].content], ['user', userText]);
  if (partial === '') {
    assert.deepEqual(messages.map((m) => m.role), ['user'], 'no assistant message without text');
  } else {
    assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant']);
    assert.equal(messages[1]!.status, 'interrupted');
    assert.equal(messages[1]!.content, partial);
  }
}

/**
 * While a vendor call is pending: /v1/health and a reply on another conversation (local engine)
 * answer normally, and the pending call is still pending when they do.
 */
async function expectStillServing(t: FaultServer, pending: { settled: boolean }): Promise<void> {
  const other = await conversation(t, { ai_provider: 'local', tts_provider: 'browser' });
  const [health, reply] = await Promise.all([
    fetch(`${t.url}/v1/health`),
    sendJson(t, other, 'Hello there, how are you?'),
  ]);
  assert.equal(health.status, 200);
  assert.equal(((await health.json()) as { status: string }).status, 'ok');
  assert.equal(reply.status, 200, await reply.clone().text());
  assert.ok(((await reply.json()) as { content: string }).content.length > 0);
  assert.equal(pending.settled, false, 'the other requests were answered while the vendor still hung');
}

function track<T>(promise: Promise<T>): Promise<T> & { settled: boolean } {
  const tracked = promise.finally(() => (tracked.settled = true)) as Promise<T> & { settled: boolean };
  tracked.settled = false;
  return tracked;
}

// ---------------------------------------------------------------------------------------------

describe('Faults at the vendor edge, through the real server', () => {
  let vendor: Vendor;
  let t: FaultServer;
  let mp3: Uint8Array;
  const speechOk = (): ReplayResponse => ({ headers: { 'content-type': 'audio/mpeg', 'x-request-id': 'req_tts' }, chunks: [mp3.subarray(0, 300), mp3.subarray(300)] });

  before(async () => {
    mp3 = await makeMp3({ sampleRate: 24000, channels: 1, bitrateKbps: 64 });
    vendor = await startVendor({ chat: [openaiOk()], speech: [speechOk()], anthropic: [anthropicOk()] });
    t = await startFaultServer({
      OPENAI_API_KEY: 'sk-fault-test',
      OPENAI_BASE_URL: `${vendor.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-fault-test',
      ANTHROPIC_BASE_URL: vendor.url,
      DEFAULT_AI_PROVIDER: 'openai',
    });
  });
  after(async () => {
    await t?.close();
    await vendor?.close();
  });
  afterEach(() => {
    assert.deepEqual(t.unexpected.splice(0), [], 'the app logged unexpected errors (500 internal_error)');
  });

  const aiConversation = (provider = 'openai') => conversation(t, { ai_provider: provider, tts_provider: 'browser' });
  const speechConversation = () => conversation(t, { ai_provider: 'local', tts_provider: 'openai' });

  it('sanity: the replayed vendors answer normally (OpenAI, Anthropic, OpenAI speech)', async () => {
    vendor.program({});
    const id = await aiConversation();
    const res = await sendJson(t, id, 'Hi');
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(((await res.json()) as { content: string }).content, OPENAI_REPLY);
    const claude = await aiConversation('anthropic');
    const res2 = await sendJson(t, claude, 'Hi');
    assert.equal(res2.status, 200, await res2.clone().text());
    assert.equal(((await res2.json()) as { content: string }).content, ANTHROPIC_REPLY);
    const spoken = await speechConversation();
    const res3 = await sendJson(t, spoken, 'Hello!');
    const reply = (await res3.json()) as StoredMessage;
    assert.equal(res3.status, 200);
    assert.ok(reply.audio_url, JSON.stringify(reply));
  });

  describe('AI vendor (OpenAI wire format)', () => {
    it('hang before headers, REST: 502 after the connect timeout and retries; health and other conversations keep answering', async () => {
      vendor.program({ chat: [{ fault: 'headers' }] });
      const id = await aiConversation();
      const started = Date.now();
      const pending = track(sendJson(t, id, 'are you there?'));
      await until(() => vendor.seen.chat.length >= 1, 'the request reaching the vendor');
      await expectStillServing(t, pending);
      await expectVendorError(await pending, /connect timeout/);
      assert.equal(vendor.seen.chat.length, 3, 'two retries');
      assert.ok(Date.now() - started >= 3 * CONNECT_MS, 'the timeout ran');
      await expectSurvivors(t, id, 'are you there?', '');
    });

    it('hang before headers, SSE: an error event (or a JSON 502), user message kept, health answers meanwhile', async () => {
      vendor.program({ chat: [{ fault: 'headers' }] });
      const id = await aiConversation();
      const pending = track(sendSse(t, id, 'stream to me'));
      await until(() => vendor.seen.chat.length >= 1, 'the request reaching the vendor');
      await expectStillServing(t, pending);
      const { res, events, text } = await pending;
      if (events.length === 0) await expectVendorError(res, /connect timeout/);
      else expectErrorEvent(events.at(-1), /connect timeout/);
      assert.equal(text, '');
      await expectSurvivors(t, id, 'stream to me', '');
    });

    it('reset mid-stream, SSE: the streamed deltas, then an error event; the partial reply is stored as interrupted', async () => {
      const sent = OPENAI_EVENTS.slice(0, 6);
      vendor.program({ chat: [{ headers: SSE_HEADERS, chunks: sent, fault: 'reset' }] });
      const id = await aiConversation();
      const { events, text } = await sendSse(t, id, 'tell me something');
      assert.equal(text, openaiText(sent));
      assert.ok(text.length > 0);
      expectErrorEvent(events.at(-1), /connection lost|reset|terminated/i);
      assert.equal(vendor.seen.chat.length, 1, 'no retry after text has streamed');
      await expectSurvivors(t, id, 'tell me something', text);
    });

    it('reset mid-stream, REST: 502 provider_error; the partial reply is stored as interrupted', async () => {
      const sent = OPENAI_EVENTS.slice(0, 6);
      vendor.program({ chat: [{ headers: SSE_HEADERS, chunks: sent, fault: 'reset' }] });
      const id = await aiConversation();
      await expectVendorError(await sendJson(t, id, 'tell me more'));
      await expectSurvivors(t, id, 'tell me more', openaiText(sent));
    });

    it('429 with Retry-After: 1 is waited for, then the retry answers', async () => {
      vendor.program({ chat: [{ status: 429, headers: { ...JSON_HEADERS, 'retry-after': '1' }, chunks: [OPENAI_429] }, openaiOk()] });
      const id = await aiConversation();
      const started = Date.now();
      const res = await sendJson(t, id, 'busy?');
      assert.equal(res.status, 200, await res.clone().text());
      assert.equal(((await res.json()) as { content: string }).content, OPENAI_REPLY);
      assert.equal(vendor.seen.chat.length, 2);
      assert.ok(Date.now() - started >= 1000, `waited ${Date.now() - started} ms, Retry-After said 1 s`);
    });

    it('429 with a Retry-After beyond the 60 s cap: 502 at once naming the rate limit, user message kept', async () => {
      vendor.program({ chat: [{ status: 429, headers: { ...JSON_HEADERS, 'retry-after': '120' }, chunks: [OPENAI_429] }] });
      const id = await aiConversation();
      const started = Date.now();
      await expectVendorError(await sendJson(t, id, 'still busy?'), /HTTP 429 .*Rate limit reached/);
      assert.ok(Date.now() - started < 5000, 'not waited for');
      assert.equal(vendor.seen.chat.length, 1);
      await expectSurvivors(t, id, 'still busy?', '');
    });

    it('500 on every attempt: 502 quoting the vendor after 3 attempts, user message kept', async () => {
      vendor.program({ chat: [{ status: 500, headers: JSON_HEADERS, chunks: [OPENAI_500] }] });
      const id = await aiConversation();
      await expectVendorError(await sendJson(t, id, 'hello?'), /HTTP 500 server_error: The server had an error.*\(request id req_fault\)/);
      assert.equal(vendor.seen.chat.length, 3);
      await expectSurvivors(t, id, 'hello?', '');
    });

    it('garbage: a non-JSON, non-SSE body with 200 is a 502, user message kept', async () => {
      vendor.program({ chat: [{ status: 200, headers: { 'content-type': 'text/html' }, chunks: ['<html><body>Bad gateway, try later</body></html>'] }] });
      const id = await aiConversation();
      await expectVendorError(await sendJson(t, id, 'html?'));
      await expectSurvivors(t, id, 'html?', '');
    });

    it('garbage: malformed data: lines mid-stream end the SSE reply with an error event; the partial text is kept', async () => {
      const good = OPENAI_EVENTS.slice(0, 5);
      vendor.program({ chat: [{ headers: SSE_HEADERS, chunks: [...good, 'data: {"choices":[{"delta":{"content":\n\n', 'data: <<<garbage>>>\n\n', ...OPENAI_EVENTS.slice(5)] }] });
      const id = await aiConversation();
      const { events, text } = await sendSse(t, id, 'garbled');
      assert.equal(text, openaiText(good));
      expectErrorEvent(events.at(-1), /malformed|not JSON/i);
      await expectSurvivors(t, id, 'garbled', text);
    });

    it('garbage: a malformed data: line before any text is a 502 (JSON), user message kept', async () => {
      vendor.program({ chat: [{ headers: SSE_HEADERS, chunks: ['data: {not json at all\n\n', ...OPENAI_EVENTS] }] });
      const id = await aiConversation();
      await expectVendorError(await sendJson(t, id, 'garbled early'), /malformed|not JSON/i);
      await expectSurvivors(t, id, 'garbled early', '');
    });

    it('realtime (WebSocket): a reset mid-stream sends an error frame after the deltas, back to idle, partial stored', async () => {
      const sent = OPENAI_EVENTS.slice(0, 6);
      vendor.program({ chat: [{ headers: SSE_HEADERS, chunks: sent, fault: 'reset' }] });
      const id = await aiConversation();
      const ws = new WebSocket(`${t.url.replace('http', 'ws')}/v1/conversations/${id}/ws`, { headers: { authorization: `Bearer ${t.key}` } });
      try {
        const frames: { type: string; data: { delta?: string; state?: string; error?: { code: string; message: string } } }[] = [];
        ws.on('message', (raw) => frames.push(JSON.parse(raw.toString()) as (typeof frames)[number]));
        await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
        ws.send(JSON.stringify({ type: 'message', data: { content: 'over the socket' } }));
        await until(() => frames.some((f) => f.type === 'state' && f.data.state === 'idle'), 'idle');
        const text = frames.filter((f) => f.type === 'message').map((f) => f.data.delta).join('');
        assert.equal(text, openaiText(sent));
        const error = frames.find((f) => f.type === 'error');
        assert.ok(error?.data.error, JSON.stringify(frames));
        assert.equal(error.data.error.code, 'provider_error');
        assert.ok(!frames.some((f) => f.type === 'done'));
        await expectSurvivors(t, id, 'over the socket', text);
      } finally {
        ws.terminate();
      }
    });

    it('realtime (WebSocket): a hang sends an error frame; health and another conversation answer meanwhile', async () => {
      vendor.program({ chat: [{ fault: 'headers' }] });
      const id = await aiConversation();
      const ws = new WebSocket(`${t.url.replace('http', 'ws')}/v1/conversations/${id}/ws`, { headers: { authorization: `Bearer ${t.key}` } });
      try {
        const frames: { type: string; data: { state?: string; error?: { code: string; message: string } } }[] = [];
        ws.on('message', (raw) => frames.push(JSON.parse(raw.toString()) as (typeof frames)[number]));
        await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
        ws.send(JSON.stringify({ type: 'message', data: { content: 'hello socket' } }));
        await until(() => vendor.seen.chat.length >= 1, 'the request reaching the vendor');
        const idle = () => frames.some((f) => f.type === 'state' && f.data.state === 'idle');
        await expectStillServing(t, { get settled() { return idle(); } });
        await until(idle, 'idle');
        const error = frames.find((f) => f.type === 'error');
        assert.equal(error?.data.error?.code, 'provider_error', JSON.stringify(frames));
        assert.match(error!.data.error!.message, /connect timeout/);
        await expectSurvivors(t, id, 'hello socket', '');
      } finally {
        ws.terminate();
      }
    });
  });

  describe('AI vendor (Anthropic wire format)', () => {
    it('500 on every attempt: 502 quoting Anthropic, user message kept', async () => {
      vendor.program({ anthropic: [{ status: 500, headers: { ...JSON_HEADERS, 'request-id': 'req_011CSHoEeqs5C35K2UUqR7Fz' }, chunks: [ANTHROPIC_500] }] });
      const id = await aiConversation('anthropic');
      await expectVendorError(await sendJson(t, id, 'claude?'), /anthropic: HTTP 500 api_error: Internal server error/);
      assert.equal(vendor.seen.anthropic.length, 3);
      await expectSurvivors(t, id, 'claude?', '');
    });

    it('reset mid-stream, SSE: deltas, then an error event; partial stored as interrupted', async () => {
      const sent = ANTHROPIC_EVENTS.slice(0, 9);
      vendor.program({ anthropic: [{ headers: { 'content-type': 'text/event-stream' }, chunks: sent, fault: 'reset' }] });
      const id = await aiConversation('anthropic');
      const { events, text } = await sendSse(t, id, 'claude, talk');
      assert.equal(text, anthropicText(sent));
      assert.ok(text.length > 0);
      expectErrorEvent(events.at(-1));
      await expectSurvivors(t, id, 'claude, talk', text);
    });

    it('hang before headers: 502 after the timeout, health answers meanwhile', async () => {
      vendor.program({ anthropic: [{ fault: 'headers' }] });
      const id = await aiConversation('anthropic');
      const pending = track(sendJson(t, id, 'claude, hello?'));
      await until(() => vendor.seen.anthropic.length >= 1, 'the request reaching the vendor');
      await expectStillServing(t, pending);
      await expectVendorError(await pending, /connect timeout/);
      await expectSurvivors(t, id, 'claude, hello?', '');
    });
  });

  describe('Speech vendor (OpenAI speech): the text is delivered and stored, audio_error explains', () => {
    async function expectTextWithoutAudio(id: string, userText: string, res: Response, why: RegExp): Promise<void> {
      assert.equal(res.status, 200, await res.clone().text());
      const reply = (await res.json()) as StoredMessage;
      assert.ok(reply.content.length > 0);
      assert.equal(reply.audio_url, null);
      assert.match(reply.audio_error ?? '', why);
      const messages = await history(t, id);
      assert.deepEqual(messages.map((m) => [m.role, m.content]), [['user', userText], ['assistant', reply.content]]);
      assert.equal(messages[1]!.status, 'complete');
      assert.equal(messages[1]!.audio_url, null);
      assert.equal(messages[1]!.audio_error, reply.audio_error);
    }

    it('hang: the reply text arrives with audio_error; health and other conversations answer meanwhile', async () => {
      vendor.program({ speech: [{ fault: 'headers' }] });
      const id = await speechConversation();
      const pending = track(sendJson(t, id, 'Hello there!'));
      await until(() => vendor.seen.speech.length >= 1, 'the request reaching the speech vendor');
      await expectStillServing(t, pending);
      await expectTextWithoutAudio(id, 'Hello there!', await pending, /openai speech failed: .*connect timeout/);
    });

    it('reset mid-body: text with audio_error', async () => {
      vendor.program({ speech: [{ headers: { 'content-type': 'audio/mpeg' }, chunks: [mp3.subarray(0, 200)], fault: 'reset' }] });
      const id = await speechConversation();
      await expectTextWithoutAudio(id, 'Hello there!', await sendJson(t, id, 'Hello there!'), /openai speech failed/);
    });

    it('429 (Retry-After beyond the cap): text with audio_error naming the rate limit', async () => {
      vendor.program({ speech: [{ status: 429, headers: { ...JSON_HEADERS, 'retry-after': '120' }, chunks: [OPENAI_429] }] });
      const id = await speechConversation();
      await expectTextWithoutAudio(id, 'Hello there!', await sendJson(t, id, 'Hello there!'), /openai speech failed: .*HTTP 429/);
    });

    it('500: text with audio_error quoting the vendor', async () => {
      vendor.program({ speech: [{ status: 500, headers: JSON_HEADERS, chunks: [OPENAI_500] }] });
      const id = await speechConversation();
      await expectTextWithoutAudio(id, 'Hello there!', await sendJson(t, id, 'Hello there!'), /openai speech failed: .*HTTP 500/);
    });

    it('garbage bytes instead of MP3: text with audio_error, nothing unplayable is served', async () => {
      const junk = new Uint8Array(4096).map((_, i) => (i * 7919 + 13) % 251);
      vendor.program({ speech: [{ headers: { 'content-type': 'audio/mpeg' }, chunks: [junk] }] });
      const id = await speechConversation();
      await expectTextWithoutAudio(id, 'Hello there!', await sendJson(t, id, 'Hello there!'), /openai speech failed/);
    });

    it('500 over SSE: the deltas and done arrive, no audio events; stored with audio_error', async () => {
      vendor.program({ speech: [{ status: 500, headers: JSON_HEADERS, chunks: [OPENAI_500] }] });
      const id = await speechConversation();
      const { events, text } = await sendSse(t, id, 'Hello there!');
      assert.ok(text.length > 0);
      assert.equal(events.at(-1)?.event, 'done', JSON.stringify(events.at(-1)));
      assert.ok(!events.some((e) => e.event === 'audio'));
      const messages = await history(t, id);
      assert.equal(messages[1]?.content, text);
      assert.match(messages[1]?.audio_error ?? '', /openai speech failed: .*HTTP 500/);
    });
  });
});

describe('Fallback: AI_FALLBACK=local and TTS_FALLBACK=local replace a failing vendor', () => {
  let vendor: Vendor;
  let t: FaultServer;
  before(async () => {
    vendor = await startVendor({ chat: [{ status: 500, headers: JSON_HEADERS, chunks: [OPENAI_500] }], speech: [{ status: 500, headers: JSON_HEADERS, chunks: [OPENAI_500] }], anthropic: [anthropicOk()] });
    t = await startFaultServer({
      OPENAI_API_KEY: 'sk-fault-test',
      OPENAI_BASE_URL: `${vendor.url}/v1`,
      DEFAULT_AI_PROVIDER: 'openai',
      AI_FALLBACK: 'local',
      TTS_FALLBACK: 'local',
    });
  });
  after(async () => {
    await t?.close();
    await vendor?.close();
  });
  afterEach(() => {
    assert.deepEqual(t.unexpected.splice(0), [], 'the app logged unexpected errors (500 internal_error)');
  });

  it('OpenAI 500 on every attempt: the local engine answers (REST 200), the operator is told', async () => {
    vendor.program({});
    const id = await conversation(t, { tts_provider: 'browser' });
    const res = await sendJson(t, id, 'Hello, who answers?');
    assert.equal(res.status, 200, await res.clone().text());
    const reply = (await res.json()) as StoredMessage;
    assert.ok(reply.content.length > 0);
    assert.ok(vendor.seen.chat.length >= 1, 'OpenAI was tried first');
    assert.ok(t.fallbacks.some((f) => f.kind === 'ai' && f.failed === 'openai' && f.next === 'local'), JSON.stringify(t.fallbacks));
    const messages = await history(t, id);
    assert.deepEqual(messages.map((m) => [m.role, m.status ?? '-']), [['user', '-'], ['assistant', 'complete']]);
  });

  it('OpenAI hangs: the local engine answers over SSE after the timeout', async () => {
    vendor.program({ chat: [{ fault: 'headers' }] });
    const id = await conversation(t, { tts_provider: 'browser' });
    const { events, text } = await sendSse(t, id, 'Hello?');
    assert.equal(events.at(-1)?.event, 'done', JSON.stringify(events.at(-1)));
    assert.ok(text.length > 0);
    assert.ok(vendor.seen.chat.length >= 1);
  });

  it('OpenAI speech 500: local speech takes over, the reply has audio', async () => {
    vendor.program({ chat: [openaiOk()] });
    const id = await conversation(t, { tts_provider: 'openai' });
    const res = await sendJson(t, id, 'Say something');
    assert.equal(res.status, 200, await res.clone().text());
    const reply = (await res.json()) as StoredMessage;
    assert.equal(reply.content, OPENAI_REPLY);
    assert.ok(vendor.seen.speech.length >= 1, 'OpenAI speech was tried first');
    assert.ok(reply.audio_url, JSON.stringify(reply));
    assert.equal(reply.audio_error, undefined);
    const audio = await fetch(reply.audio_url);
    assert.equal(audio.status, 200);
    assert.ok((await audio.arrayBuffer()).byteLength > 0);
  });
});

// ---------------------------------------------------------------------------------------------
// Process level: the real CLI killed mid-reply and restarted on the same data folder

describe('Process level: SIGKILL mid-reply, restart on the same DATA_DIR', () => {
  const sentences = Array.from({ length: 60 }, (_, i) => `Part ${i + 1} of the long story is told here.`);
  const LONG_REPLY = sentences.join(' ');
  const words = LONG_REPLY.match(/\S+\s*/g)!;
  let vendor: Vendor;
  let dataDir: string;
  const clis: Cli[] = [];

  before(async () => {
    const mp3 = await makeMp3({ sampleRate: 24000, channels: 1, bitrateKbps: 64 });
    vendor = await startVendor({
      // One word every 100 ms: about 50 s for the whole reply, so the kill lands mid-stream.
      chat: [{ headers: SSE_HEADERS, chunks: openaiChunks(words), chunkDelayMs: 100 }],
      speech: [{ headers: { 'content-type': 'audio/mpeg' }, chunks: [mp3] }],
      anthropic: [anthropicOk()],
    });
    dataDir = await mkdtemp(join(tmpdir(), 'avatar-crash-'));
  });
  after(async () => {
    for (const cli of clis) await killCli(cli);
    await vendor?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps the user message, recovers the partial reply as interrupted, accepts new messages, leaves no served clips after delete', async (ctx) => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEV_BOOTSTRAP: 'true',
      ACCESS_LOG: 'false',
      OPENAI_API_KEY: 'x',
      OPENAI_BASE_URL: `${vendor.url}/v1`,
      DEFAULT_AI_PROVIDER: 'openai',
    };
    const first = await startCli(env);
    clis.push(first);
    const key = /API key: (svc_test_[0-9A-Za-z]+)/.exec(first.output())?.[1];
    assert.ok(key, `no demo key printed:\n${first.output()}`);
    const api = (path: string, init: RequestInit & { json?: unknown } = {}) => {
      const { json, ...rest } = init;
      return fetch(base + path, {
        ...rest,
        headers: { authorization: `Bearer ${key}`, ...(json !== undefined && { 'content-type': 'application/json' }) },
        ...(json !== undefined && { body: JSON.stringify(json) }),
      });
    };

    const created = await api('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } });
    assert.equal(created.status, 201, await created.clone().text());
    const { id, config } = (await created.json()) as { id: string; config: Record<string, string> };
    assert.equal(config.ai_provider, 'openai');
    assert.equal(config.tts_provider, 'openai');

    const userText = 'Tell me the long story, please.';
    const res = await api(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: userText, stream: true } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    let streamed = '';
    const audioUrls: string[] = [];
    let ended = false;
    const reading = readSse(res, (event) => {
      if (event.event === 'message') streamed += (event.data as { delta: string }).delta;
      if (event.event === 'audio') audioUrls.push((event.data as { url: string }).url);
    })
      .catch(() => undefined)
      .finally(() => (ended = true));
    await until(() => ended || (audioUrls.length >= 2 && streamed.length >= 120), 'some text and two clips', 15_000);
    assert.ok(!ended, `the stream ended before the crash: ${streamed}`);
    const clipBeforeCrash = (await fetch(audioUrls[0]!)).status;

    await killCli(first);
    await reading;
    const second = await startCli(env);
    clis.push(second);
    vendor.program({ chat: [openaiOk()], speech: [{ headers: { 'content-type': 'audio/mpeg' }, chunks: [await makeMp3({ sampleRate: 24000, channels: 1, bitrateKbps: 64 })] }] });

    // Everything is observed first, then asserted, so one run reports every gap.
    const observed: Record<string, unknown> = { streamedChars: streamed.length, audioUrls: audioUrls.length, clipBeforeCrash };
    const afterRestart = await api(`/v1/conversations/${id}`);
    observed.getStatus = afterRestart.status;
    const messages = afterRestart.status === 200 ? ((await afterRestart.json()) as { messages: StoredMessage[] }).messages : [];
    observed.messages = messages.map((m) => ({ role: m.role, status: m.status, chars: m.content.length, audio_url: m.audio_url, audio_error: m.audio_error }));
    const next = await api(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'Are you back?' } });
    observed.newMessage = { status: next.status, body: (await next.text()).slice(0, 300) };
    const deleted = await api(`/v1/conversations/${id}`, { method: 'DELETE' });
    observed.deleteStatus = deleted.status;
    observed.clipsAfterDelete = await Promise.all(audioUrls.map(async (url) => (await fetch(url)).status));
    ctx.diagnostic(`observed: ${JSON.stringify(observed)}`);

    const problems: string[] = [];
    if (clipBeforeCrash !== 200) problems.push(`a clip was not served before the crash (${clipBeforeCrash})`);
    if (afterRestart.status !== 200) problems.push(`GET conversation after restart: ${afterRestart.status}`);
    if (messages[0]?.role !== 'user' || messages[0]?.content !== userText) problems.push('the user message is missing after the restart');
    const recovered = messages.find((m) => m.role === 'assistant');
    if (!recovered) problems.push('no assistant row: the partial reply was lost');
    else {
      if (recovered.status !== 'interrupted') problems.push(`the recovered reply has status ${recovered.status}, expected interrupted`);
      if (recovered.content.length === 0 || !LONG_REPLY.startsWith(recovered.content)) problems.push(`the recovered text is not a non-empty prefix of the reply: ${JSON.stringify(recovered.content.slice(0, 80))}`);
      if (recovered.content.length > streamed.length + 200) problems.push('the recovered text is far longer than what had streamed');
    }
    if (next.status !== 200) problems.push(`a new message after the restart answered ${next.status}`);
    if (deleted.status !== 200) problems.push(`DELETE answered ${deleted.status}`);
    const served = (observed.clipsAfterDelete as number[]).filter((status) => status !== 404).length;
    if (served > 0) problems.push(`${served} of ${audioUrls.length} clips of the cut-off reply are still served after the conversation was deleted`);
    assert.deepEqual(problems, [], JSON.stringify(observed));
  });
});
