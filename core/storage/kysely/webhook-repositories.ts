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

/** The delivery log's columns: everything but the body. */
const LOG_COLUMNS = [
  'id',
  'webhook_id',
  'event_id',
  'event_type',
  'status',
  'attempts',
  'next_attempt_at',
  'locked_until',
  'last_attempt_at',
  'last_response_status',
  'last_error',
  'last_duration_ms',
  'created_at',
] as const;

const [P3, P4, P5, P6] = ['\u0000p3', '\u0000p4', '\u0000p5', '\u0000p6'];

export function webhookDeliveryRepository(db: Kysely<Database>, engine: { rowLocks: boolean }): WebhookDeliveryRepository {
  // The write on the message path (an event for one webhook): compiled once, on first use.
  let enqueueOne: PrecompiledQuery<unknown> | undefined;
  return {
    async enqueue(event, deliveries) {
      if (deliveries.length === 0) return;
      if (deliveries.length === 1) {
        enqueueOne ??= precompile(
          db.insertInto('webhook_outbox').values({ delivery_id: P1, webhook_id: P2, event_id: P3, event_type: P4, body: P5, created_at: P6 as unknown as number }),
          [P1, P2, P3, P4, P5, P6],
        );
        const [only] = deliveries;
        await enqueueOne.execute(db as Kysely<never>, [only!.id, only!.webhookId, event.id, event.type, event.body, event.createdAt]);
        return;
      }
      await db
        .insertInto('webhook_outbox')
        .values(
          deliveries.map((d) => ({
            delivery_id: d.id,
            webhook_id: d.webhookId,
            event_id: event.id,
            event_type: event.type,
            body: event.body,
            created_at: event.createdAt,
          })),
        )
        .execute();
    },
    async relayOutbox(limit) {
      // Deleting first makes this transaction a writer from its first statement, so two processes
      // relaying at once never take the same rows (SQLite: one writer at a time; PostgreSQL: the
      // rows are locked as they are chosen, and rows another relay holds are passed over).
      const taken = await db
        .deleteFrom('webhook_outbox')
        .where('seq', 'in', (eb) => {
          const oldest = eb.selectFrom('webhook_outbox').select('seq').orderBy('seq').limit(limit);
          return engine.rowLocks ? oldest.forUpdate().skipLocked() : oldest;
        })
        .returningAll()
        .execute();
      if (taken.length === 0) return 0;
      const statuses = new Map(
        (await db.selectFrom('webhooks').select(['id', 'status']).where('id', 'in', [...new Set(taken.map((row) => row.webhook_id))]).execute()).map((w) => [w.id, w.status]),
      );
      const rows = taken
        .filter((row) => statuses.has(row.webhook_id))
        .map((row) => {
          const live = statuses.get(row.webhook_id) !== 'disabled';
          return {
            id: row.delivery_id,
            webhook_id: row.webhook_id,
            event_id: row.event_id,
            event_type: row.event_type,
            body: row.body,
            status: live ? 'pending' : 'cancelled',
            attempts: 0,
            next_attempt_at: live ? row.created_at : null,
            locked_until: null,
            created_at: row.created_at,
          };
        });
      // At most 100 rows a statement (10 parameters each), well under every engine's parameter limit.
      for (let i = 0; i < rows.length; i += 100) await db.insertInto('webhook_deliveries').values(rows.slice(i, i + 100)).execute();
      return taken.length;
    },
    async claimDue({ now, lockedUntil, limit, perWebhook, skipWebhooks }) {
      // Each live webhook's first `perWebhook` due deliveries (one index probe per webhook, however
      // long anyone's backlog), oldest first across webhooks, so a receiver with a long backlog
      // cannot take every slot. One UPDATE … RETURNING makes the claim atomic.
      const due = () =>
        db
          .selectFrom('webhook_deliveries as x')
          .where('x.webhook_id', '=', sql.ref<string>('w.id'))
          .where('x.status', '=', 'pending')
          .where('x.next_attempt_at', '<=', now)
          .where((e) => e.or([e('x.locked_until', 'is', null), e('x.locked_until', '<=', now)]))
          .orderBy('x.next_attempt_at')
          .limit(perWebhook);
      let chosen;
      if (engine.rowLocks) {
        // PostgreSQL runs concurrent claims at once. Each webhook's rows are locked as they are
        // chosen, passing over rows another dispatcher holds (`FOR UPDATE SKIP LOCKED`), so the
        // limit fills with the next due rows; a row claimed and committed meanwhile is checked
        // again on its newest version and dropped. LATERAL: one index probe per webhook.
        let candidates = db
          .selectFrom('webhooks as w')
          .innerJoinLateral(
            () => due().select(['x.id', 'x.next_attempt_at']).forUpdate().skipLocked().as('d'),
            (join) => join.onTrue(),
          )
          .select('d.id')
          .where('w.status', '!=', 'disabled');
        if (skipWebhooks.length > 0) candidates = candidates.where('w.id', 'not in', skipWebhooks);
        chosen = candidates.orderBy('d.next_attempt_at').limit(limit);
      } else {
        // SQLite runs one writer at a time, so concurrent dispatchers (processes) never claim one
        // delivery twice.
        let candidates = db
          .selectFrom('webhooks as w')
          .innerJoin('webhook_deliveries as d', (join) => join.on('d.id', 'in', () => due().select('x.id')))
          .select('d.id')
          .where('w.status', '!=', 'disabled');
        if (skipWebhooks.length > 0) candidates = candidates.where('w.id', 'not in', skipWebhooks);
        chosen = candidates.orderBy('d.next_attempt_at').limit(limit);
      }
      const claimed = await db
        .updateTable('webhook_deliveries')
        .set({ locked_until: lockedUntil })
        .where('id', 'in', chosen)
        .returningAll()
        .execute();
      if (claimed.length === 0) return [];
      const webhookIds = [...new Set(claimed.map((row) => row.webhook_id))];
      const webhooks = await db.selectFrom('webhooks').selectAll().where('id', 'in', webhookIds).execute();
      const webhookById = new Map(webhooks.map((row) => [row.id, toWebhook(row)]));
      return claimed.flatMap((row) => {
        const webhook = webhookById.get(row.webhook_id);
        return webhook ? [{ delivery: toDelivery(row), webhook, body: row.body }] : [];
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
    async countQueued() {
      const pending = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
      const outbox = await db.selectFrom('webhook_outbox').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      // PostgreSQL counts as bigint, which its driver hands over as a string.
      return Number(pending.n) + Number(outbox.n);
    },
    async prune(before) {
      const result = await db
        .deleteFrom('webhook_deliveries')
        .where('status', '!=', 'pending')
        .where('created_at', '<', before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async listByWebhook(webhookId, page) {
      let query = db.selectFrom('webhook_deliveries').select(LOG_COLUMNS).where('webhook_id', '=', webhookId).orderBy('id', 'desc');
      if (page.before !== undefined) query = query.where('id', '<', page.before);
      return (await query.limit(page.limit).execute()).map(toDelivery);
    },
  };
}
