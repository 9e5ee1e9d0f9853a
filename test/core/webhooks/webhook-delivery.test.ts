import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import type { AvatarService, Mailer, Owner } from '../../../core/index.js';
import { EmlFileMailer, SmtpMailer, WebhookEventTypes } from '../../../core/index.js';
import { startCoreService } from '../../support/core-service.js';
import { startReceiver } from '../../support/webhook-receiver.js';
import type { Receiver } from '../../support/webhook-receiver.js';

const T0 = Date.UTC(2026, 5, 1, 12);
const SECRET = 'whsec-test-0123456789abcdef';
const SCHEDULE = [5_000, 30_000, 300_000, 3_600_000];

const work = await mkdtemp(join(tmpdir(), 'avatar-webhooks-'));
after(() => rm(work, { recursive: true, force: true }));
let dirs = 0;

/** A real SMTP server on loopback that keeps every message it is given. */
async function startSmtp() {
  const messages: { to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = ((server as unknown as { server: { address(): AddressInfo } }).server.address()).port;
  return { url: `smtp://127.0.0.1:${port}`, messages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

interface Setup {
  service: AvatarService;
  clock: { now(): number; advance(ms: number): void };
  owner: Owner;
  receiver: Receiver;
  drain(): Promise<void>;
}

/** The core on a manual clock with one account and one receiver answering as `respond` says. */
async function setup(t: TestContext, options: { mailer?: Mailer; respond?: (n: number) => number; timeoutMs?: number } = {}): Promise<Setup> {
  const { service, clock } = await startCoreService(t, T0, {
    webhooks: { allowInsecure: true, retrySchedule: SCHEDULE, ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }) },
    ...(options.mailer && { mailer: options.mailer }),
  });
  const account = await service.accounts.createAccount({ email: 'owner@example.com', password: 'password-owner', tier: 'pro' });
  const receiver = await startReceiver({ secret: SECRET, clock: () => clock.now(), ...(options.respond && { respond: options.respond }) });
  t.after(() => receiver.close());
  return {
    service,
    clock,
    owner: { accountId: account.id, mode: 'test' },
    receiver,
    drain: () => service.webhookDispatcher.drain(),
  };
}

describe('Webhook delivery: retries, failing, e-mail', () => {
  it('retries on the schedule (0, 5 s, 35 s, 5 min 35 s, 1 h 5 min 35 s) with the same event id, never early; one e-mail over SMTP when failing', async (t) => {
    const smtp = await startSmtp();
    t.after(() => smtp.close());
    let healthy = false;
    const { service, clock, owner, receiver, drain } = await setup(t, {
      mailer: new SmtpMailer({ url: smtp.url, from: 'Avatars <noreply@example.com>' }),
      respond: () => (healthy ? 200 : 500),
    });
    const webhook = await service.webhooks.create(owner, { url: receiver.url, events: ['conversation.started'], secret: SECRET });
    const conversation = await service.conversations.create(owner, { avatarId: 'luna-001' });
    await drain();
    assert.equal(receiver.received.length, 1, 'the first attempt goes at once');

    for (const delay of SCHEDULE) {
      const before: number = receiver.received.length;
      clock.advance(delay - 1);
      await drain();
      assert.equal(receiver.received.length, before, `no attempt 1 ms before the ${delay} ms delay is over`);
      clock.advance(1);
      await drain();
      assert.equal(receiver.received.length, before + 1, `an attempt once the ${delay} ms delay is over`);
    }
    assert.deepEqual(receiver.received.map((e) => e.at - T0), [0, 5_000, 35_000, 335_000, 3_935_000]);
    assert.ok(receiver.received.every((e) => e.verified), 'every attempt is signed with the secret');
    assert.deepEqual(new Set(receiver.received.map((e) => e.body.id)).size, 1, 'one event id on every attempt');
    assert.deepEqual(receiver.received.map((e) => e.headers['x-service-delivery-attempt']), ['1', '2', '3', '4', '5']);
    assert.deepEqual(new Set(receiver.received.map((e) => e.raw)).size, 1, 'the same bytes on every attempt');
    const event = receiver.received[0]!;
    assert.equal(event.headers['x-service-event-id'], event.body.id);
    assert.equal(event.headers['x-service-event-type'], 'conversation.started');
    assert.equal(event.body.data.conversationId, conversation.id);

    clock.advance(24 * 3_600_000);
    await drain();
    assert.equal(receiver.received.length, 5, 'five attempts in all: nothing after the last retry');
    const [delivery] = (await service.webhooks.deliveries(owner, webhook.id, { limit: 10 })).items;
    assert.equal(delivery?.status, 'failed');
    assert.equal(delivery?.attempts, 5);
    assert.equal(delivery?.lastResponseStatus, 500);
    assert.match(delivery?.lastError ?? '', /500/);
    assert.equal(delivery?.nextAttemptAt, null);

    const failing = await service.webhooks.get(owner, webhook.id);
    assert.equal(failing.status, 'failing');
    assert.equal(failing.statusSince, T0 + 335_000, 'failing since the 4th failure');
    assert.equal(smtp.messages.length, 1, 'exactly one e-mail, however many attempts fail');
    const mail = smtp.messages[0]!;
    assert.deepEqual(mail.to, ['owner@example.com']);
    const text = mail.raw.replace(/=\r\n/g, '');
    assert.match(text, new RegExp(`Subject: Webhook ${webhook.id} is failing`));
    assert.ok(text.includes(webhook.id) && text.includes(receiver.url), 'names the webhook and its URL');
    assert.ok(text.includes(new Date(T0 + 335_000).toISOString()), 'says since when');
    assert.match(text, /the receiver answered 500/, 'gives the last error');
    assert.match(text, /status.{1,12}active/, 'says how to re-enable it');

    // Another event fails its first attempts: still no second e-mail.
    await service.conversations.create(owner, { avatarId: 'luna-001' });
    for (const delay of [0, ...SCHEDULE]) {
      clock.advance(delay);
      await drain();
    }
    assert.equal(smtp.messages.length, 1, 'no second e-mail while it stays failing');

    // Recovery: the next success sets it active again.
    healthy = true;
    await service.conversations.create(owner, { avatarId: 'luna-001' });
    await drain();
    assert.equal(receiver.received.at(-1)?.body.type, 'conversation.started');
    const recovered = await service.webhooks.get(owner, webhook.id);
    assert.equal(recovered.status, 'active');
    assert.equal(recovered.statusReason, null);
  });

  it('without SMTP the one e-mail is an .eml file in the mail folder', async (t) => {
    const directory = join(work, `mail-${dirs++}`);
    const { service, clock, owner, receiver, drain } = await setup(t, {
      mailer: new EmlFileMailer({ directory, from: 'avatar-service <noreply@localhost>' }),
      respond: () => 503,
    });
    const webhook = await service.webhooks.create(owner, { url: receiver.url, events: ['conversation.started'], secret: SECRET });
    await service.conversations.create(owner, { avatarId: 'luna-001' });
    await service.conversations.create(owner, { avatarId: 'atlas-002' });
    for (const delay of [0, ...SCHEDULE, 60_000]) {
      clock.advance(delay);
      await drain();
    }
    assert.equal(receiver.received.length, 10, 'two events, five attempts each');
    const files = await readdir(directory);
    assert.equal(files.length, 1, `one .eml for two events failing together, got ${files.join(', ')}`);
    assert.match(files[0]!, /\.eml$/);
    const eml = (await readFile(join(directory, files[0]!), 'utf8')).replace(/=\r\n/g, '');
    assert.match(eml, /^To: owner@example\.com/m);
    assert.ok(eml.includes(webhook.id));
    assert.match(eml, /the receiver answered 503/);
  });

  it('a 2xx is never retried', async (t) => {
    const { service, clock, owner, receiver, drain } = await setup(t, { respond: () => 204 });
    const webhook = await service.webhooks.create(owner, { url: receiver.url, events: ['conversation.started', 'conversation.ended'], secret: SECRET });
    const conversation = await service.conversations.create(owner, { avatarId: 'luna-001' });
    await service.conversations.end(owner, conversation.id);
    await drain();
    for (const delay of [...SCHEDULE, 24 * 3_600_000]) {
      clock.advance(delay);
      await drain();
    }
    assert.deepEqual(receiver.received.map((e) => e.body.type), ['conversation.started', 'conversation.ended']);
    const { items } = await service.webhooks.deliveries(owner, webhook.id, { limit: 10 });
    assert.deepEqual(items.map((d) => [d.eventType, d.status, d.attempts, d.lastResponseStatus]), [
      ['conversation.ended', 'succeeded', 1, 204],
      ['conversation.started', 'succeeded', 1, 204],
    ], 'newest first');
  });

  it('410 Gone disables the webhook, records why, and cancels what was pending', async (t) => {
    const { service, clock, owner, receiver, drain } = await setup(t, { respond: (n) => (n === 0 ? 500 : 410) });
    const webhook = await service.webhooks.create(owner, { url: receiver.url, events: ['conversation.started'], secret: SECRET });
    await service.conversations.create(owner, { avatarId: 'luna-001' });
    await drain();
    await service.conversations.create(owner, { avatarId: 'luna-001' });
    await drain();
    assert.equal(receiver.received.length, 2);
    const disabled = await service.webhooks.get(owner, webhook.id);
    assert.equal(disabled.status, 'disabled');
    assert.match(disabled.statusReason ?? '', /410 Gone/);
    clock.advance(2 * 3_600_000);
    await service.conversations.create(owner, { avatarId: 'luna-001' });
    await drain();
    assert.equal(receiver.received.length, 2, 'neither the pending retry nor new events are sent');
    const { items } = await service.webhooks.deliveries(owner, webhook.id, { limit: 10 });
    assert.deepEqual(items.map((d) => d.status), ['failed', 'cancelled']);

    // Re-enabled by its owner, it receives new events again.
    await service.webhooks.update(owner, webhook.id, { status: 'active' });
    await service.conversations.create(owner, { avatarId: 'luna-001' });
    await drain();
    assert.equal(receiver.received.length, 3);
  });

  it('a claim held by a dispatcher that died lapses, and the same event is delivered', async (t) => {
    const { service, clock, owner, receiver } = await setup(t, { timeoutMs: 2_000 });
    await service.webhookDispatcher.close(); // this test plays the dispatchers itself
    await service.webhooks.create(owner, { url: receiver.url, events: ['conversation.started'], secret: SECRET });
    await service.conversations.create(owner, { avatarId: 'luna-001' });
    assert.equal(await service.store.transaction((tx) => tx.webhookDeliveries.relayOutbox(10)), 1, 'the event moves from the outbox');
    const claimed = await service.store.webhookDeliveries.claimDue({ now: clock.now(), lockedUntil: clock.now() + 5_000, limit: 10, perWebhook: 10, skipWebhooks: [] });
    assert.equal(claimed.length, 1, 'a first dispatcher claims the delivery, then dies');
    const again = await service.store.webhookDeliveries.claimDue({ now: clock.now(), lockedUntil: clock.now() + 5_000, limit: 10, perWebhook: 10, skipWebhooks: [] });
    assert.equal(again.length, 0, 'nobody else can claim it while the claim holds');
    clock.advance(5_000);
    const { WebhookDispatcher, WebhookOutbox, WebhookPoster } = await import('../../../core/index.js');
    const successor = new WebhookDispatcher({
      store: service.store,
      clock,
      outbox: new WebhookOutbox({ clock, ids: service.ids }),
      sender: new WebhookPoster({ policy: { allowInsecure: true }, timeoutMs: 2_000, connectTimeoutMs: 1_000 }),
      mailer: undefined,
      retrySchedule: SCHEDULE,
      leaseMs: 5_000,
    });
    await successor.drain();
    await successor.close();
    assert.equal(receiver.received.length, 1);
    assert.equal(receiver.received[0]!.body.id, JSON.parse(claimed[0]!.body).id, 'the same event id');
  });

  it('closing hands back claimed deliveries it has not started and waits for the attempts in flight', async (t) => {
    const { service, clock, owner } = await setup(t);
    await service.webhookDispatcher.close(); // this test plays the dispatcher itself
    const webhook = await service.webhooks.create(owner, { url: 'http://127.0.0.1:9/hooks', events: ['conversation.started'], secret: SECRET });
    for (let i = 0; i < 4; i++) await service.conversations.create(owner, { avatarId: 'luna-001' });
    let calls = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { WebhookDispatcher, WebhookOutbox } = await import('../../../core/index.js');
    // Two attempts per webhook at once: the first answers at once, the others hang until released,
    // so the claim made after the first one ends takes two deliveries, one of which must wait.
    const dispatcher = new WebhookDispatcher({
      store: service.store,
      clock,
      outbox: new WebhookOutbox({ clock, ids: service.ids }),
      sender: {
        async post() {
          calls++;
          if (calls > 1) await held;
          return { status: 200, error: undefined, durationMs: 1 };
        },
        close() {},
      },
      mailer: undefined,
      retrySchedule: SCHEDULE,
      leaseMs: 60_000,
      perWebhook: 2,
    });
    dispatcher.start();
    const deliveries = () => service.store.webhookDeliveries.listByWebhook(webhook.id, { limit: 10 });
    for (let i = 0; i < 500 && calls < 3; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(calls, 3, 'two attempts hang, one delivery waits for a slot');
    assert.equal((await deliveries()).filter((d) => d.lockedUntil !== null).length, 3, 'three held: two running, one waiting');
    const closing = dispatcher.close();
    let handedBack = false;
    for (let i = 0; i < 500 && !handedBack; i++) {
      handedBack = (await deliveries()).filter((d) => d.status === 'pending' && d.lockedUntil === null && d.attempts === 0).length === 1;
      if (!handedBack) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.ok(handedBack, 'the waiting delivery is handed back while the attempts in flight still run');
    release();
    await closing;
    const final = await deliveries();
    assert.deepEqual(final.map((d) => d.status).sort(), ['pending', 'succeeded', 'succeeded', 'succeeded']);
    assert.equal(calls, 3, 'nothing new is started once closing');
    const claims = await service.store.webhookDeliveries.claimDue({ now: clock.now(), lockedUntil: clock.now() + 1_000, limit: 10, perWebhook: 10, skipWebhooks: [] });
    assert.equal(claims.length, 1, 'another dispatcher can claim the handed-back delivery at once');
  });

  it('a slow receiver does not delay deliveries to others', async (t) => {
    const hung: import('node:http').ServerResponse[] = [];
    let released = false;
    const { service, owner, receiver: fast } = await setup(t, { timeoutMs: 30_000 });
    const slow = await startReceiver({
      secret: SECRET,
      respond: (_n, _e, res) => {
        if (released) return 200;
        hung.push(res);
        return 'handled';
      },
    });
    t.after(() => slow.close());
    await service.webhooks.create(owner, { url: slow.url, events: ['conversation.started'], secret: SECRET });
    for (let i = 0; i < 30; i++) await service.conversations.create(owner, { avatarId: 'luna-001' });
    await slow.waitFor((events) => events.length >= 8);
    const other = await service.accounts.createAccount({ email: 'other@example.com', password: 'password-other' });
    const otherOwner: Owner = { accountId: other.id, mode: 'test' };
    await service.webhooks.create(otherOwner, { url: fast.url, events: ['conversation.started'], secret: SECRET });
    for (let i = 0; i < 20; i++) await service.conversations.create(otherOwner, { avatarId: 'atlas-002' });
    await fast.waitFor((events) => events.length === 20, 5_000);
    assert.equal(slow.received.length, 8, 'the slow receiver holds at most its per-webhook share of slots');
    released = true;
    for (const res of hung.splice(0)) res.writeHead(200).end();
    await slow.waitFor((events) => events.length === 30);
  });

  it('every event type goes through the same pipeline as a test event (data.test: true)', async (t) => {
    const { service, owner, receiver, drain } = await setup(t);
    const webhook = await service.webhooks.create(owner, { url: receiver.url, events: ['message.created'], secret: SECRET });
    const ids = [];
    for (const type of WebhookEventTypes) ids.push(await service.webhooks.sendTest(owner, { event: type, webhookId: webhook.id }));
    await drain();
    const byType = new Map(receiver.received.map((e) => [e.body.type, e.body.id]));
    assert.deepEqual([...byType.keys()].sort(), [...WebhookEventTypes].sort(), 'sent to the named webhook whatever it subscribes to');
    assert.deepEqual(WebhookEventTypes.map((type) => byType.get(type)), ids, 'the ids sendTest returned');
    assert.ok(receiver.received.every((e) => e.verified && e.body.data.test === true));
  });

  it('a reply a crash left half-written is sent as message.created when the next start keeps it', async (t) => {
    const { service, owner, receiver, drain } = await setup(t);
    await service.webhooks.create(owner, { url: receiver.url, events: ['message.created'], secret: SECRET });
    const conversation = await service.conversations.create(owner, { avatarId: 'luna-001' });
    const stranded = {
      id: service.ids.next('msg'),
      conversationId: conversation.id,
      role: 'assistant' as const,
      content: 'I was saying',
      status: 'streaming' as const,
      audioKey: null,
      audioBase: null,
      audioError: null,
      aiTokens: 0,
      ttsCharacters: 0,
      createdAt: T0,
      safety: [],
    };
    await service.store.messages.create(stranded);
    assert.equal(await service.conversations.recoverInterrupted(), 1);
    await drain();
    assert.deepEqual(receiver.received.map((e) => e.body.data), [
      { conversationId: conversation.id, avatarId: 'luna-001', message: { id: stranded.id, role: 'assistant', content: 'I was saying' } },
    ]);
  });
});
