import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import * as fc from 'fast-check';
import { io as connectSocketIo } from 'socket.io-client';
import WebSocket from 'ws';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';
import {
  HOSTILE_CREDENTIALS,
  PROTOTYPE_NAMES,
  REF_PATTERN,
  VALID_CREDENTIALS,
  abbreviate,
  bodyArb,
  bodyText,
  classifyFrame,
  contentKind,
  contentTypeArb,
  credentialArb,
  describedAs,
  encodeSegment,
  errorShapeViolation,
  garbageSegment,
  goodText,
  hasBlankContent,
  hasNonStringContent,
  hostileFragment,
  judgeBody,
  judgeParam,
  judgeQuery,
  oddString,
  operationsOf,
  randomSecret,
  realtimeMessageViolation,
  ref,
  signJwt,
  signSession,
  socketIoStepArb,
  wsFrameArb,
} from '../support/fuzz-arbitraries.js';
import type {
  BodySpec,
  CredentialKind,
  Hints,
  OpenApiDocument,
  Operation,
  ParamSpec,
  Pool,
  SocketIoStep,
  Verdict,
  WsFrame,
} from '../support/fuzz-arbitraries.js';

/**
 * Property-based fuzzing of the whole API with fast-check, in both API styles: every operation of
 * the OpenAPI document the server serves, and every realtime message type (socket.io events with
 * and without acknowledgements, WebSocket frames, handshakes), with generated hostile input.
 *
 * Properties of every HTTP request:
 * 1. never a 5xx, never a connection dropped without an answer (bodies over the 1 MiB limit excepted);
 * 2. every status ≥ 400 carries the documented JSON error shape of the style;
 * 3. nothing is stored by a refused request: the conversations, messages and API keys of both
 *    accounts (read from the SQLite file) change only as the successful requests explain;
 * 4. account B's credentials never change or read account A's data (and no credential reaches the
 *    other mode's data);
 * plus: hostile credentials are refused with 401, requests that break the published contract
 * (schemas, patterns, content type, well-formed Unicode) are refused, the app logs no unexpected error.
 * Realtime: no `internal_error`, every acknowledged event is acknowledged, the connection stays
 * usable unless the client sent something the transport closes on, nothing refused is stored.
 *
 * Seeds vary per run; fast-check prints the seed and the shrunk counterexample of a failure.
 * `FUZZ_COLLECT=1` records every violation instead of failing, and prints them grouped at the end.
 */

type Style = 'flat' | 'envelope';
type Account = 'A' | 'B';

interface Principal {
  account: Account;
  mode: 'test' | 'live';
  type: 'key' | 'session' | 'jwt';
  conversation?: string;
}

interface ConvRow {
  account: string;
  mode: string;
  status: string;
  tts: string;
  user: number;
  assistant: number;
}

interface Snapshot {
  convs: Map<string, ConvRow>;
  keys: Map<string, { account: string; revoked: boolean }>;
  messages: number;
  accounts: number;
}

interface RequestSpec {
  op: Operation;
  method: string;
  params: Record<string, ParamSpec>;
  query: [string, ParamSpec][] | undefined;
  credential: CredentialKind;
  body: BodySpec | undefined;
  contentType: string;
  chunked: boolean;
  headers: [string, string][];
}

interface Prepared {
  spec: RequestSpec;
  method: string;
  url: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  bodyBytes: number;
  principal: Principal | null | undefined;
  /** Decoded path parameters (undefined when the segment is a raw, possibly broken, encoding). */
  pathValues: Record<string, string | undefined>;
  /** Resources the request names through pool references, and where (a page cursor in the query only orders a listing). */
  refs: { pool: Pool; id: string; in: 'path' | 'query' | 'body' }[];
  contract: Verdict;
  expectAuth: 'ok' | 'refused' | 'unknown';
}

interface Outcome {
  status?: number;
  contentType?: string | null;
  text?: string;
  error?: string;
}

interface Violation {
  /** Short and stable: what went wrong where, for grouping. */
  kind: string;
  /** A reproduction: request and observed answer. */
  detail: string;
}

const ONE_MIB = 1024 * 1024;
const REQUEST_TIMEOUT_MS = 20_000;
const COLLECT = process.env.FUZZ_COLLECT === '1';
const counts = { http: 0, realtime: 0, retried: 0, skipped: 0 };
const findings = new Map<string, { count: number; detail: string }>();
const json = (value: unknown) => JSON.stringify(value);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) return false;
    await sleep(5);
  }
  return true;
}

/** Fails the property with every violation, or (FUZZ_COLLECT=1) records them and lets the run go on. */
function report(style: Style, violations: Violation[]): void {
  if (violations.length === 0) return;
  if (COLLECT) {
    for (const v of violations) {
      const key = `[${style}] ${v.kind}`;
      const seen = findings.get(key);
      if (!seen) findings.set(key, { count: 1, detail: v.detail });
      else {
        seen.count++;
        if (v.detail.length < seen.detail.length) seen.detail = v.detail;
      }
    }
    return;
  }
  const unique = [...new Map(violations.map((v) => [v.kind, v])).values()];
  throw new Error(`${style} style: ${unique.length} violation(s)\n${unique.map((v) => `- ${v.kind}\n    ${v.detail.replace(/\n/g, '\n    ')}`).join('\n')}`);
}

/** FUZZ_SCALE scales every property's number of runs (e.g. 0.1 for a quick look). */
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);

function fuzzParameters<T>(numRuns: number): fc.Parameters<T> {
  return { numRuns: Math.max(1, Math.round(numRuns * SCALE)) };
}

/**
 * A time budget for one property, shrinking included: runs that start after it pass at once.
 * (fast-check's interruptAfterTimeLimit abandons a run still in flight, which would then go on
 * against the server while the next property runs.)
 */
function budgeted<T>(budgetMs: number, run: (value: T) => Promise<void>): (value: T) => Promise<void> {
  const deadline = Date.now() + budgetMs;
  return async (value) => {
    if (Date.now() > deadline) {
      counts.skipped++;
      return;
    }
    await run(value);
  };
}

function describeRequest(p: Prepared): string {
  const headers = Object.entries(p.headers)
    .map(([k, v]) => `${k}: ${abbreviate(v, 80)}`)
    .join('; ');
  return `${p.method} ${abbreviate(p.path, 200)} [${p.spec.credential}] {${headers}}${p.body !== undefined ? ` body ${abbreviate(p.body, 200)}` : ''}${p.spec.chunked ? ' (chunked)' : ''}`;
}

function describeOutcome(o: Outcome): string {
  return o.error ? `no answer: ${o.error}` : `${o.status} ${o.contentType ?? '(no content-type)'} ${abbreviate(o.text ?? '', 300)}`;
}

function describeSpec(spec: RequestSpec): string {
  const body = spec.body ? abbreviate(bodyText(spec.body), 160) : '-';
  const params = Object.entries(spec.params).map(([k, v]) => `${k}=${'ref' in v ? `<${v.ref}#${v.n}>` : 'text' in v ? abbreviate(v.text, 60) : `raw:${v.raw}`}`);
  const query = spec.query ? ` ?${spec.query.map(([k, v]) => `${abbreviate(k, 30)}=${'ref' in v ? `<${v.ref}>` : 'text' in v ? abbreviate(v.text, 40) : v.raw}`).join('&')}` : '';
  return `${spec.method} ${spec.op.template} ${params.join(' ')}${query} [${spec.credential}] ct=${spec.contentType}${spec.chunked ? ' chunked' : ''} ${spec.headers.map(([k, v]) => `${k}:${v}`).join(' ')} body=${body}`;
}

/** The error text of a failed fetch, down to the socket error. */
function fetchError(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  return `${e.message ?? String(error)}${e.cause ? ` (${e.cause.code ?? ''} ${e.cause.message ?? ''})` : ''}`;
}

/** The Authorization header for a kind of credential (undefined: none); `token` is its value. */
function httpAuthorization(kind: CredentialKind, token: string, keyA: string, keyB: string): string | undefined {
  switch (kind) {
    case 'none':
      return undefined;
    case 'no-scheme':
      return keyA;
    case 'basic':
      return `Basic ${Buffer.from('a@example.com:password-a').toString('base64')}`;
    case 'token-scheme':
      return `Token ${keyA}`;
    case 'bearer-empty':
      return 'Bearer';
    case 'two-tokens':
      return `Bearer ${keyA} ${keyB}`;
    case 'A-key-lowercase-scheme':
      return `bearer ${keyA}`;
    case 'A-key-extra-spaces':
      return `Bearer    ${keyA}`;
    default:
      return `Bearer ${token}`;
  }
}

// -------------------------------------------------------------------------------------------------
// A raw socket.io client (engine.io v4 over WebSocket), so malformed packets can be sent too.

class RawSocketIo {
  readonly events: { name: unknown; args: unknown[] }[] = [];
  readonly acks = new Map<number, unknown[]>();
  connectReply: { ok: true } | { ok: false; payload: unknown } | undefined;
  closed: { code: number; reason: string } | undefined;
  serverDisconnected = false;
  #nextAck = 1;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.#onFrame(data.toString()));
    ws.on('close', (code, reason) => (this.closed ??= { code, reason: reason.toString() }));
    ws.on('error', () => undefined);
  }

  static async open(baseUrl: string, headers: Record<string, string> = {}): Promise<RawSocketIo> {
    const ws = new WebSocket(`${baseUrl.replace('http', 'ws')}/v1/realtime/?EIO=4&transport=websocket`, { headers });
    const client = new RawSocketIo(ws);
    const opened = await new Promise<boolean>((resolve) => {
      ws.once('message', () => resolve(true));
      ws.once('close', () => resolve(false));
      ws.once('error', () => resolve(false));
    });
    if (!opened) client.closed ??= { code: 0, reason: 'engine.io handshake failed' };
    return client;
  }

  get open(): boolean {
    return this.closed === undefined && this.ws.readyState === WebSocket.OPEN;
  }

  nextAckId(): number {
    return this.#nextAck++;
  }

  /** A frame as text (an engine.io packet: `4` + a socket.io packet is a message). */
  sendRaw(text: string): void {
    if (this.open) this.ws.send(text);
  }

  async connect(authJson: string | undefined, timeoutMs = 5000): Promise<void> {
    this.sendRaw(`40${authJson ?? ''}`);
    await until(() => this.connectReply !== undefined || !this.open, timeoutMs);
  }

  close(): void {
    this.ws.terminate();
  }

  #onFrame(text: string): void {
    if (text === '2') return this.sendRaw('3');
    if (!text.startsWith('4')) return;
    const packet = text.slice(1);
    const parse = (s: string): unknown => {
      try {
        return JSON.parse(s);
      } catch {
        return s;
      }
    };
    if (packet.startsWith('0')) this.connectReply = { ok: true };
    else if (packet.startsWith('4')) this.connectReply = { ok: false, payload: parse(packet.slice(1)) };
    else if (packet.startsWith('1')) this.serverDisconnected = true;
    else if (packet.startsWith('2')) {
      const array = parse(packet.replace(/^2\d*/, ''));
      if (Array.isArray(array)) this.events.push({ name: array[0], args: array.slice(1) });
    } else if (packet.startsWith('3')) {
      const match = /^3(\d+)(.*)$/s.exec(packet);
      if (match) this.acks.set(Number(match[1]), parse(match[2]!) as unknown[]);
    }
  }
}

const RESERVED_SOCKET_IO_EVENTS = ['connect', 'connect_error', 'disconnect', 'disconnecting', 'newListener', 'removeListener'];

/** Whether socket.io may close the connection on a packet: not a well-formed event, or over its 64 KiB limit. */
function socketIoMayClose(text: string): boolean {
  if (Buffer.byteLength(text) > 64 * 1024) return true;
  const match = /^42\d*(.*)$/s.exec(text);
  if (!match) return true;
  try {
    const payload = JSON.parse(match[1]!) as unknown;
    return !Array.isArray(payload) || payload.length === 0 || typeof payload[0] !== 'string' || RESERVED_SOCKET_IO_EVENTS.includes(payload[0]);
  } catch {
    return true;
  }
}

function parseOrUndefined(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** What is wrong with a realtime error payload `{error: {code, message}}`, if anything. */
function wireErrorViolation(payload: unknown): string | undefined {
  const error = (payload as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (typeof error?.code !== 'string' || error.code === '') return `no error code in ${abbreviate(json(payload) ?? String(payload), 200)}`;
  if (typeof error.message !== 'string' || error.message === '') return `no error message in ${abbreviate(json(payload), 200)}`;
  if (error.code === 'internal_error' || error.code === 'INTERNAL_ERROR') return `internal_error: ${abbreviate(json(payload), 200)}`;
  return undefined;
}

// -------------------------------------------------------------------------------------------------
// The harness: one server per style, its fixtures, pools of ids, snapshots and the checks.

class Harness {
  t!: TestServer;
  db!: Database.Database;
  ops: Operation[] = [];
  readonly logged: string[] = [];
  readonly accountIds: Record<Account, string> = { A: '', B: '' };
  readonly tokens = new Map<string, string>();
  readonly pools: Record<Pool, string[]> = { aConv: [], aEnded: [], aLive: [], bConv: [], deleted: [], keyOwn: [], keyOtherInUse: [], keyOtherSpare: [], audio: [], dedicated: [] };
  readonly inUseKeys: Record<Account, string[]> = { A: [], B: [] };
  readonly spareKeys: Record<Account, string[]> = { A: [], B: [] };
  readonly sessions = new Map<string, string | null>();
  readonly info = { avatars: [] as string[], personas: [] as string[], verticals: [] as string[], models: [] as string[], voices: [] as string[] };
  hints: Hints = {};
  rateLimited = { key: '', accountId: '', limit: 10 };
  #convStatement!: Database.Statement;
  #keyStatement!: Database.Statement;

  constructor(readonly style: Style) {}

  unwrap<T>(body: unknown): T {
    return (this.style === 'envelope' ? (body as { data: T }).data : body) as T;
  }

  /** A request of the harness itself, retried when a pooled connection was closed under it. */
  async request(path: string, init: { method?: string; json?: unknown; auth?: string | null }): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.t.request(path, init);
      } catch (error) {
        if (attempt >= 3) throw error;
        await sleep(20);
      }
    }
  }

  async api<T>(path: string, init: { method?: string; json?: unknown; auth?: string | null } = {}): Promise<T> {
    const res = await this.request(path, init);
    const text = await res.text();
    assert.ok(res.status < 300, `fixture ${init.method ?? 'GET'} ${path} → ${res.status} ${text.slice(0, 300)}`);
    return this.unwrap<T>(JSON.parse(text));
  }

  async start(): Promise<void> {
    this.t = await startTestServer({
      env: { API_STYLE: this.style },
      log: (message, error) => this.logged.push(`${message} ${error instanceof Error ? (error.stack ?? '').split('\n').slice(0, 4).join(' | ') : String(error ?? '')}`),
    });
    const { service } = this.t;
    this.accountIds.A = this.t.accountId;
    this.accountIds.B = (await service.accounts.findAccountByEmail('b@example.com')).id;
    for (const id of Object.values(this.accountIds)) await service.accounts.setPlan(id, { tier: 'enterprise', requestsPerMinute: 1_000_000, connections: 1000 });
    this.db = new Database(join(this.t.dataDir, 'avatar.db'), { readonly: true, fileMustExist: true });
    this.#convStatement = this.db.prepare(`
      SELECT c.id, c.account_id, c.mode, c.status, c.tts_provider,
        (SELECT count(*) FROM messages m WHERE m.conversation_id = c.id AND m.role = 'user') AS user_count,
        (SELECT count(*) FROM messages m WHERE m.conversation_id = c.id AND m.role = 'assistant') AS assistant_count
      FROM conversations c ORDER BY c.created_at, c.id`);
    this.#keyStatement = this.db.prepare('SELECT id, account_id, revoked_at FROM api_keys ORDER BY created_at, id');

    // Credentials.
    const secret = this.t.config.jwtSecret;
    const now = Math.floor(Date.now() / 1000);
    const jwtA = (await service.accounts.issueToken(this.accountIds.A)).token;
    const jwtB = (await service.accounts.issueToken(this.accountIds.B)).token;
    this.tokens.set('A-key', this.t.key).set('A-live', this.t.liveKey).set('B-key', this.t.otherKey).set('A-jwt', jwtA).set('B-jwt', jwtB);

    // Keys: those in use are never revoked by the fuzzer; spare ones may be.
    for (const account of ['A', 'B'] as const) {
      const jwt = account === 'A' ? jwtA : jwtB;
      const listed = await this.api<{ api_keys?: { id: string }[]; apiKeys?: { id: string }[] }>('/v1/api-keys', { auth: jwt });
      this.inUseKeys[account] = (listed.api_keys ?? listed.apiKeys ?? []).map((k) => k.id);
      for (let i = 0; i < 3; i++) this.spareKeys[account].push((await this.api<{ id: string }>('/v1/api-keys', { method: 'POST', json: { name: `spare ${i}` }, auth: jwt })).id);
    }
    const revoked = await this.api<{ id: string; key: string }>('/v1/api-keys', { method: 'POST', json: { name: 'revoked' }, auth: jwtA });
    await this.api(`/v1/api-keys/${revoked.id}`, { method: 'DELETE', auth: jwtA });
    this.spareKeys.A.push(revoked.id);

    await this.replenish();
    const someConversation = this.pools.aConv[0]!;
    this.tokens
      .set('revoked-key', revoked.key)
      .set('unknown-key', `svc_test_${'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcd'}`)
      .set('forged-session', `sess_${Buffer.from('{"a":"acct_x","m":"test","c":"conv_x","e":9999999999}').toString('base64url')}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`)
      .set('session-other-secret', signSession({ a: this.accountIds.A, m: 'test', c: someConversation, e: now + 3600, n: 'x' }, randomSecret()))
      .set('expired-session', signSession({ a: this.accountIds.A, m: 'test', c: someConversation, e: now - 60, n: 'x' }, secret))
      .set('expired-jwt', signJwt({ sub: this.accountIds.A, iat: now - 7200, exp: now - 3600 }, secret))
      .set('alg-none-jwt', `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(json({ sub: this.accountIds.A, iat: now, exp: now + 3600 })).toString('base64url')}.`)
      .set('jwt-unknown-account', signJwt({ sub: 'acct_00000000000000000000000000', iat: now, exp: now + 3600 }, secret))
      .set('jwt-other-secret', signJwt({ sub: this.accountIds.A, iat: now, exp: now + 3600 }, randomSecret()))
      .set('long-token', `svc_test_${'A'.repeat(12_000)}`)
      .set('garbage-token', "!$&'()*+,;=:@[]{}|^`")
      .set('key-wrong-mode-prefix', this.t.key.replace('svc_test_', 'svc_live_'));

    // What good values look like, from the server's own catalogue.
    const avatars = await this.api<{ avatars: { id: string }[] }>('/v1/avatars');
    this.info.avatars = avatars.avatars.map((a) => a.id);
    const personas = await this.api<{ personas: { id: string; vertical: string }[] }>('/v1/personas');
    this.info.personas = personas.personas.map((p) => p.id);
    this.info.verticals = [...new Set(personas.personas.map((p) => p.vertical))];
    const models = await this.api<{ providers: { models: { id: string }[] }[] }>('/v1/models');
    this.info.models = models.providers.flatMap((p) => p.models.map((m) => m.id));
    const voices = await this.api<{ voices: { id: string }[] }>('/v1/tts/voices');
    this.info.voices = [...new Set(voices.voices.map((v) => v.id))].slice(0, 12);
    const text = goodText.map(json);
    this.hints = {
      avatar_id: fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...this.info.avatars) }, { weight: 1, arbitrary: fc.constantFrom('nope-999', 'LUNA-001') }).map(json),
      persona_id: fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...this.info.personas) }, { weight: 1, arbitrary: fc.constant('nope') }).map(json),
      ai_model: fc.constantFrom(...this.info.models, 'no-such-model').map(json),
      model: fc.constantFrom(...this.info.models, 'no-such-model').map(json),
      voice_id: fc.constantFrom(...this.info.voices, 'en-US-Neural2-F', 'xx-XX-Neural2-Z', 'en-us+f3').map(json),
      tts_provider: fc.oneof({ weight: 8, arbitrary: fc.constant('"browser"') }, { weight: 1, arbitrary: fc.constant('"local"') }),
      content: text,
      text,
      system_prompt: fc.string({ unit: 'grapheme', maxLength: 60 }).map(json),
      conversation_id: fc.oneof(
        { weight: 6, arbitrary: fc.nat(1000).map((n) => json(ref('aConv', n))) },
        { weight: 1, arbitrary: fc.nat(1000).map((n) => json(ref('aEnded', n))) },
        { weight: 1, arbitrary: fc.nat(1000).map((n) => json(ref('aLive', n))) },
        { weight: 2, arbitrary: fc.nat(1000).map((n) => json(ref('bConv', n))) },
        { weight: 1, arbitrary: fc.nat(1000).map((n) => json(ref('deleted', n))) },
      ),
      ttl_s: fc.integer({ min: 60, max: 86_400 }).map(json),
      email: fc.constantFrom('a@example.com', 'b@example.com', 'nobody@example.com', 'A@Example.COM').map(json),
      password: fc.constantFrom('password-a', 'password-b', 'wrong password').map(json),
      name: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).filter((s) => s.trim() !== '').map(json),
      allowed_origins: fc.array(fc.constantFrom('https://example.com', 'http://localhost:3000', 'https://shop.example.com:8443'), { maxLength: 2 }).map(json),
      'messages[]': fc.record({ role: fc.constantFrom('user', 'user', 'system', 'assistant'), content: goodText }).map(json),
      temperature: fc.double({ min: 0, max: 2, noNaN: true }).map(json),
      max_tokens: fc.integer({ min: 1, max: 300 }).map(json),
    };

    // Account C, on the free tier's request limit, for the realtime rate-limit property.
    const c = await service.accounts.createAccount({ email: 'c@example.com', password: 'password-c', tier: 'free' });
    await service.accounts.setPlan(c.id, { tier: 'free', connections: 20 });
    this.rateLimited = { key: (await service.accounts.createApiKey(c.id, { name: 'C', mode: 'test' })).key, accountId: c.id, limit: 10 };

    const document = (await (await fetch(`${this.t.url}/v1/openapi.json`)).json()) as OpenApiDocument;
    this.ops = operationsOf(document);
  }

  async stop(): Promise<void> {
    this.db?.close();
    await this.t?.close();
  }

  // -- snapshots and pools ------------------------------------------------------------------------

  snapshot(): Snapshot {
    const convs = new Map<string, ConvRow>();
    for (const row of this.#convStatement.all() as { id: string; account_id: string; mode: string; status: string; tts_provider: string; user_count: number; assistant_count: number }[]) {
      convs.set(row.id, { account: row.account_id, mode: row.mode, status: row.status, tts: row.tts_provider, user: row.user_count, assistant: row.assistant_count });
    }
    const keys = new Map<string, { account: string; revoked: boolean }>();
    for (const row of this.#keyStatement.all() as { id: string; account_id: string; revoked_at: number | null }[]) keys.set(row.id, { account: row.account_id, revoked: row.revoked_at !== null });
    const messages = (this.db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
    const accounts = (this.db.prepare('SELECT count(*) AS n FROM accounts').get() as { n: number }).n;
    return { convs, keys, messages, accounts };
  }

  accountLabel(accountId: string): string {
    return accountId === this.accountIds.A ? 'A' : accountId === this.accountIds.B ? 'B' : accountId === this.rateLimited.accountId ? 'C' : `unknown account ${accountId}`;
  }

  refreshPools(s: Snapshot): void {
    const { A, B } = this.accountIds;
    const list = (keep: (c: ConvRow) => boolean, max = 40) => [...s.convs].filter(([, c]) => keep(c)).map(([id]) => id).slice(-max);
    this.pools.aConv = list((c) => c.account === A && c.mode === 'test' && c.status === 'active' && c.tts === 'browser');
    this.pools.aEnded = list((c) => c.account === A && c.status !== 'active', 20);
    this.pools.aLive = list((c) => c.account === A && c.mode === 'live' && c.status === 'active' && c.tts === 'browser', 10);
    this.pools.bConv = list((c) => c.account === B && c.tts === 'browser', 20);
    for (const account of ['A', 'B'] as const) {
      const id = this.accountIds[account];
      this.spareKeys[account] = [...s.keys].filter(([keyId, k]) => k.account === id && !this.inUseKeys[account].includes(keyId)).map(([keyId]) => keyId).slice(-20);
    }
  }

  /** Keeps a few conversations of each kind around (the fuzzer deletes and ends them). */
  async replenish(): Promise<void> {
    this.refreshPools(this.snapshot());
    const create = (auth: string) => this.api<{ id: string }>('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser' }, auth });
    while (this.pools.aConv.length < 6) this.pools.aConv.push((await create(this.t.key)).id);
    while (this.pools.aLive.length < 2) this.pools.aLive.push((await create(this.t.liveKey)).id);
    while (this.pools.bConv.length < 3) this.pools.bConv.push((await create(this.t.otherKey)).id);
    while (this.pools.aEnded.length < 2) {
      const id = (await create(this.t.key)).id;
      await this.api(`/v1/conversations/${id}/end`, { method: 'POST' });
      this.pools.aEnded.push(id);
    }
    this.refreshPools(this.snapshot());
  }

  async session(conversationId: string, auth: string): Promise<string | null> {
    if (!this.sessions.has(conversationId)) {
      const res = await this.request('/v1/sessions', { method: 'POST', json: { conversation_id: conversationId }, auth });
      const text = await res.text();
      this.sessions.set(conversationId, res.status === 201 ? this.unwrap<{ token: string }>(JSON.parse(text)).token : null);
    }
    return this.sessions.get(conversationId)!;
  }

  /** Which account and mode a conversation belongs to, per a snapshot. */
  ownerOf(s: Snapshot, conversationId: string): { account: Account | 'other'; mode: string } | undefined {
    const row = s.convs.get(conversationId);
    if (!row) return undefined;
    const account = row.account === this.accountIds.A ? 'A' : row.account === this.accountIds.B ? 'B' : 'other';
    return { account, mode: row.mode };
  }

  resolveRef(pool: Pool, n: number, account: Account): string {
    const other: Account = account === 'A' ? 'B' : 'A';
    const list =
      pool === 'keyOwn' ? this.spareKeys[account] : pool === 'keyOtherInUse' ? this.inUseKeys[other] : pool === 'keyOtherSpare' ? this.spareKeys[other] : this.pools[pool];
    if (list.length > 0) return list[n % list.length]!;
    if (pool.startsWith('key')) return 'key_0000000000000000';
    if (pool === 'audio') return 'aud_0000000000000000000000000a.mp3';
    return this.style === 'envelope' ? '00000000-0000-4000-8000-000000000000' : 'conv_0000000000000000';
  }

  // -- HTTP requests -------------------------------------------------------------------------------

  requestArb(op: Operation, options: { encoding?: boolean } = {}): fc.Arbitrary<RequestSpec> {
    const refArb = (pool: Pool) => fc.nat(1000).map((n): ParamSpec => ({ ref: pool, n }));
    const text = (values: string[]) => fc.constantFrom(...values).map((t): ParamSpec => ({ text: t }));
    const paramArb = (name: string): fc.Arbitrary<ParamSpec> => {
      const t = op.template;
      if (t.startsWith('/v1/conversations/{id}')) {
        return fc.oneof(
          { weight: 10, arbitrary: refArb('aConv') },
          { weight: 2, arbitrary: refArb('aEnded') },
          { weight: 2, arbitrary: refArb('aLive') },
          { weight: 3, arbitrary: refArb('bConv') },
          { weight: 1, arbitrary: refArb('deleted') },
          { weight: 3, arbitrary: garbageSegment },
        );
      }
      if (name === 'keyId') {
        return fc.oneof({ weight: 6, arbitrary: refArb('keyOwn') }, { weight: 2, arbitrary: refArb('keyOtherInUse') }, { weight: 2, arbitrary: refArb('keyOtherSpare') }, { weight: 3, arbitrary: garbageSegment });
      }
      if (t.startsWith('/v1/avatars/')) return fc.oneof({ weight: 6, arbitrary: text(this.info.avatars) }, { weight: 3, arbitrary: garbageSegment });
      if (t.startsWith('/v1/personas/id/')) return fc.oneof({ weight: 6, arbitrary: text(this.info.personas) }, { weight: 3, arbitrary: garbageSegment });
      if (name === 'vertical') return fc.oneof({ weight: 6, arbitrary: text(this.info.verticals) }, { weight: 3, arbitrary: garbageSegment });
      if (t.startsWith('/v1/audio/')) {
        return fc.oneof({ weight: 3, arbitrary: refArb('audio') }, { weight: 3, arbitrary: garbageSegment }, { weight: 1, arbitrary: fc.stringMatching(/^aud_[0-9a-z]{26}(-\d{1,4})?\.mp3$/).map((s): ParamSpec => ({ text: s })) });
      }
      if (t.startsWith('/assets/avatars/')) {
        return fc.oneof(
          { weight: 6, arbitrary: text(this.info.avatars.map((a) => `${a}.png`)) },
          { weight: 1, arbitrary: text(this.info.avatars.slice(0, 1).map((a) => `${a}.vrm`)) },
          { weight: 3, arbitrary: garbageSegment },
        );
      }
      return garbageSegment;
    };
    const goodQuery = (name: string): fc.Arbitrary<ParamSpec> => {
      switch (name) {
        case 'from':
        case 'to':
          return text(['2026-01-01', '2026-11-23', '2025-12-31', '2026-13-45', '0000-00-00', '9999-99-99', '2026-02-30']);
        case 'limit':
          return fc.oneof(fc.integer({ min: -5, max: 150 }).map(String), fc.constantFrom('1e2', '0x10', '+5', ' 5', '5.0', '007', '99999999999999999999')).map((t): ParamSpec => ({ text: t }));
        case 'starting_after':
          return fc.oneof(refArb('keyOwn'), refArb('keyOtherInUse'));
        case 'provider':
          return text(['local', 'browser', 'google', 'openai', 'LOCAL']);
        case 'status':
          return text(['active', 'ended', 'escalated', 'ACTIVE']);
        case 'escalated':
          return text(['true', 'false', 'yes', '1']);
        case 'avatar':
          return fc.oneof(text(this.info.avatars), text(['nobody-001', 'Not An Id', '']));
        case 'mode':
          return text(['live', 'test', 'both', 'LIVE']);
        case 'days':
          return fc.oneof(fc.integer({ min: -5, max: 400 }).map(String), fc.constantFrom('1e2', '30.0', 'week')).map((t): ParamSpec => ({ text: t }));
        case 'created_after':
        case 'created_before':
          return text(['2026-01-01', '2026-11-23T12:00:00Z', '2026-11-23T12:00:00.123+02:00', '2026-02-30', '2026-13-01', 'yesterday', '2026-01-01T25:00:00Z']);
        default:
          return fc.constant<ParamSpec>({ text: 'x' });
      }
    };
    const queryNames = op.queryParams.map((p) => p.name);
    const queryArb: fc.Arbitrary<[string, ParamSpec][] | undefined> = queryNames.length
      ? fc.oneof(
          { weight: 1, arbitrary: fc.constant(undefined) },
          {
            weight: 4,
            arbitrary: fc.array(
              fc.oneof(
                { weight: 6, arbitrary: fc.constantFrom(...queryNames).chain((name) => goodQuery(name).map((v): [string, ParamSpec] => [name, v])) },
                { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...queryNames), garbageSegment) },
                { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...PROTOTYPE_NAMES, 'x', 'limit[]', 'from[0]', 'LIMIT'), fc.constant<ParamSpec>({ text: '1' })) },
              ),
              { minLength: 1, maxLength: 3 },
            ),
          },
        )
      : fc.option(fc.array(fc.tuple(fc.constantFrom(...PROTOTYPE_NAMES, 'x', 'token', 'stream'), garbageSegment), { minLength: 1, maxLength: 2 }), { nil: undefined, freq: 8 });

    const templateHints: Hints =
      op.template === '/v1/tts' || op.template === '/v1/tts/preview' ? { ...this.hints, text: fc.constantFrom('Hi.', 'Hello there.', 'One, two.').map(json) } : this.hints;
    const hasBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method);
    const bodyArbitrary: fc.Arbitrary<BodySpec | undefined> = op.body
      ? fc.option(bodyArb(op.body, templateHints), { nil: undefined, freq: 25 })
      : hasBody
        ? fc.option(fc.oneof(hostileFragment, fc.constantFrom('{}', '{"x":1}')).map((text): BodySpec => ({ kind: 'raw', text })), { nil: undefined, freq: 2 })
        : fc.constant(undefined);
    const headerArb = fc.oneof(
      { weight: 6, arbitrary: fc.constant([] as [string, string][]) },
      {
        weight: 1,
        arbitrary: fc.array(
          fc.oneof(
            fc.tuple(fc.constant('accept'), fc.constantFrom('application/json', 'audio/mpeg', 'text/event-stream', '*/*', 'image/png', 'garbage', 'application/json;q=0, audio/mpeg')),
            fc.tuple(fc.constant('origin'), fc.constantFrom('https://evil.example', 'null', 'http://localhost:3000')),
            fc.tuple(fc.constant('range'), fc.constantFrom('bytes=0-10', 'bytes=-5', 'bytes=5-2', 'bytes=999999999-', 'bytes=0-1,2-3', 'bytes=abc', 'items=0-1', 'bytes=-0')),
            fc.tuple(fc.constant('if-none-match'), fc.constantFrom('*', '"abc"', 'W/"x"')),
            fc.tuple(fc.constant('x-forwarded-for'), fc.constantFrom('1.2.3.4', 'garbage')),
          ),
          { minLength: 1, maxLength: 2 },
        ),
      },
    );
    return fc
      .record({
        method: fc.oneof({ weight: 30, arbitrary: fc.constant(op.method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD') }),
        params: fc.record(Object.fromEntries(op.pathParams.map((p) => [p.name, paramArb(p.name)]))) as fc.Arbitrary<Record<string, ParamSpec>>,
        query: queryArb,
        credential: credentialArb(op.security),
        body: bodyArbitrary,
        contentType: op.body ? contentTypeArb : fc.constantFrom('application/json', '<none>', 'text/plain'),
        chunked: fc.oneof({ weight: 8, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
        headers: options.encoding
          ? fc.tuple(fc.constant('content-encoding'), fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-unknown', 'gzip, br', 'GZIP')).map((h): [string, string][] => [h])
          : headerArb,
      })
      .map((r) => describedAs<RequestSpec>({ op, ...r }, describeSpec));
  }

  async prepare(spec: RequestSpec): Promise<Prepared> {
    const { op } = spec;
    const credentialAccount: Account = spec.credential.startsWith('B-') ? 'B' : 'A';
    const refs: Prepared['refs'] = [];
    let location: 'path' | 'query' | 'body' = 'path';
    const resolve = (pool: Pool, n: number) => {
      const id = this.resolveRef(pool, n, credentialAccount);
      refs.push({ pool, id, in: location });
      return id;
    };
    const pathValues: Record<string, string | undefined> = {};
    let path = op.template;
    const verdicts: Verdict[] = [];
    for (const param of op.pathParams) {
      const value = spec.params[param.name]!;
      let segment: string;
      if ('ref' in value) segment = pathValues[param.name] = resolve(value.ref, value.n);
      else if ('text' in value) {
        segment = encodeSegment(value.text);
        pathValues[param.name] = (value.text as string & { toWellFormed(): string }).toWellFormed();
      } else {
        segment = value.raw;
        pathValues[param.name] = undefined;
      }
      path = path.replace(`{${param.name}}`, segment);
      verdicts.push(judgeParam(param.schema, pathValues[param.name], this.style));
    }
    location = 'query';
    if (spec.query) {
      const pairs = spec.query.map(([name, value]): [string, string, string | undefined] => {
        if ('ref' in value) {
          const id = resolve(value.ref, value.n);
          return [name, id, id];
        }
        if ('text' in value) return [name, encodeSegment(value.text), (value.text as string & { toWellFormed(): string }).toWellFormed()];
        return [name, value.raw, undefined];
      });
      path += `?${pairs.map(([name, encoded]) => `${encodeSegment(name)}=${encoded}`).join('&')}`;
      verdicts.push(judgeQuery(op.queryParams, pairs.map(([name, , decoded]) => [name, decoded]), this.style));
    } else if (op.queryParams.length) verdicts.push(judgeQuery(op.queryParams, [], this.style));

    // Who is calling: sessions belong to a conversation, preferably the one in the path.
    const pathConversation = op.template.startsWith('/v1/conversations/{id}') ? pathValues.id : undefined;
    let principal: Principal | null | undefined;
    let token: string | undefined;
    const before = this.snapshotCache;
    switch (spec.credential) {
      case 'A-key':
      case 'A-key-lowercase-scheme':
      case 'A-key-extra-spaces':
        principal = { account: 'A', mode: 'test', type: 'key' };
        token = this.t.key;
        break;
      case 'A-live':
        principal = { account: 'A', mode: 'live', type: 'key' };
        token = this.t.liveKey;
        break;
      case 'B-key':
        principal = { account: 'B', mode: 'test', type: 'key' };
        token = this.t.otherKey;
        break;
      case 'A-jwt':
      case 'B-jwt':
        principal = { account: spec.credential[0] as Account, mode: 'test', type: 'jwt' };
        token = this.tokens.get(spec.credential);
        break;
      case 'A-session':
      case 'A-session-other':
      case 'B-session': {
        const account: Account = spec.credential === 'B-session' ? 'B' : 'A';
        const pathOwner = pathConversation && before ? this.ownerOf(before, pathConversation) : undefined;
        const modeOf = (id: string | undefined) => ((id && before?.convs.get(id)?.mode) === 'live' ? 'live' : 'test');
        let conversation =
          spec.credential !== 'A-session-other' && pathConversation && pathOwner?.account === account && before?.convs.get(pathConversation)?.status === 'active'
            ? pathConversation
            : (account === 'A' ? this.pools.aConv : this.pools.bConv).find((id) => id !== pathConversation);
        const minterOf = (id: string | undefined) => (account === 'B' ? this.t.otherKey : modeOf(id) === 'live' ? this.t.liveKey : this.t.key);
        token = conversation ? ((await this.session(conversation, minterOf(conversation))) ?? undefined) : undefined;
        if (!token) {
          conversation = (account === 'A' ? this.pools.aConv : this.pools.bConv)[0]!;
          token = (await this.session(conversation, minterOf(conversation))) ?? undefined;
        }
        principal = token && conversation ? { account, mode: modeOf(conversation), type: 'session', conversation } : null;
        break;
      }
      case 'none':
        principal = undefined;
        break;
      default:
        principal = null;
        token = this.tokens.get(spec.credential);
    }
    const headers: Record<string, string> = {};
    const authorization = httpAuthorization(spec.credential, token ?? '', this.t.key, this.t.otherKey);
    if (authorization !== undefined) headers.authorization = authorization;
    for (const [name, value] of spec.headers) headers[name] = value;

    const method = spec.method;
    location = 'body';
    let body: string | undefined;
    if (spec.body && method !== 'GET' && method !== 'HEAD') {
      body = bodyText(spec.body).replace(REF_PATTERN, (_, pool: string, n: string) => resolve(pool as Pool, Number(n), ));
      if (spec.contentType !== '<none>') headers['content-type'] = spec.contentType;
      if (op.body && method === op.method) {
        verdicts.push(spec.headers.some(([name, value]) => name === 'content-encoding' && value !== 'identity') ? { kind: 'unknown' } : judgeBody(op.body, body, spec.contentType === '<none>' ? undefined : spec.contentType, this.style));
      }
    } else if (op.body && method === op.method) {
      verdicts.push(judgeBody(op.body, '', undefined, this.style));
    }
    const invalid = verdicts.find((v) => v.kind === 'invalid');
    const contract: Verdict = method !== op.method ? { kind: 'unknown' } : (invalid ?? (verdicts.some((v) => v.kind === 'unknown') ? { kind: 'unknown' } : { kind: 'valid' }));

    let expectAuth: Prepared['expectAuth'] = 'unknown';
    // A raw segment ('%2e%2e', '%') may resolve to another path: no expectation about the route then.
    if (method === op.method && Object.values(spec.params).every((v) => !('raw' in v))) {
      const type = principal?.type;
      if (op.security === 'apiKey') expectAuth = type === 'key' ? 'ok' : 'refused';
      else if (op.security === 'account') expectAuth = type === 'jwt' ? 'ok' : 'refused';
      else if (op.security === 'accountOrKey') expectAuth = type === 'jwt' || type === 'key' ? 'ok' : 'refused';
      else if (op.security === 'conversation') {
        expectAuth = type === 'key' ? 'ok' : type === 'session' ? (principal!.conversation === pathValues.id ? 'ok' : 'refused') : 'refused';
        if (type === 'session' && pathValues.id === undefined) expectAuth = 'unknown';
      }
    }
    return {
      spec,
      method,
      url: this.t.url + path,
      path,
      headers,
      body,
      bodyBytes: body === undefined ? 0 : Buffer.byteLength(body),
      principal,
      pathValues,
      refs,
      contract,
      expectAuth,
    };
  }

  /** The snapshot taken before the current batch (ownership of the ids it names). */
  snapshotCache: Snapshot | undefined;

  async send(p: Prepared): Promise<Outcome> {
    counts.http++;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.sendOnce(p);
      // A pooled keep-alive connection the server had already closed fails before the request is
      // sent; a client retries that once. A server that drops this request drops the retry too.
      if (attempt === 1 && outcome.error && /ECONNRESET|UND_ERR_SOCKET|other side closed|EPIPE/.test(outcome.error) && p.bodyBytes <= ONE_MIB) {
        counts.retried++;
        continue;
      }
      return outcome;
    }
  }

  async sendOnce(p: Prepared): Promise<Outcome> {
    try {
      const init: RequestInit & { duplex?: 'half' } = { method: p.method, headers: p.headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS), redirect: 'manual' };
      if (p.body !== undefined) {
        const bytes = Buffer.from(p.body, 'utf8');
        if (p.spec.chunked) {
          init.body = new ReadableStream({
            start(controller) {
              controller.enqueue(new Uint8Array(bytes));
              controller.close();
            },
          });
          init.duplex = 'half';
        } else init.body = p.headers['content-type'] === undefined ? new Uint8Array(bytes) : p.body;
      }
      const res = await fetch(p.url, init);
      const text = p.method === 'HEAD' ? '' : await res.text();
      return { status: res.status, contentType: res.headers.get('content-type'), text };
    } catch (error) {
      return { error: fetchError(error) };
    }
  }

  check(p: Prepared, o: Outcome, before: Snapshot): Violation[] {
    const where = `${p.method} ${p.spec.op.template}`;
    const detail = `${this.style}: ${describeRequest(p)}\n→ ${describeOutcome(o)}`;
    const violations: Violation[] = [];
    if (o.error !== undefined || o.status === undefined) {
      // The server may hang up on a body over its limit; anything else deserves an answer.
      if (p.bodyBytes <= ONE_MIB) violations.push({ kind: `no answer on ${where} (${o.error?.replace(/[0-9]+/g, 'N')})`, detail });
      return violations;
    }
    if (o.status >= 500) violations.push({ kind: `${o.status} on ${where}`, detail });
    if (o.status >= 400) {
      const shape = errorShapeViolation(o.contentType ?? null, o.text ?? '', this.style, p.method === 'HEAD');
      if (shape) violations.push({ kind: `error body not in the documented shape (${shape}) on ${where}, status ${o.status}`, detail });
    }
    // A 12,000-character token with other generated headers may pass Node's 16 KiB header
    // limit: 431 is then the right refusal, before any credential is read.
    const headersTooLarge = p.spec.credential === 'long-token' && o.status === 431;
    if (p.expectAuth === 'refused' && o.status !== 401 && !headersTooLarge) violations.push({ kind: `credential ${p.spec.credential} not refused with 401 on ${where} (got ${o.status})`, detail });
    if (p.contract.kind === 'invalid' && o.status < 400) {
      const reason = p.contract.reason.replace(/\[\d+\]/g, '[i]');
      violations.push({ kind: `accepted (${o.status}) a request breaking the contract on ${where}: ${abbreviate(reason, 80)}`, detail: `${reason}\n${detail}` });
    }
    if (o.status >= 200 && o.status < 300 && p.principal && p.method === p.spec.op.method) {
      for (const { pool, id, in: where } of p.refs) {
        // Body references are judged by what the server did (the data check), not by what was asked.
        if (pool === 'audio' || where !== 'path') continue;
        if (pool.startsWith('key')) {
          const key = before.keys.get(id);
          if (key && key.account !== this.accountIds[p.principal.account]) violations.push({ kind: `${p.principal.account}'s credential reached another account's API key on ${where}`, detail });
          continue;
        }
        const owner = this.ownerOf(before, id);
        if (owner && (owner.account !== p.principal.account || (p.principal.type !== 'jwt' && owner.mode !== p.principal.mode))) {
          violations.push({ kind: `${p.principal.account}/${p.principal.mode} credential reached ${owner.account}/${owner.mode}'s conversation on ${where} (${o.status})`, detail });
        }
      }
    }
    return violations;
  }

  /**
   * Properties 3 and 4: the data after a batch is the data before plus what its successful
   * requests explain, each only on its own caller's data.
   */
  accountFor(before: Snapshot, after: Snapshot, batch: { p: Prepared; o: Outcome }[]): Violation[] {
    const expected = new Map<string, ConvRow & { assistantMin: number }>();
    for (const [id, row] of before.convs) expected.set(id, { ...row, assistantMin: row.assistant });
    const keys = new Map([...before.keys].map(([id, k]) => [id, { ...k }]));
    const deleted = new Set<string>();
    const crossAccount: string[] = [];
    for (const { p, o } of batch) {
      if (!o.status || o.status >= 300 || !p.principal) continue;
      const principal = p.principal;
      const accountId = this.accountIds[principal.account];
      const body = this.unwrapSafe(o.text);
      const owns = (id: string | undefined) => {
        const row = id === undefined ? undefined : before.convs.get(id);
        return row !== undefined && row.account === accountId && row.mode === principal.mode;
      };
      const newConversation = (id: unknown) => {
        if (typeof id !== 'string') return;
        const existing = before.convs.get(id);
        if (existing && (existing.account !== accountId || existing.mode !== principal.mode)) {
          crossAccount.push(`${o.status} ${describeRequest(p)} answered with ${this.accountLabel(existing.account)}/${existing.mode}'s conversation ${id}`);
        }
        if (existing) return;
        expected.set(id, { account: accountId, mode: principal.mode, status: 'active', tts: after.convs.get(id)?.tts ?? '', user: 0, assistant: 0, assistantMin: 0 });
      };
      switch (`${p.method} ${p.spec.op.template}`) {
        case 'POST /v1/conversations':
          newConversation(body?.id);
          break;
        case 'POST /v1/sessions':
          newConversation(body?.conversation_id ?? body?.conversationId);
          break;
        case 'POST /v1/conversations/{id}/messages': {
          const id = p.pathValues.id;
          const row = id === undefined ? undefined : expected.get(id);
          if (row && owns(id)) {
            row.user++;
            row.assistant++;
            if (!o.contentType?.startsWith('text/event-stream')) row.assistantMin++;
          }
          break;
        }
        case 'POST /v1/conversations/{id}/end': {
          const row = p.pathValues.id === undefined ? undefined : expected.get(p.pathValues.id);
          if (row && owns(p.pathValues.id)) row.status = 'ended';
          break;
        }
        case 'DELETE /v1/conversations/{id}':
          if (owns(p.pathValues.id)) deleted.add(p.pathValues.id!);
          break;
        case 'POST /v1/api-keys':
          if (typeof body?.id === 'string' && principal.type === 'jwt') keys.set(body.id, { account: accountId, revoked: false });
          break;
        case 'DELETE /v1/api-keys/{keyId}': {
          const key = p.pathValues.keyId === undefined ? undefined : keys.get(p.pathValues.keyId);
          if (key && key.account === accountId && principal.type === 'jwt') key.revoked = true;
          break;
        }
      }
    }
    for (const id of deleted) expected.delete(id);

    const changes: string[] = [];
    const label = (accountId: string) => this.accountLabel(accountId);
    const crossed: Violation[] = crossAccount.map((detail) => ({ kind: 'a session was issued for another account\'s conversation', detail: `${this.style}: ${detail}` }));
    for (const [id, row] of after.convs) {
      const want = expected.get(id);
      if (!want) {
        changes.push(`account ${label(row.account)}: new conversation ${id} (${row.mode}) with no successful request creating it`);
        continue;
      }
      if (want.account !== row.account || want.mode !== row.mode) changes.push(`conversation ${id} belongs to ${label(row.account)}/${row.mode}, expected ${label(want.account)}/${want.mode}`);
      if (want.status !== row.status) changes.push(`account ${label(row.account)}: conversation ${id} is ${row.status}, expected ${want.status}`);
      if (want.user !== row.user) changes.push(`account ${label(row.account)}: conversation ${id} has ${row.user - (before.convs.get(id)?.user ?? 0)} new user message(s), expected ${want.user - (before.convs.get(id)?.user ?? 0)}`);
      if (row.assistant < want.assistantMin || row.assistant > want.assistant) {
        changes.push(`account ${label(row.account)}: conversation ${id} has ${row.assistant - (before.convs.get(id)?.assistant ?? 0)} new assistant message(s), expected ${want.assistantMin - (before.convs.get(id)?.assistant ?? 0)}…${want.assistant - (before.convs.get(id)?.assistant ?? 0)}`);
      }
    }
    for (const [id, want] of expected) if (!after.convs.has(id)) changes.push(`account ${label(want.account)}: conversation ${id} disappeared with no successful delete`);
    for (const [id, key] of after.keys) {
      const want = keys.get(id);
      if (!want) changes.push(`account ${label(key.account)}: new API key ${id} with no successful request creating it`);
      else if (want.revoked !== key.revoked) changes.push(`account ${label(key.account)}: API key ${id} ${key.revoked ? 'revoked' : 'un-revoked'} with no successful request explaining it`);
    }
    for (const [id, want] of keys) if (!after.keys.has(id)) changes.push(`account ${label(want.account)}: API key ${id} disappeared`);
    const summed = [...after.convs.values()].reduce((n, c) => n + c.user + c.assistant, 0);
    if (after.messages !== summed) changes.push(`${after.messages - summed} message row(s) outside user/assistant roles or known conversations`);
    if (after.accounts !== before.accounts) changes.push(`${after.accounts - before.accounts} new account(s)`);
    if (changes.length === 0) return crossed;
    const successes = batch.filter(({ o }) => o.status !== undefined && o.status < 300).map(({ p, o }) => `${o.status} ${describeRequest(p)}`);
    const refused = batch.filter(({ o }) => o.status === undefined || o.status >= 300).map(({ p, o }) => `${o.status ?? 'no answer'} ${describeRequest(p)}`);
    const kind = `data changed without a successful request explaining it: ${changes[0]!.replace(/(conv_|key_)[0-9a-z]+|[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>').replace(/\d+/g, 'N')}`;
    return [...crossed, { kind, detail: `${this.style}: ${changes.join('; ')}\nsuccessful: ${successes.join('\n  ') || 'none'}\nrefused: ${refused.join('\n  ')}` }];
  }

  unwrapSafe(text: string | undefined): Record<string, unknown> | undefined {
    const body = parseOrUndefined(text);
    if (typeof body !== 'object' || body === null) return undefined;
    return (this.style === 'envelope' ? (body as { data?: Record<string, unknown> }).data : body) as Record<string, unknown> | undefined;
  }

  /** Sends a batch concurrently; returns every violation of the properties. */
  async runBatch(specs: RequestSpec[]): Promise<Violation[]> {
    const before = this.snapshot();
    this.snapshotCache = before;
    const prepared: Prepared[] = [];
    for (const spec of specs) prepared.push(await this.prepare(spec));
    const logMark = this.logged.length;
    const outcomes = await Promise.all(prepared.map((p) => this.send(p)));
    // Replies end before their responses do; this only waits for stragglers (a client gone mid-stream).
    const conversations = new Set(prepared.flatMap((p) => p.refs.map((r) => r.id)));
    await until(() => [...conversations].every((id) => !this.t.service.conversations.isReplying(id)), 5000);
    const after = this.snapshot();
    const batch = prepared.map((p, i) => ({ p, o: outcomes[i]! }));
    const violations = batch.flatMap(({ p, o }) => this.check(p, o, before));
    violations.push(...this.accountFor(before, after, batch));
    const logged = this.logged.slice(logMark);
    if (logged.length) {
      violations.push({
        kind: `the server logged an unexpected error: ${abbreviate(logged[0]!.replace(/\(req_[0-9a-z]+\)/g, '').replace(/[0-9a-f]{8}-[0-9a-f-]{27}|conv_[0-9a-z]+/g, '<id>').slice(0, 120), 120)}`,
        detail: `${this.style}: ${logged.join('\n')}\nbatch:\n  ${batch.map(({ p, o }) => `${describeRequest(p)} → ${describeOutcome(o)}`).join('\n  ')}`,
      });
    }
    // Pools follow the data: deleted ids stay around as well-formed ids of nothing.
    for (const id of before.convs.keys()) if (!after.convs.has(id)) this.pools.deleted = [...this.pools.deleted, id].slice(-20);
    for (const { o } of batch) {
      const url = this.unwrapSafe(o.text)?.[this.style === 'envelope' ? 'audioUrl' : 'audio_url'];
      if (typeof url === 'string') this.pools.audio = [...this.pools.audio, url.slice(url.lastIndexOf('/') + 1)].slice(-10);
    }
    await this.replenish();
    return violations;
  }

  // -- realtime ------------------------------------------------------------------------------------

  async createConversation(auth: string): Promise<string> {
    return (await this.api<{ id: string }>('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser' }, auth })).id;
  }

  resolveText(text: string): string {
    return text.replace(REF_PATTERN, (_, pool: string, n: string) => this.resolveRef(pool as Pool, Number(n), 'A'));
  }

  /** Everything outside `dedicated` must be unchanged; returns the user messages added to it. */
  realtimeDataCheck(before: Snapshot, after: Snapshot, dedicated: string, violations: Violation[], detail: string): number {
    const changes: string[] = [];
    for (const [id, row] of after.convs) {
      const was = before.convs.get(id);
      if (!was) changes.push(`new conversation ${id} of ${this.accountLabel(row.account)}`);
      else if (id !== dedicated && (was.status !== row.status || was.user !== row.user || was.assistant !== row.assistant)) {
        changes.push(`conversation ${id} of ${this.accountLabel(row.account)} changed (${was.status}→${row.status}, user ${was.user}→${row.user}, assistant ${was.assistant}→${row.assistant})`);
      } else if (id === dedicated && was.status !== row.status) changes.push(`the joined conversation became ${row.status}`);
    }
    for (const id of before.convs.keys()) if (!after.convs.has(id)) changes.push(`conversation ${id} disappeared`);
    for (const [id, key] of after.keys) if (!before.keys.has(id) || before.keys.get(id)!.revoked !== key.revoked) changes.push(`API key ${id} created or revoked`);
    if (changes.length) violations.push({ kind: `realtime: data outside the joined conversation changed: ${changes[0]!.replace(/(conv_|key_)[0-9a-z]+|[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>').replace(/\d+/g, 'N')}`, detail: `${changes.join('; ')}\n${detail}` });
    return (after.convs.get(dedicated)?.user ?? 0) - (before.convs.get(dedicated)?.user ?? 0);
  }

  async waitIdle(conversationId: string): Promise<void> {
    await until(() => !this.t.service.conversations.isReplying(conversationId), 8000);
  }
}

// -------------------------------------------------------------------------------------------------

function planFor(op: Operation): { runs: number; batch: number } {
  if (op.template === '/v1/tts' || op.template === '/v1/tts/preview') return { runs: 8, batch: 4 };
  if (op.template === '/v1/auth/login') return { runs: 14, batch: 8 };
  if (op.template.endsWith('/messages')) return { runs: 70, batch: 12 };
  if (op.template === '/assets/avatars/{file}') return { runs: 20, batch: 8 };
  return { runs: 36, batch: 12 };
}

/** The operations, read from the document of a server started for that purpose (tests are declared before `before` runs). */
async function documentedOperations(): Promise<Operation[]> {
  const t = await startTestServer();
  try {
    return operationsOf((await (await fetch(`${t.url}/v1/openapi.json`)).json()) as OpenApiDocument);
  } finally {
    await t.close();
  }
}

const OPERATIONS = await documentedOperations();

for (const style of ['flat', 'envelope'] as const) {
  describe(`property-based fuzzing, ${style} style`, () => {
    const h = new Harness(style);
    before(() => h.start());
    after(() => h.stop());

    it('the served OpenAPI document lists the operations fuzzed here', () => {
      assert.deepEqual(
        h.ops.map((op) => `${op.method} ${op.template}`),
        OPERATIONS.map((op) => `${op.method} ${op.template}`),
      );
      assert.ok(h.ops.length > 20, `only ${h.ops.length} operations`);
    });

    for (const op of OPERATIONS) {
      const plan = planFor(op);
      it(`${op.method} ${op.template}: no 5xx, error shape, auth, contract, nothing stored on refusal, no cross-account effect`, async () => {
        const operation = h.ops.find((o) => o.method === op.method && o.template === op.template) ?? op;
        await fc.assert(
          fc.asyncProperty(fc.limitShrink(fc.array(h.requestArb(operation), { minLength: 1, maxLength: plan.batch, size: 'max' }), 25), budgeted(12_000, async (batch) => {
            report(style, await h.runBatch(batch));
          })),
          fuzzParameters(plan.runs),
        );
      });
    }

    it('bodies labelled with a Content-Encoding they do not have (gzip, deflate, br, unknown) on every operation', async () => {
      const request = fc.constantFrom(...OPERATIONS).chain((op) => h.requestArb(h.ops.find((o) => o.method === op.method && o.template === op.template) ?? op, { encoding: true }));
      await fc.assert(
        fc.asyncProperty(fc.limitShrink(fc.array(request, { minLength: 1, maxLength: 8 }), 25), budgeted(10_000, async (batch) => {
          report(style, await h.runBatch(batch));
        })),
        fuzzParameters(25),
      );
    });

    it('oversized request heads (tokens, URLs, header counts ≥ 16 KiB) get the JSON error shape', async () => {
      const head = fc.record({
        op: fc.constantFrom(...OPERATIONS),
        kind: fc.constantFrom('token', 'query', 'headers'),
        size: fc.integer({ min: 17_000, max: 80_000 }),
      });
      await fc.assert(
        fc.asyncProperty(fc.array(head, { minLength: 1, maxLength: 4 }), budgeted(10_000, async (heads) => {
          const violations: Violation[] = [];
          await Promise.all(
            heads.map(async ({ op, kind, size }) => {
              counts.http++;
              const path = op.template.replace(/\{\w+\}/g, 'x');
              const headers: Record<string, string> = { authorization: `Bearer ${kind === 'token' ? `svc_test_${'A'.repeat(size)}` : h.t.key}` };
              if (kind === 'headers') for (let i = 0; i * 1000 < size; i++) headers[`x-filler-${i}`] = 'f'.repeat(1000);
              const url = `${h.t.url}${path}${kind === 'query' ? `?q=${'q'.repeat(size)}` : ''}`;
              let o: Outcome;
              try {
                const res = await fetch(url, { method: op.method, headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
                o = { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
              } catch (error) {
                o = { error: fetchError(error) };
              }
              const detail = `${style}: ${op.method} ${path} with a ${size}-character ${kind}\n→ ${describeOutcome(o)}`;
              if (o.status === undefined) violations.push({ kind: `no answer to an oversized request head (${kind})`, detail });
              else if (o.status >= 500) violations.push({ kind: `${o.status} for an oversized request head (${kind})`, detail });
              else if (o.status >= 400) {
                const shape = errorShapeViolation(o.contentType ?? null, o.text ?? '', style);
                if (shape) violations.push({ kind: `oversized request head (${kind}) answered ${o.status} outside the documented error shape (${shape})`, detail });
              }
            }),
          );
          report(style, violations);
        })),
        fuzzParameters(6),
      );
    });

    it('socket.io handshakes: hostile credentials refused with unauthorized, never internal_error', async () => {
      const attempt = fc.record({
        credential: fc.constantFrom(...VALID_CREDENTIALS, ...HOSTILE_CREDENTIALS),
        where: fc.constantFrom('auth', 'auth', 'header', 'both', 'auth-value', 'auth-missing', 'auth-not-object'),
        value: hostileFragment,
      });
      await fc.assert(
        fc.asyncProperty(fc.array(attempt, { minLength: 1, maxLength: 5 }), budgeted(10_000, async (attempts) => {
          const violations: Violation[] = [];
          await Promise.all(
            attempts.map(async ({ credential, where, value }) => {
              counts.realtime++;
              const session = ['A-session', 'A-session-other', 'B-session'].includes(credential) ? await h.session(credential === 'B-session' ? h.pools.bConv[0]! : h.pools.aConv[0]!, credential === 'B-session' ? h.t.otherKey : h.t.key) : undefined;
              const valid = ['A-key', 'A-live', 'B-key', 'A-session', 'A-session-other', 'B-session', 'A-key-lowercase-scheme', 'A-key-extra-spaces'].includes(credential);
              // The raw credential, and the Authorization header a client would send with it.
              const headerValue = httpAuthorization(credential, credential.startsWith('A-key') ? h.t.key : (session ?? h.tokens.get(credential) ?? ''), h.t.key, h.t.otherKey);
              const token = valid ? (session ?? (credential.startsWith('A-key') ? h.t.key : h.tokens.get(credential)!)) : (headerValue ?? '');
              // A bare key is a malformed header but a perfectly good auth token.
              const validToken = valid || credential === 'no-scheme';
              const headers: Record<string, string> = (where === 'header' || where === 'both') && headerValue !== undefined ? { authorization: headerValue } : {};
              const auth = where === 'auth' || where === 'both' ? json({ token }) : where === 'auth-value' ? `{"token":${value}}` : where === 'auth-not-object' ? value : undefined;
              const client = await RawSocketIo.open(h.t.url, headers);
              await client.connect(auth);
              await sleep(20);
              const detail = `${style}: socket.io handshake ${credential} via ${where} auth=${abbreviate(auth ?? '-', 160)} headers=${abbreviate(json(headers), 120)} → ${client.connectReply ? abbreviate(json(client.connectReply), 300) : 'no reply'}${client.closed ? ` closed ${client.closed.code}` : ''}`;
              const hostile = where === 'auth' || where === 'both' ? !validToken : where === 'header' ? !valid : true;
              if (client.connectReply?.ok === false) {
                const shape = wireErrorViolation((client.connectReply.payload as { data?: unknown })?.data);
                if (shape) violations.push({ kind: `socket.io connect_error without a proper error (${shape.replace(/:.*/, '')})`, detail });
              }
              if (hostile && client.connectReply?.ok) violations.push({ kind: `socket.io handshake accepted ${credential} via ${where}`, detail });
              if (!client.connectReply && !client.closed) violations.push({ kind: 'socket.io handshake got no answer', detail });
              const authObject = parseOrUndefined(auth);
              const oversized = Buffer.byteLength(auth ?? '') > 64 * 1024;
              if (!client.connectReply && client.closed && !oversized && (auth === undefined || (typeof authObject === 'object' && authObject !== null && !Array.isArray(authObject)))) {
                violations.push({ kind: 'socket.io closed the connection on a well-formed handshake', detail });
              }
              client.close();
            }),
          );
          report(style, violations);
        })),
        fuzzParameters(30),
      );
    });

    it('socket.io events (join, message, interrupt, others, malformed packets; with and without acks)', async () => {
      const input = fc.record({
        session: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
        steps: fc.array(socketIoStepArb, { minLength: 1, maxLength: 10 }),
        paced: fc.boolean(),
      });
      await fc.assert(
        fc.asyncProperty(fc.limitShrink(input, 15), budgeted(16_000, async ({ session, steps, paced }) => {
          const violations: Violation[] = [];
          const dedicated = await h.createConversation(h.t.key);
          h.pools.dedicated = [dedicated];
          const token = session ? ((await h.session(dedicated, h.t.key)) ?? h.t.key) : h.t.key;
          const before = h.snapshot();
          const logMark = h.logged.length;
          const client = await RawSocketIo.open(h.t.url);
          await client.connect(json({ token }));
          if (!client.connectReply?.ok) {
            report(style, [{ kind: 'socket.io refused a valid credential', detail: `${style}: ${json(client.connectReply)} ${json(client.closed)}` }]);
            return;
          }
          const sent: { packet: string; step: SocketIoStep; ackId?: number; args: unknown[]; name?: string }[] = [];
          let mayClose = false;
          let namespaceLeft = false;
          for (const step of steps) {
            counts.realtime++;
            let packet: string;
            let ackId: number | undefined;
            let args: unknown[] = [];
            if ('raw' in step) packet = h.resolveText(step.raw);
            else {
              ackId = step.ack ? client.nextAckId() : undefined;
              const resolvedArgs = step.args.map((a) => h.resolveText(a));
              args = resolvedArgs.map(parseOrUndefined);
              packet = `42${ackId ?? ''}[${[json(step.name), ...resolvedArgs].join(',')}]`;
            }
            // After a DISCONNECT packet of the main namespace ("41") the server rightly ignores
            // events on it, so none are sent (or awaited) after one.
            if (client.open && !namespaceLeft) {
              if (/^41/.test(packet)) namespaceLeft = true;
              mayClose ||= socketIoMayClose(packet);
              sent.push({ packet, step, args, ...(ackId !== undefined && { ackId }), ...(!('raw' in step) && { name: step.name }) });
              client.sendRaw(packet);
            }
            if (paced) {
              if (ackId !== undefined) await until(() => client.acks.has(ackId) || !client.open, 500);
              else await sleep(5);
            }
          }
          const awaited = sent.filter((s) => s.ackId !== undefined && ['join', 'message', 'interrupt'].includes(s.name ?? ''));
          await until(() => !client.open || awaited.every((s) => client.acks.has(s.ackId!)), 1500);
          const messageSteps = sent.filter((s) => s.name === 'message');
          const refusals = () =>
            messageSteps.filter((s) => s.ackId !== undefined && (client.acks.get(s.ackId) as { ok?: boolean }[] | undefined)?.[0]?.ok === false).length + client.events.filter((e) => e.name === 'error').length;
          const storedNow = () => (h.snapshot().convs.get(dedicated)?.user ?? 0) - (before.convs.get(dedicated)?.user ?? 0);
          await until(() => !client.open || storedNow() + refusals() >= messageSteps.length, 4000);
          await h.waitIdle(dedicated);
          await sleep(30);

          const transcript = sent.map((s) => `${abbreviate(s.packet, 160)}${s.ackId !== undefined ? ` → ack ${abbreviate(json(client.acks.get(s.ackId)) ?? 'none', 160)}` : ''}`).join('\n  ');
          const detail = () => `${style}: socket.io ${session ? 'session' : 'API key'}; sent:\n  ${transcript}\nerror events: ${abbreviate(json(client.events.filter((e) => e.name === 'error').map((e) => e.args[0])), 400)}${client.closed ? `\nclosed ${client.closed.code} ${client.closed.reason}` : ''}`;

          // Every answer names a proper error; none is internal_error.
          for (const s of sent) {
            if (s.ackId === undefined || !client.acks.has(s.ackId)) continue;
            const ack = client.acks.get(s.ackId);
            const result = (ack as unknown[] | undefined)?.[0] as { ok?: unknown } | undefined;
            if (result?.ok === true) continue;
            const shape = result?.ok === false ? wireErrorViolation(result) : `malformed ack ${abbreviate(json(ack), 100)}`;
            if (shape) violations.push({ kind: `socket.io ack: ${shape.replace(/:.*/, '')}`, detail: detail() });
          }
          for (const event of client.events.filter((e) => e.name === 'error')) {
            const shape = wireErrorViolation(event.args[0]);
            if (shape) violations.push({ kind: `socket.io error event: ${shape.replace(/:.*/, '')}`, detail: detail() });
          }
          // Acknowledgement callbacks are always called (or the connection was closed deliberately).
          for (const s of awaited) {
            // A later DISCONNECT of the namespace ("41") may overtake an answer still being
            // computed; socket.io drops acks of a disconnected socket.
            if (!client.acks.has(s.ackId!) && !(client.closed && mayClose) && !namespaceLeft) violations.push({ kind: `socket.io ${s.name} with an ack callback never acknowledged (${s.step && 'args' in s.step ? s.step.args.length : 0} argument(s))`, detail: `${abbreviate(s.packet, 200)}\n${detail()}` });
          }
          // Acked messages and joins agree with the contract.
          for (const s of sent) {
            if (s.ackId === undefined || !client.acks.has(s.ackId)) continue;
            const result = (client.acks.get(s.ackId) as unknown[])[0] as { ok: boolean; error?: { message?: string } };
            const data = s.args[0];
            if (s.name === 'message' && s.args.length <= 1) {
              const reason = realtimeMessageViolation(data);
              if (result.ok && reason) violations.push({ kind: `socket.io message accepted although ${reason.replace(/\[\d+\]/g, '')}`, detail: `${abbreviate(s.packet, 200)}\n${detail()}` });
              if (!result.ok && /must not be empty/i.test(result.error?.message ?? '') && hasNonStringContent(data)) {
                violations.push({ kind: 'socket.io message with non-string content answered "must not be empty"', detail: `${abbreviate(s.packet, 200)} → ${json(result)}` });
              }
            }
            if (s.name === 'join' && result.ok) {
              const id = (data as { conversation_id?: unknown } | undefined)?.conversation_id;
              if (typeof id !== 'string') violations.push({ kind: 'socket.io join accepted a conversation_id that is not a string', detail: `${abbreviate(s.packet, 200)} → ${abbreviate(json(result), 200)}` });
              else {
                const owner = h.ownerOf(before, id);
                if (owner && (owner.account !== 'A' || owner.mode !== 'test')) violations.push({ kind: `socket.io join reached ${owner.account}/${owner.mode}'s conversation with A's test credential`, detail: `${abbreviate(s.packet, 200)}` });
              }
            }
          }
          const emptyErrors = client.events.filter((e) => e.name === 'error' && /content must not be empty/i.test(String((e.args[0] as { error?: { message?: string } })?.error?.message)));
          if (emptyErrors.length && !sent.some((s) => s.name === 'message' && s.ackId === undefined && (s.args.length === 0 || hasBlankContent(s.args[0])))) {
            violations.push({ kind: 'socket.io error event says "must not be empty" but no unacknowledged message had empty content', detail: detail() });
          }
          // The connection stays open unless we sent something socket.io closes on.
          if (client.closed && !mayClose) violations.push({ kind: `socket.io closed the connection after well-formed events (${client.closed.code})`, detail: detail() });
          const leftNamespace = sent.some((s) => /^4[01]/.test(s.packet));
          // A binary event announcing attachments (`451-…`) that never come leaves socket.io's
          // decoder waiting for them; the next text packet is a protocol error it closes on.
          const awaitingAttachment = sent.some((s) => /^4[56][1-9]\d*-/.test(s.packet));
          if (client.open && !leftNamespace && !awaitingAttachment && !client.serverDisconnected) {
            const probe = client.nextAckId();
            client.sendRaw(`42${probe}["join",{"conversation_id":"probe-not-a-conversation"}]`);
            if (!(await until(() => client.acks.has(probe), 2000))) violations.push({ kind: 'socket.io connection unusable after the sequence (probe not acknowledged)', detail: detail() });
          }
          client.close();
          await h.waitIdle(dedicated);
          const after = h.snapshot();
          const added = h.realtimeDataCheck(before, after, dedicated, violations, detail());
          // Nothing refused is stored: acked refusals never, error events bound the unacked ones.
          const messages = sent.filter((s) => s.name === 'message');
          const refusedByAck = messages.filter((s) => s.ackId !== undefined && (client.acks.get(s.ackId) as { ok?: boolean }[] | undefined)?.[0]?.ok === false).length;
          const acceptable = messages.filter((s) => s.args.length >= 1 && realtimeMessageViolation(s.args[0]) === undefined).length;
          const errorEvents = client.events.filter((e) => e.name === 'error').length;
          if (added > messages.length - refusedByAck) violations.push({ kind: 'socket.io stored more messages than it accepted', detail: `${added} stored, ${messages.length} sent, ${refusedByAck} refused by ack\n${detail()}` });
          if (added > acceptable) violations.push({ kind: 'socket.io stored a message the contract refuses', detail: `${added} stored, only ${acceptable} acceptable\n${detail()}` });
          if ((!client.closed || !mayClose) && !namespaceLeft) {
            if (added < messages.length - refusedByAck - errorEvents) violations.push({ kind: 'socket.io message neither stored nor refused', detail: `${added} stored, ${messages.length} sent, ${refusedByAck} refused by ack, ${errorEvents} error events\n${detail()}` });
          }
          const logged = h.logged.slice(logMark);
          if (logged.length) violations.push({ kind: `the server logged an unexpected error (socket.io): ${abbreviate(logged[0]!, 100)}`, detail: `${logged.join('\n')}\n${detail()}` });
          report(style, violations);
        })),
        fuzzParameters(45),
      );
    });

    it('WebSocket handshakes: hostile or foreign credentials refused in the error shape, never 5xx', async () => {
      const attempt = fc.record({
        credential: fc.constantFrom(...VALID_CREDENTIALS, ...HOSTILE_CREDENTIALS),
        where: fc.constantFrom('header', 'header', 'query'),
        conversation: fc.oneof(
          { weight: 4, arbitrary: fc.nat(1000).map((n): ParamSpec => ({ ref: 'aConv', n })) },
          { weight: 2, arbitrary: fc.nat(1000).map((n): ParamSpec => ({ ref: 'bConv', n })) },
          { weight: 1, arbitrary: fc.nat(1000).map((n): ParamSpec => ({ ref: 'aLive', n })) },
          { weight: 2, arbitrary: garbageSegment },
        ),
      });
      await fc.assert(
        fc.asyncProperty(fc.array(attempt, { minLength: 1, maxLength: 5 }), budgeted(10_000, async (attempts) => {
          const violations: Violation[] = [];
          const before = h.snapshot();
          await Promise.all(
            attempts.map(async ({ credential, where, conversation }) => {
              counts.realtime++;
              const id = 'ref' in conversation ? h.resolveRef(conversation.ref, conversation.n, 'A') : 'text' in conversation ? encodeSegment(conversation.text) : conversation.raw;
              const owner = h.ownerOf(before, id);
              let principal: Principal | null = null;
              let token = credential.startsWith('A-key') ? h.t.key : (h.tokens.get(credential) ?? '');
              if (credential === 'A-key' || credential === 'A-key-lowercase-scheme' || credential === 'A-key-extra-spaces') principal = { account: 'A', mode: 'test', type: 'key' };
              else if (credential === 'A-live') principal = { account: 'A', mode: 'live', type: 'key' };
              else if (credential === 'B-key') principal = { account: 'B', mode: 'test', type: 'key' };
              else if (credential.includes('session')) {
                const account: Account = credential === 'B-session' ? 'B' : 'A';
                const target = credential === 'A-session' && owner?.account === 'A' && owner.mode === 'test' ? id : (account === 'A' ? h.pools.aConv : h.pools.bConv).find((c) => c !== id)!;
                token = (await h.session(target, account === 'A' ? h.t.key : h.t.otherKey)) ?? '';
                principal = token ? { account, mode: 'test', type: 'session', conversation: target } : null;
              }
              const authorization = httpAuthorization(credential, token, h.t.key, h.t.otherKey);
              const url = `${h.t.url.replace('http', 'ws')}/v1/conversations/${id}/ws${where === 'query' && credential !== 'none' ? `?token=${encodeURIComponent(token)}` : ''}`;
              const headers = where === 'header' && authorization !== undefined ? { authorization } : {};
              const result = await new Promise<{ status: number; contentType?: string; body: string }>((resolve) => {
                const ws = new WebSocket(url, { headers });
                ws.once('unexpected-response', (_req, res) => {
                  let body = '';
                  res.on('data', (chunk: Buffer) => (body += chunk.toString()));
                  res.on('end', () => resolve({ status: res.statusCode ?? 0, ...(res.headers['content-type'] && { contentType: res.headers['content-type'] }), body }));
                  res.on('error', () => resolve({ status: res.statusCode ?? 0, body }));
                });
                ws.once('open', () => {
                  ws.terminate();
                  resolve({ status: 101, body: '' });
                });
                ws.once('error', (error) => resolve({ status: 0, body: String(error) }));
              });
              const detail = `${style}: WebSocket /v1/conversations/${abbreviate(id, 80)}/ws credential ${credential} via ${where} → ${result.status} ${result.contentType ?? ''} ${abbreviate(result.body, 300)}`;
              if (result.status === 0) violations.push({ kind: 'WebSocket handshake dropped without an answer', detail });
              else if (result.status >= 500) violations.push({ kind: `WebSocket handshake answered ${result.status}`, detail });
              else if (result.status >= 400) {
                const shape = errorShapeViolation(result.contentType ?? null, result.body, style);
                if (shape) violations.push({ kind: `WebSocket handshake refusal (${result.status}) outside the documented error shape of the ${style} style (${shape})`, detail });
                const wire = wireErrorViolation(parseOrUndefined(result.body));
                if (wire?.startsWith('internal_error')) violations.push({ kind: 'WebSocket handshake refused with internal_error', detail });
              }
              const usable = where === 'header' ? principal : principal?.type === 'session' || principal?.type === 'key' ? principal : null;
              const allowed =
                usable !== null && owner !== undefined && owner.account === usable.account && owner.mode === usable.mode && (usable.type !== 'session' || usable.conversation === id);
              if (result.status === 101 && !allowed) violations.push({ kind: `WebSocket opened for ${credential} via ${where} on ${owner ? `${owner.account}/${owner.mode}'s` : 'an unknown'} conversation`, detail });
            }),
          );
          report(style, violations);
        })),
        fuzzParameters(25),
      );
    });

    it('WebSocket frames (message, interrupt, arbitrary text and binary frames)', async () => {
      const input = fc.record({
        auth: fc.constantFrom('header', 'header', 'header-session', 'query-session'),
        frames: fc.array(wsFrameArb, { minLength: 1, maxLength: 10 }),
        paced: fc.boolean(),
      });
      await fc.assert(
        fc.asyncProperty(fc.limitShrink(input, 15), budgeted(15_000, async ({ auth, frames, paced }) => {
          const violations: Violation[] = [];
          const dedicated = await h.createConversation(h.t.key);
          h.pools.dedicated = [dedicated];
          const session = auth === 'header' ? undefined : ((await h.session(dedicated, h.t.key)) ?? undefined);
          const before = h.snapshot();
          const logMark = h.logged.length;
          const url = `${h.t.url.replace('http', 'ws')}/v1/conversations/${dedicated}/ws${auth === 'query-session' ? `?token=${session}` : ''}`;
          const ws = new WebSocket(url, auth === 'query-session' ? {} : { headers: { authorization: `Bearer ${session ?? h.t.key}` } });
          const received: { type: string; data: unknown }[] = [];
          let closed: { code: number; reason: string } | undefined;
          ws.on('message', (raw) => received.push((parseOrUndefined(raw.toString()) as { type: string; data: unknown }) ?? { type: '?', data: raw.toString() }));
          ws.on('close', (code, reason) => (closed = { code, reason: reason.toString() }));
          ws.on('error', () => undefined);
          const opened = await new Promise<boolean>((resolve) => {
            ws.once('open', () => resolve(true));
            ws.once('unexpected-response', () => resolve(false));
            ws.once('error', () => resolve(false));
          });
          if (!opened) {
            report(style, [{ kind: `WebSocket refused a valid ${auth} credential`, detail: `${style}: ${url}` }]);
            return;
          }
          let mayClose = false;
          const sent: { frame: WsFrame; text: string; kind: 'message' | 'interrupt' | 'invalid'; data: unknown }[] = [];
          for (const frame of frames) {
            counts.realtime++;
            if (ws.readyState !== WebSocket.OPEN) break;
            let text: string;
            if ('text' in frame) {
              text = h.resolveText(frame.text);
              ws.send(text);
              mayClose ||= Buffer.byteLength(text) > 64 * 1024;
            } else if ('binary' in frame) {
              text = Buffer.from(frame.binary).toString('utf8');
              ws.send(Buffer.from(frame.binary), { binary: true });
            } else {
              text = '\ufffd';
              ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
              mayClose = true;
            }
            const kind = classifyFrame(text);
            sent.push({ frame, text, kind, data: kind === 'message' ? (parseOrUndefined(text) as { data?: unknown }).data : undefined });
            if (paced) await sleep(5);
          }
          const messages = sent.filter((s) => s.kind === 'message');
          const invalid = sent.filter((s) => s.kind === 'invalid').length;
          const errorFrames = () => received.filter((r) => r.type === 'error').length;
          const storedNow = () => (h.snapshot().convs.get(dedicated)?.user ?? 0) - (before.convs.get(dedicated)?.user ?? 0);
          // Every frame but an interrupt yields a stored message or an error frame.
          await until(() => closed !== undefined || storedNow() + errorFrames() >= messages.length + invalid, 4000);
          await h.waitIdle(dedicated);
          await sleep(30);
          const transcript = () => `${style}: WebSocket (${auth}); sent:\n  ${sent.map((s) => `${s.kind}: ${abbreviate(s.text, 160)}`).join('\n  ')}\nerror frames: ${abbreviate(json(received.filter((r) => r.type === 'error').map((r) => r.data)), 500)}${closed ? `\nclosed ${closed.code} ${closed.reason}` : ''}`;
          for (const frame of received.filter((r) => r.type === 'error')) {
            const shape = wireErrorViolation(frame.data);
            if (shape) violations.push({ kind: `WebSocket error frame: ${shape.replace(/:.*/, '')}`, detail: transcript() });
          }
          const emptyErrors = received.filter((r) => r.type === 'error' && /content must not be empty/i.test(String((r.data as { error?: { message?: string } })?.error?.message)));
          if (emptyErrors.length && !messages.some((m) => hasBlankContent(m.data))) {
            violations.push({ kind: 'WebSocket error frame says "must not be empty" but no message frame had empty content', detail: transcript() });
          }
          if (closed && !mayClose) violations.push({ kind: `WebSocket closed after frames it should answer (${closed.code})`, detail: transcript() });
          if (!closed) {
            const errorsBefore = errorFrames();
            ws.send('probe: not JSON');
            const answered = await until(() => errorFrames() > errorsBefore, 2000);
            if (!answered) violations.push({ kind: 'WebSocket unusable after the frames (probe not answered)', detail: transcript() });
          }
          const errorsSeen = errorFrames() - (closed ? 0 : 1);
          ws.terminate();
          await h.waitIdle(dedicated);
          const after = h.snapshot();
          const added = h.realtimeDataCheck(before, after, dedicated, violations, transcript());
          const acceptable = messages.filter((m) => realtimeMessageViolation(m.data) === undefined).length;
          if (added > acceptable) violations.push({ kind: 'WebSocket stored a message the contract refuses', detail: `${added} stored, ${acceptable} acceptable\n${transcript()}` });
          if (!closed && added + errorsSeen !== messages.length + invalid) {
            violations.push({ kind: 'WebSocket frames not answered one for one (stored + error frames ≠ message + invalid frames)', detail: `${added} stored + ${errorsSeen} error frames, for ${messages.length} message and ${invalid} invalid frames\n${transcript()}` });
          }
          const logged = h.logged.slice(logMark);
          if (logged.length) violations.push({ kind: `the server logged an unexpected error (WebSocket): ${abbreviate(logged[0]!, 100)}`, detail: `${logged.join('\n')}\n${transcript()}` });
          report(style, violations);
        })),
        fuzzParameters(45),
      );
    });

    it('realtime messages count against the account request limit (socket.io and WebSocket)', async () => {
      const input = fc.record({ transport: fc.constantFrom('socket.io', 'ws'), extra: fc.integer({ min: 1, max: 6 }), contents: fc.array(goodText, { minLength: 1, maxLength: 4 }) });
      await fc.assert(
        fc.asyncProperty(input, budgeted(20_000, async ({ transport, extra, contents }) => {
          const { key, accountId, limit } = h.rateLimited;
          const conversation = (await h.t.service.conversations.create({ accountId, mode: 'test' }, { avatarId: 'luna-001', ttsProvider: 'browser' })).id;
          const n = 2 * limit + extra;
          const codes: string[] = [];
          if (transport === 'socket.io') {
            const client = await RawSocketIo.open(h.t.url);
            await client.connect(json({ token: key }));
            counts.realtime++;
            if (!client.connectReply?.ok) codes.push(String((client.connectReply?.payload as { data?: { error?: { code?: string } } } | undefined)?.data?.error?.code ?? `handshake failed ${json(client.closed)}`));
            const join = client.nextAckId();
            client.sendRaw(`42${join}["join",${json({ conversation_id: conversation })}]`);
            await until(() => client.acks.has(join) || !client.open, 3000);
            const ids: number[] = [];
            for (let i = 0; i < n && client.open && client.connectReply?.ok; i++) {
              counts.realtime++;
              const id = client.nextAckId();
              ids.push(id);
              client.sendRaw(`42${id}["message",${json({ content: contents[i % contents.length] })}]`);
              await until(() => client.acks.has(id) || !client.open, 3000);
            }
            for (const id of ids) codes.push(String(((client.acks.get(id) as { error?: { code?: string } }[] | undefined)?.[0])?.error?.code ?? 'ok'));
            client.close();
          } else {
            const ws = new WebSocket(`${h.t.url.replace('http', 'ws')}/v1/conversations/${conversation}/ws`, { headers: { authorization: `Bearer ${key}` } });
            const received: { type: string; data: { error?: { code?: string } } }[] = [];
            ws.on('message', (raw) => received.push(JSON.parse(raw.toString()) as (typeof received)[number]));
            ws.on('error', () => undefined);
            const status = await new Promise<number>((resolve) => {
              ws.once('open', () => resolve(101));
              ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
              ws.once('error', () => resolve(0));
            });
            if (status === 101) {
              for (let i = 0; i < n && ws.readyState === WebSocket.OPEN; i++) {
                counts.realtime++;
                ws.send(json({ type: 'message', data: { content: contents[i % contents.length] } }));
                await sleep(10);
              }
              await sleep(300);
              codes.push(...received.filter((r) => r.type === 'error').map((r) => String(r.data.error?.code)));
            } else codes.push(status === 429 ? 'rate_limited' : `handshake ${status}`);
            ws.terminate();
          }
          await h.waitIdle(conversation);
          const limited = codes.filter((c) => /^rate_limited$/i.test(c)).length;
          report(style, limited > 0 ? [] : [{ kind: `realtime messages (${transport}) not rate-limited: ${n} messages within seconds on a ${limit}/min account`, detail: `${style}: ${transport}, ${n} messages, answers: ${codes.join(', ') || 'none refused'}` }]);
        })),
        fuzzParameters(2),
      );
    });

    it('still healthy afterwards: GET /v1/health, and a socket.io-client conversation works', async () => {
      const health = await fetch(`${h.t.url}/v1/health`);
      assert.equal(health.status, 200);
      const id = await h.createConversation(h.t.key);
      const client = connectSocketIo(h.t.url, { path: '/v1/realtime', auth: { token: h.t.key }, transports: ['websocket'], reconnection: false, forceNew: true });
      try {
        const joined = (await client.timeout(5000).emitWithAck('join', { conversation_id: id })) as { ok: boolean };
        assert.equal(joined.ok, true, JSON.stringify(joined));
        const sent = (await client.timeout(5000).emitWithAck('message', { content: 'Still there?' })) as { ok: boolean };
        assert.equal(sent.ok, true, JSON.stringify(sent));
      } finally {
        client.close();
        await h.waitIdle(id);
      }
    });
  });
}

it('generated at least 10 000 requests across both styles', () => {
  const total = counts.http + counts.realtime;
  console.log(`fuzz: ${total} generated requests (${counts.http} HTTP, ${counts.realtime} realtime events, frames and handshakes; ${counts.retried} HTTP retried after a stale keep-alive connection; ${counts.skipped} runs skipped past a time budget)`);
  if (COLLECT) {
    console.log(`fuzz: ${findings.size} distinct violation(s)`);
    for (const [kind, { count, detail }] of [...findings].sort()) console.log(`\n### ${kind} (×${count})\n${detail.slice(0, 3000)}`);
  }
  assert.ok(total >= 10_000, `only ${total} generated requests`);
});
