import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { connect, createServer as createNetServer } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import { startReceiver } from '../support/webhook-receiver.js';
import type { Receiver } from '../support/webhook-receiver.js';
import { freePort, killCli, startCli, until } from '../support/processes.js';
import type { Cli } from '../support/processes.js';

const SECRET = 'whsec-restart-0123456789abcdef';

interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  error: string | null;
}






/**
 * A CLI server on a fresh DATA_DIR with the demo key and one webhook (conversation.started →
 * `hookUrl`); `restart` SIGKILLs the running process and starts another on the same DATA_DIR
 * and port. Everything is torn down in `t.after`.
 */
async function scenario(t: TestContext, hookUrl: string, extraEnv: Record<string, string> = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'avatar-webhook-restart-'));
  const clis: Cli[] = [];
  t.after(async () => {
    for (const cli of clis) await killCli(cli);
    await rm(dataDir, { recursive: true, force: true });
  });
  const port = await freePort();
  const env = {
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEV_BOOTSTRAP: 'true',
    ACCESS_LOG: 'false',
    ALLOW_INSECURE_WEBHOOKS: 'true',
    ...extraEnv,
  };
  clis.push(await startCli(env));
  const key = /API key: (svc_test_[0-9A-Za-z]+)/.exec(clis[0]!.output())?.[1];
  assert.ok(key, `no demo key printed:\n${clis[0]!.output()}`);
  const api = async (path: string, method = 'GET', json?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(json !== undefined && { 'content-type': 'application/json' }) },
      ...(json !== undefined && { body: JSON.stringify(json) }),
    });
    const text = await res.text();
    return { status: res.status, text, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
  const hook = await api('/v1/webhooks', 'POST', { url: hookUrl, events: ['conversation.started'], secret: SECRET });
  assert.equal(hook.status, 201, hook.text);
  const webhookId = hook.body.id as string;
  return {
    api,
    async createConversation(): Promise<string> {
      const created = await api('/v1/conversations', 'POST', { avatar_id: 'luna-001', tts_provider: 'browser' });
      assert.equal(created.status, 201, created.text);
      return created.body.id as string;
    },
    async deliveries(): Promise<Delivery[]> {
      const res = await api(`/v1/webhooks/${webhookId}/deliveries`);
      assert.equal(res.status, 200, res.text);
      return res.body.deliveries as Delivery[];
    },
    killServer: () => killCli(clis.at(-1)),
    async restart(): Promise<void> {
      await killCli(clis.at(-1));
      clis.push(await startCli(env));
    },
    output: () => clis.map((cli, i) => `--- process ${i + 1}\n${cli.output()}`).join('\n'),
  };
}

/** Waits until the only delivery of the webhook has settled (the server records it after the receiver answered). */
async function settled(s: Awaited<ReturnType<typeof scenario>>): Promise<Delivery[]> {
  let list: Delivery[] = [];
  await until(async () => (list = await s.deliveries()).every((d) => d.status !== 'pending'), 'the delivery to be recorded', 15_000);
  return list;
}

/**
 * Webhook delivery at process level: the real CLI (`dist/server/cli.js serve`) is SIGKILLed
 * between enqueue and a successful delivery and restarted on the same DATA_DIR. Proven: the event
 * is in the store, not in the killed process's memory (transactional outbox), and the restarted
 * process delivers it — with the same event id and the same signed bytes, so a receiver can
 * deduplicate — whether the kill hit an attempt in flight (its claim lapses after
 * leaseMs = 2 × WEBHOOK_TIMEOUT + 1 s and the new process takes it over) or a delivery waiting
 * for its retry. Each case ends with exactly one delivery row, `succeeded`, and one event id.
 */
describe('Process level: webhooks survive SIGKILL', () => {
  it('killed while the attempt is in flight: the restarted process redelivers the same event, as attempt 1 again', async (t) => {
    const hung: ServerResponse[] = [];
    // The first request is never answered; every later one gets 200.
    const receiver = await startReceiver({ secret: SECRET, respond: (n, _event, res) => (n === 0 ? (hung.push(res), 'handled') : 200) });
    t.after(async () => {
      for (const res of hung) if (!res.writableEnded) res.end();
      await receiver.close();
    });
    // WEBHOOK_TIMEOUT 2 s (lease 5 s): the kill must land before the killed process's attempt times
    // out and gets recorded; 2 s is a wide margin for a kill that takes milliseconds.
    const s = await scenario(t, receiver.url, { WEBHOOK_TIMEOUT: '2s' });
    const conversationId = await s.createConversation();
    await receiver.waitFor((events) => events.length >= 1, 15_000);
    const first = receiver.received[0]!;
    const eventId = first.body.id;
    assert.equal(first.body.data.conversationId, conversationId);
    assert.equal(first.headers['x-service-delivery-attempt'], '1');

    await s.restart();
    await receiver.waitFor((events) => events.length >= 2, 30_000).catch((error: Error) => assert.fail(`${error.message}\n${s.output()}`));
    const second = receiver.received[1]!;
    assert.equal(second.body.id, eventId, 'the same event id after the restart');
    assert.equal(second.headers['x-service-event-id'], eventId);
    assert.equal(second.body.type, 'conversation.started');
    assert.ok(second.verified, 'the redelivery is signed with the webhook secret');
    assert.equal(second.raw, first.raw, 'every attempt sends the same bytes');
    // Attempt 1 again, not 2: the dispatcher numbers an attempt as the stored `attempts` + 1 and
    // stores it only when the attempt ends. The killed attempt never ended, so the row still says
    // 0 attempts (only its claim, locked_until, was written) and the takeover is attempt 1 again.
    assert.equal(second.headers['x-service-delivery-attempt'], '1');

    const deliveries = await settled(s);
    assert.equal(deliveries.length, 1, JSON.stringify(deliveries));
    assert.equal(deliveries[0]!.status, 'succeeded', JSON.stringify(deliveries[0]));
    assert.equal(deliveries[0]!.event_id, eventId);
    assert.equal(deliveries[0]!.attempts, 1);
    assert.equal(receiver.received.length, 2, 'nothing more was sent after the success');
  });

  it('killed after enqueue, before any attempt reached the receiver: the restarted process delivers the event id the API reported', async (t) => {
    // The receiver's port is reserved and closed: attempts fail with ECONNREFUSED until it listens.
    const hookPort = await freePort();
    const s = await scenario(t, `http://127.0.0.1:${hookPort}/hooks`, { WEBHOOK_TIMEOUT: '2s', WEBHOOK_RETRY_SCHEDULE: '2s,2s' });
    const conversationId = await s.createConversation();
    let before: Delivery | undefined;
    await until(async () => ((before = (await s.deliveries())[0]) ?? { attempts: 0 }).attempts >= 1, 'the first attempt to fail', 15_000);
    assert.equal(before!.status, 'pending', JSON.stringify(before));
    assert.equal(before!.event_type, 'conversation.started');
    assert.match(before!.error ?? '', /ECONNREFUSED/);
    await s.killServer();

    // Now the receiver listens on that port: a TCP relay to the signature-checking receiver.
    const receiver: Receiver = await startReceiver({ secret: SECRET });
    const sockets = new Set<Socket>();
    const relay = createNetServer((client) => {
      const upstream = connect(Number(new URL(receiver.url).port), '127.0.0.1');
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => undefined).on('close', () => (client.destroy(), upstream.destroy(), sockets.delete(socket)));
      }
      client.pipe(upstream).pipe(client);
    });
    t.after(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => relay.close(resolve));
      await receiver.close();
    });
    await new Promise<void>((resolve) => relay.listen(hookPort, '127.0.0.1', resolve));

    await s.restart();
    await receiver.waitFor((events) => events.length >= 1, 30_000).catch((error: Error) => assert.fail(`${error.message}\n${s.output()}`));
    const event = receiver.received[0]!;
    assert.equal(event.body.id, before!.event_id, 'the event id GET /deliveries reported before the kill');
    assert.equal(event.headers['x-service-event-id'], before!.event_id);
    assert.equal(event.body.type, 'conversation.started');
    assert.equal(event.body.data.conversationId, conversationId);
    assert.ok(event.verified, 'the delivery is signed with the webhook secret');
    // The failed attempt before the kill was recorded, so this one is numbered after it.
    assert.equal(event.headers['x-service-delivery-attempt'], String(before!.attempts + 1));

    const deliveries = await settled(s);
    assert.equal(deliveries.length, 1, JSON.stringify(deliveries));
    assert.equal(deliveries[0]!.status, 'succeeded', JSON.stringify(deliveries[0]));
    assert.equal(deliveries[0]!.attempts, before!.attempts + 1);
    assert.deepEqual([...new Set(receiver.received.map((e) => e.body.id))], [before!.event_id], 'exactly one event id was ever received');
    assert.equal(receiver.received.length, 1);
  });
});
