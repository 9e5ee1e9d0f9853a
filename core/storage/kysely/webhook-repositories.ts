import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DeliveryPatch, WebhookDeliveryRepository, WebhookPatch, WebhookRepository } from '../../ports/store.js';
import type { Database, WebhookDeliveriesTable, WebhooksTable } from './database.js';
import { precompile } from './precompiled-query.js';
import type { PrecompiledQuery } from './precompiled-query.js';
import { toDelivery, toWebhook } from './row-mappers.js';

const P1 = '\u0000p1';
const P2 = '\u0000p2';

function webhookRow(patch: WebhookPatch): Partial<WebhooksTable> {
  return {
    ...(patch.url !== undefined && { url: patch.url }),
    ...(patch.events !== undefined && { events: JSON.stringify(patch.events) }),
    ...(patch.secret !== undefined && { secret: patch.secret }),
    ...(patch.status !== undefined && { status: patch.status }),
    ...(patch.statusReason !== undefined && { status_reason: patch.statusReason }),
    ...(patch.statusSince !== undefined && { status_since: patch.statusSince }),
    ...(patch.updatedAt !== undefined && { updated_at: patch.updatedAt }),
  };
}

export function webhookRepository(db: Kysely<Database>): WebhookRepository {
  // Asked twice per conversation turn (user and assistant message): compiled once, on first use
  // (a repository is made per transaction).
  let live: PrecompiledQuery<WebhooksTable> | undefined;
  return {
    async create(w) {
      await db
        .insertInto('webhooks')
        .values({
          id: w.id,
          account_id: w.accountId,
          mode: w.mode,
          url: w.url,
          events: JSON.stringify(w.events),
          secret: w.secret,
          status: w.status,
          status_reason: w.statusReason,
          status_since: w.statusSince,
          created_at: w.createdAt,
          updated_at: w.updatedAt,
        })
        .execute();
    },
    async find(owner, id) {
      const row = await db
        .selectFrom('webhooks')
        .selectAll()
        .where('id', '=', id)
        .where('account_id', '=', owner.accountId)
        .where('mode', '=', owner.mode)
        .executeTakeFirst();
      return row && toWebhook(row);
    },
    async findById(id) {
      const row = await db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toWebhook(row);
    },
    async listByOwner(owner, page) {
      let query = db.selectFrom('webhooks').selectAll().where('account_id', '=', owner.accountId).where('mode', '=', owner.mode).orderBy('id');
      if (page.after !== undefined) query = query.where('id', '>', page.after);
      return (await query.limit(page.limit).execute()).map(toWebhook);
    },
    async countByOwner(owner) {
      const row = await db
        .selectFrom('webhooks')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('account_id', '=', owner.accountId)
        .where('mode', '=', owner.mode)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async listSubscribed(owner, type) {
      live ??= precompile(
        db.selectFrom('webhooks').selectAll().where('account_id', '=', P1).where('mode', '=', P2).where('status', '!=', 'disabled'),
        [P1, P2],
      );
      const { rows } = await live.execute(db as Kysely<never>, [owner.accountId, owner.mode]);
      return rows.map(toWebhook).filter((webhook) => webhook.events.includes(type));
    },
    async update(id, patch) {
      const row = webhookRow(patch);
      if (Object.keys(row).length > 0) await db.updateTable('webhooks').set(row).where('id', '=', id).execute();
    },
    async transition(id, from, patch) {
      const result = await db.updateTable('webhooks').set(webhookRow(patch)).where('id', '=', id).where('status', '=', from).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async delete(id) {
      await db.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
      await db.deleteFrom('webhooks').where('id', '=', id).execute();
    },
  };
}

function deliveryRow(patch: DeliveryPatch): Partial<WebhookDeliveriesTable> {
  return {
    ...(patch.status !== undefined && { status: patch.status }),
    ...(patch.attempts !== undefined && { attempts: patch.attempts }),
    ...(patch.nextAttemptAt !== undefined && { next_attempt_at: patch.nextAttemptAt }),
    ...(patch.lockedUntil !== undefined && { locked_until: patch.lockedUntil }),
    ...(patch.lastAttemptAt !== undefined && { last_attempt_at: patch.lastAttemptAt }),
    ...(patch.lastResponseStatus !== undefined && { last_response_status: patch.lastResponseStatus }),
    ...(patch.lastError !== undefined && { last_error: patch.lastError }),
    ...(patch.lastDurationMs !== undefined && { last_duration_ms: patch.lastDurationMs }),
  };
}

export function webhookDeliveryRepository(db: Kysely<Database>): WebhookDeliveryRepository {
  return {
    async enqueue(event, deliveries) {
      await db
        .insertInto('webhook_events')
        .values({ id: event.id, account_id: event.accountId, mode: event.mode, type: event.type, body: event.body, created_at: event.createdAt })
        .execute();
      if (deliveries.length === 0) return;
      await db
        .insertInto('webhook_deliveries')
        .values(
          deliveries.map((d) => ({
            id: d.id,
            webhook_id: d.webhookId,
            event_id: event.id,
            event_type: event.type,
            status: 'pending',
            attempts: 0,
            next_attempt_at: event.createdAt,
            locked_until: null,
            created_at: event.createdAt,
          })),
        )
        .execute();
    },
    async claimDue({ now, lockedUntil, limit, perWebhook, skipWebhooks }) {
      // One UPDATE … RETURNING: atomic on every engine, so concurrent dispatchers (processes) never
      // claim one delivery twice. The window function caps each webhook's share of a claim, so a
      // receiver with a long backlog cannot take every slot.
      let due = db
        .selectFrom('webhook_deliveries')
        .select(['id', 'next_attempt_at', sql<number>`row_number() over (partition by webhook_id order by next_attempt_at, id)`.as('rank')])
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]));
      if (skipWebhooks.length > 0) due = due.where('webhook_id', 'not in', skipWebhooks);
      const claimed = await db
        .updateTable('webhook_deliveries')
        .set({ locked_until: lockedUntil })
        .where('id', 'in', (eb) =>
          eb.selectFrom(due.as('due')).select('due.id').where('due.rank', '<=', perWebhook).orderBy('due.next_attempt_at').limit(limit),
        )
        .returningAll()
        .execute();
      if (claimed.length === 0) return [];
      const webhookIds = [...new Set(claimed.map((row) => row.webhook_id))];
      const [webhooks, events] = await Promise.all([
        db.selectFrom('webhooks').selectAll().where('id', 'in', webhookIds).execute(),
        db.selectFrom('webhook_events').select(['id', 'body']).where('id', 'in', [...new Set(claimed.map((row) => row.event_id))]).execute(),
      ]);
      const webhookById = new Map(webhooks.map((row) => [row.id, toWebhook(row)]));
      const bodyById = new Map(events.map((row) => [row.id, row.body]));
      return claimed.flatMap((row) => {
        const webhook = webhookById.get(row.webhook_id);
        const body = bodyById.get(row.event_id);
        return webhook && body !== undefined ? [{ delivery: toDelivery(row), webhook, body }] : [];
      });
    },
    async update(id, patch) {
      await db.updateTable('webhook_deliveries').set(deliveryRow(patch)).where('id', '=', id).execute();
    },
    async cancelPending(webhookId) {
      const result = await db
        .updateTable('webhook_deliveries')
        .set({ status: 'cancelled', next_attempt_at: null, locked_until: null })
        .where('webhook_id', '=', webhookId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    async prune(before) {
      const result = await db
        .deleteFrom('webhook_deliveries')
        .where('status', '!=', 'pending')
        .where('created_at', '<', before)
        .executeTakeFirst();
      await db
        .deleteFrom('webhook_events')
        .where('created_at', '<', before)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('webhook_deliveries').select('id').whereRef('webhook_deliveries.event_id', '=', 'webhook_events.id'))))
        .execute();
      return Number(result.numDeletedRows);
    },
    async listByWebhook(webhookId, page) {
      let query = db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).orderBy('id', 'desc');
      if (page.before !== undefined) query = query.where('id', '<', page.before);
      return (await query.limit(page.limit).execute()).map(toDelivery);
    },
  };
}
