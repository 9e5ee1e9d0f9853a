// Several processes share one webhook queue: two dispatchers, each with its own store (its own
// connection pool, as two server processes have), race over one PostgreSQL database full of due
// deliveries. Each delivery must be sent exactly once (`FOR UPDATE SKIP LOCKED`). SQLite is the
// one-process engine and is not raced here.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Store, WebhookRecord } from '../../../core/index.js';
import { WebhookDispatcher, WebhookOutbox, createIdGenerator, createPostgresStore, systemClock } from '../../../core/index.js';
import type { WebhookSender } from '../../../core/index.js';
import { startPostgres } from '../../support/postgres-engine.js';
import type { PostgresEngine } from '../../support/postgres-engine.js';

const WEBHOOKS = 6;
const EVENTS = 120; // 720 deliveries

let pgEngine: PostgresEngine;
before(async () => {
  pgEngine = await startPostgres();
});
after(() => pgEngine?.stop());

/** A receiver in memory: records every attempt, answers 200 after a turn of the timer queue. */
function recordingSender(sent: string[]): WebhookSender {
  return {
    async post(request) {
      sent.push(`${request.url} ${request.eventId}`);
      await new Promise((resolve) => setTimeout(resolve, 1));
      return { status: 200, error: undefined, durationMs: 1 };
    },
    close() {},
  };
}

const engines: [string, () => Promise<[Store, Store]>][] = [
  ['PostgreSQL', async () => {
    const url = await pgEngine.createDatabase();
    return [await createPostgresStore({ url, poolMax: 4 }), await createPostgresStore({ url, poolMax: 4 })];
  }],
];

for (const [engine, open] of engines) {
  describe(`two dispatchers on one ${engine} database`, () => {
    it(`deliver each of ${WEBHOOKS * EVENTS} due attempts exactly once between them`, async () => {
      const [storeA, storeB] = await open();
      try {
        await storeA.migrate();
        const ids = createIdGenerator();
        const now = systemClock.now();
        const account = { id: ids.next('acct'), email: 'race@example.com', passwordHash: 'x', tier: 'pro' as const, rpmOverride: null, connectionsOverride: null, createdAt: now };
        await storeA.accounts.create(account);
        const webhooks: WebhookRecord[] = [];
        for (let i = 0; i < WEBHOOKS; i++) {
          const webhook: WebhookRecord = {
            id: ids.next('wh'),
            accountId: account.id,
            mode: 'test',
            url: `https://receiver-${i}.example.com/in`,
            events: ['conversation.started'],
            secret: 'secret-0123456789abcdef',
            status: 'active',
            statusReason: null,
            statusSince: null,
            createdAt: now,
            updatedAt: now,
          };
          await storeA.webhooks.create(webhook);
          webhooks.push(webhook);
        }
        const expected: string[] = [];
        await storeA.transaction(async (tx) => {
          for (let e = 0; e < EVENTS; e++) {
            const event = { id: ids.next('evt'), accountId: account.id, mode: 'test' as const, type: 'conversation.started', body: `{"n":${e}}`, createdAt: now };
            await tx.webhookDeliveries.enqueue(event, webhooks.map((w) => ({ id: ids.next('dlv'), webhookId: w.id })));
            for (const w of webhooks) expected.push(`${w.url} ${event.id}`);
          }
        });

        const sentA: string[] = [];
        const sentB: string[] = [];
        const dispatcher = (store: Store, sent: string[]) =>
          new WebhookDispatcher({
            store,
            clock: systemClock,
            outbox: new WebhookOutbox({ clock: systemClock, ids }),
            sender: recordingSender(sent),
            mailer: undefined,
            retrySchedule: [5_000],
            leaseMs: 60_000,
            maxInFlight: 16,
            perWebhook: 4,
          });
        const a = dispatcher(storeA, sentA);
        const b = dispatcher(storeB, sentB);
        // Both relay the outbox and claim at once, until neither finds anything due.
        await Promise.all([a.drain(), b.drain()]);
        await Promise.all([a.close(), b.close()]);

        const sent = [...sentA, ...sentB];
        const twice = sent.filter((s, i) => sent.indexOf(s) !== i);
        assert.deepEqual(twice, [], 'no attempt delivered twice');
        assert.deepEqual([...sent].sort(), [...expected].sort(), 'every attempt delivered');
        assert.ok(sentA.length > 0 && sentB.length > 0, `both dispatchers took part (A ${sentA.length}, B ${sentB.length})`);
        for (const w of webhooks) {
          const log = await storeB.webhookDeliveries.listByWebhook(w.id, { limit: EVENTS + 1 });
          assert.equal(log.length, EVENTS);
          assert.ok(log.every((d) => d.status === 'succeeded' && d.attempts === 1), 'each delivery recorded once, succeeded on its first attempt');
        }
      } finally {
        await Promise.all([storeA.close(), storeB.close()]);
      }
    });
  });
}
