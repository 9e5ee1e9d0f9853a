// Two server processes (`dist/server/cli.js serve`) on different ports sharing one PostgreSQL, one
// Redis and one data folder (audio files): what one node does, the other sees (issue 19, item 3).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { io as connect } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import WebSocket from 'ws';
import type { ClientToServerEvents, ServerToClientEvents } from '../../core/index.js';
import { freePort, killCli, startCli, until } from '../support/processes.js';
import type { Cli } from '../support/processes.js';
import { repoRoot } from '../support/repo-root.js';
import { startPostgres } from '../support/postgres-engine.js';
import type { PostgresEngine } from '../support/postgres-engine.js';
import { startRedis } from '../support/redis-engine.js';
import type { RedisEngine } from '../support/redis-engine.js';
import { startReplayServer } from '../support/replay-server.js';
import type { ReplayServer } from '../support/replay-server.js';
import { startReceiver } from '../support/webhook-receiver.js';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
interface Node {
  url: string;
  cli: Cli;
}

const run = promisify(execFile);
const SECRET = 'multi-node-test-secret-0123456789abcdef';
const SLOW_PIECES = 80;

/** An OpenAI-compatible stream, one short sentence every 100 ms (replies go out sentence by sentence): a reply that is still running when a node is killed. */
function slowOpenAiStream() {
  const base = { id: 'chatcmpl-multi', object: 'chat.completion.chunk', created: 1741570283, model: 'gpt-4o-mini' };
  const event = (body: object) => `data: ${JSON.stringify({ ...base, ...body })}\n\n`;
  return {
    headers: { 'content-type': 'text/event-stream' },
    chunkDelayMs: 100,
    chunks: [
      ...Array.from({ length: SLOW_PIECES }, (_, i) => event({ choices: [{ index: 0, delta: { content: `Point ${i} is here. ` }, finish_reason: null }] })),
      event({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
      'data: [DONE]\n\n',
    ],
  };
}

describe('two nodes sharing PostgreSQL and Redis', () => {
  let postgres: PostgresEngine;
  let redis: RedisEngine;
  let vendor: ReplayServer;
  let dataDir: string;
  let env: Record<string, string>;
  let a: Node;
  let b: Node;
  const clients: { close(): void }[] = [];
  /** API keys by account e-mail. */
  const keys: Record<string, string> = {};

  async function cli(...args: string[]): Promise<Record<string, string>> {
    const { stdout } = await run(process.execPath, [join(repoRoot, 'dist/server/cli.js'), ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
    return JSON.parse(stdout) as Record<string, string>;
  }

  async function account(email: string, tier: string): Promise<void> {
    await cli('account', 'create', '--email', email, '--password', 'password-123', '--tier', tier);
    keys[email] = (await cli('keys', 'create', '--email', email, '--name', 'multi-node', '--test')).key!;
  }

  async function node(): Promise<Node> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    return { url, cli: await startCli({ ...env, PORT: String(port), PUBLIC_URL: url }) };
  }

  before(async () => {
    [postgres, redis, vendor] = await Promise.all([startPostgres(), startRedis(), startReplayServer(() => slowOpenAiStream())]);
    dataDir = await mkdtemp(join(tmpdir(), 'avatar-multi-node-'));
    env = {
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: await postgres.createDatabase(),
      REDIS_URL: redis.url,
      JWT_SECRET: SECRET,
      DEV_BOOTSTRAP: 'false',
      ACCESS_LOG: 'false',
      // Short leases, so a killed node's connection slots come free within the test.
      CONNECTION_LEASE_TTL: '1s',
      // Read caches trusted for an hour: what one node changes reaches the other's caches by broadcast alone.
      READ_CACHE_TTL: '1h',
      LOCAL_SPEECH_WORKERS: '1',
      DEFAULT_AI_PROVIDER: 'local',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: `${vendor.url}/v1`,
    };
    await cli('migrate');
    await Promise.all([account('pro@example.com', 'pro'), account('free@example.com', 'free'), account('creator@example.com', 'creator')]);
    a = await node();
    b = await node();
  });

  after(async () => {
    for (const client of clients) client.close();
    await Promise.all([killCli(a?.cli), killCli(b?.cli)]);
    await Promise.all([postgres?.stop(), redis?.stop(), vendor?.close()]);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  function request(node: Node, path: string, init: { method?: string; json?: unknown; key?: string; token?: string } = {}): Promise<Response> {
    return fetch(node.url + path, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${init.token ?? init.key ?? keys['pro@example.com']}`,
        ...(init.json !== undefined && { 'content-type': 'application/json' }),
      },
      ...(init.json !== undefined && { body: JSON.stringify(init.json) }),
    });
  }

  async function conversation(node: Node, extra: Record<string, string> = {}, key?: string): Promise<string> {
    const res = await request(node, '/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser', ...extra }, ...(key && { key }) });
    assert.equal(res.status, 201, await res.clone().text());
    return ((await res.json()) as { id: string }).id;
  }

  function socket(node: Node, token: string): Client {
    const client: Client = connect(node.url, { path: '/v1/realtime', auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    clients.push({ close: () => client.close() });
    return client;
  }

  /** A socket of `node` joined to the conversation, recording every event it receives. */
  async function joined(node: Node, conversationId: string, token = keys['pro@example.com']!) {
    const client = socket(node, token);
    const events: { type: string; data: unknown }[] = [];
    for (const type of ['message', 'state', 'done', 'error', 'conversation.ended'] as const) client.on(type, (data: unknown) => events.push({ type, data }));
    const ack = await client.timeout(5000).emitWithAck('join', { conversation_id: conversationId });
    assert.equal(ack.ok, true, JSON.stringify(ack));
    return { client, events };
  }

  /** A plain WebSocket of `node` on the conversation, recording its frames. */
  async function webSocket(node: Node, conversationId: string, key = keys['pro@example.com']!) {
    const ws = new WebSocket(`${node.url.replace('http', 'ws')}/v1/conversations/${conversationId}/ws`, { headers: { authorization: `Bearer ${key}` } });
    clients.push({ close: () => ws.terminate() });
    const frames: { type: string; data: unknown }[] = [];
    ws.on('message', (raw) => frames.push(JSON.parse(String(raw)) as { type: string; data: unknown }));
    let closeCode: number | undefined;
    ws.on('close', (code) => (closeCode = code));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return { ws, frames, closeCode: () => closeCode };
  }

  it('a reply sent through node B reaches a socket.io socket and a WebSocket joined on node A', async () => {
    const id = await conversation(a);
    const io = await joined(a, id);
    const ws = await webSocket(a, id);
    assert.equal((await request(a, `/v1/conversations/${id}`)).status, 200); // now in node A's read cache
    const res = await request(b, `/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'hello from the other node' } });
    assert.equal(res.status, 200, await res.clone().text());
    const reply = (await res.json()) as { id: string; content: string };
    await until(() => io.events.some((e) => e.type === 'done') && ws.frames.some((f) => f.type === 'done'), 'done on both transports of node A');
    for (const events of [io.events, ws.frames]) {
      assert.equal((events.find((e) => e.type === 'done')!.data as { id: string }).id, reply.id);
      assert.equal(events.filter((e) => e.type === 'message').map((e) => (e.data as { delta: string }).delta).join(''), reply.content);
      assert.deepEqual(
        events.filter((e) => e.type === 'state').map((e) => (e.data as { state: string }).state),
        ['thinking', 'talking', 'idle'],
      );
    }
    // Node A's cached read of the conversation gave way to node B's writes.
    const read = (await (await request(a, `/v1/conversations/${id}`)).json()) as { messages: { id: string }[] };
    assert.ok(read.messages.some((message) => message.id === reply.id), 'node A serves the reply node B stored');
    // And the other way round: a reply started by a socket on A reaches a WebSocket on B.
    const onB = await webSocket(b, id);
    const ack = await io.client.timeout(5000).emitWithAck('message', { content: 'and back' });
    assert.equal(ack.ok, true);
    await until(() => onB.frames.some((f) => f.type === 'done'), 'done on node B');
  });

  it('a 10-requests-a-minute account gets exactly 10 successes across both nodes', async () => {
    // All requests in one fixed window: start early in a minute.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 100));
    const key = keys['free@example.com']!;
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => request(i % 2 ? b : a, '/v1/usage', { key })));
    const statuses = answers.map((res) => res.status);
    assert.equal(statuses.filter((s) => s === 200).length, 10, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 429).length, 6, statuses.join(','));
    const remaining = answers.filter((res) => res.status === 200).map((res) => Number(res.headers.get('x-ratelimit-remaining')));
    assert.deepEqual(remaining.sort((x, y) => x - y), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const refused of answers.filter((res) => res.status === 429)) {
      assert.equal(refused.headers.get('x-ratelimit-limit'), '10');
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    }
  });

  it('delivers each webhook attempt exactly once with both dispatchers running', async () => {
    const receiver = await startReceiver({ secret: 'multi-node-webhook-secret' });
    try {
      const created = await request(a, '/v1/webhooks', {
        method: 'POST',
        json: { url: receiver.url, events: ['conversation.started'], secret: 'multi-node-webhook-secret' },
      });
      assert.equal(created.status, 201, await created.clone().text());
      const count = 30;
      const ids = await Promise.all(Array.from({ length: count }, (_, i) => conversation(i % 2 ? b : a)));
      await receiver.waitFor((events) => new Set(events.map((e) => e.body.data.conversationId)).size >= count, 20_000);
      // Both dispatchers poll every second: a few rounds for a duplicate to show up if there were one.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const delivered = receiver.ofType('conversation.started');
      assert.deepEqual(delivered.map((e) => e.body.data.conversationId).sort(), [...ids].sort());
      assert.equal(new Set(delivered.map((e) => e.body.id)).size, count, 'one delivery per event');
      assert.ok(delivered.every((e) => e.verified && e.headers['x-service-delivery-attempt'] === '1'));
    } finally {
      await receiver.close();
    }
  });

  it('a key revoked on node A is refused on node B and ends node B’s open sockets', async () => {
    const login = await fetch(`${a.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'pro@example.com', password: 'password-123' }),
    });
    const { token } = (await login.json()) as { token: string };
    const made = await request(a, '/v1/api-keys', { method: 'POST', json: { name: 'to revoke' }, token });
    const doomed = (await made.json()) as { id: string; key: string };
    const id = await conversation(b, {}, doomed.key);
    const io = await joined(b, id, doomed.key);
    let disconnected = false;
    io.client.on('disconnect', () => (disconnected = true));
    const ws = await webSocket(b, id, doomed.key);
    assert.equal((await request(b, `/v1/conversations/${id}`, { key: doomed.key })).status, 200);

    assert.equal((await request(a, `/v1/api-keys/${doomed.id}`, { method: 'DELETE', token })).status, 200);
    // Node B's periodic re-check runs every 15 s; the broadcast ends them well before.
    await until(() => disconnected && ws.closeCode() !== undefined, 'node B to end both connections', 5_000);
    assert.equal(ws.closeCode(), 4401);
    assert.ok(io.events.some((e) => e.type === 'error' && /revoked/.test(JSON.stringify(e.data))));
    assert.equal((await request(b, `/v1/conversations/${id}`, { key: doomed.key })).status, 401);
  });

  it('killing node A mid-reply leaves node B serving and frees node A’s connection slots once their leases expire', async () => {
    // A creator account holds 10 connections; all 10 on node A.
    const creator = keys['creator@example.com']!;
    const slotsConversation = await conversation(a, {}, creator);
    for (let i = 0; i < 10; i++) await joined(a, slotsConversation, creator);
    const refused = socket(b, creator);
    const refusal = await new Promise<{ data?: { error?: { code?: string } } }>((resolve) => refused.once('connect_error', resolve as never));
    assert.equal(refusal.data?.error?.code, 'too_many_connections');

    // A reply running on node A (a slow vendor stream), watched from node B.
    const id = await conversation(a, { ai_provider: 'openai' });
    const onA = await joined(a, id);
    const onB = await joined(b, id);
    const ack = await onA.client.timeout(5000).emitWithAck('message', { content: 'talk for a while' });
    assert.equal(ack.ok, true);
    await until(() => onB.events.filter((e) => e.type === 'message').length >= 3, 'node B to see the reply begin');
    await killCli(a.cli);
    assert.ok(!onB.events.some((e) => e.type === 'done'), 'the reply was still running when node A died');

    // Node B goes on serving: ready (its database and Redis answer), REST, a reply of its own, the socket it holds.
    const ready = await fetch(`${b.url}/health/ready`);
    assert.equal(ready.status, 200);
    assert.equal(((await ready.json()) as { checks: { redis?: { status: string } } }).checks.redis?.status, 'ok');
    assert.equal((await request(b, `/v1/conversations/${id}`)).status, 200);
    const other = await conversation(b);
    const res = await request(b, `/v1/conversations/${other}/messages`, { method: 'POST', json: { content: 'still there?' } });
    assert.equal(res.status, 200);
    assert.ok(onB.client.connected);

    // Node A's 10 slots come free when their leases expire (no heartbeat refreshes them): node B
    // then holds all 10, and refuses an 11th.
    let first: Client | undefined;
    await until(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 250)); // each try is a request of the account
        const probe = socket(b, creator);
        const ok = await new Promise<boolean>((resolve) => {
          probe.once('connect', () => resolve(true));
          probe.once('connect_error', () => resolve(false));
        });
        if (ok) first = probe;
        else probe.close();
        return ok;
      },
      'a slot on node B',
      10_000,
    );
    assert.ok(first);
    for (let i = 0; i < 9; i++) await joined(b, slotsConversation, creator);
    const eleventh = socket(b, creator);
    const over = await new Promise<{ data?: { error?: { code?: string } } }>((resolve) => eleventh.once('connect_error', resolve as never));
    assert.equal(over.data?.error?.code, 'too_many_connections');
  });
});
