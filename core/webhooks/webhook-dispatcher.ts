import type { Clock } from '../clock.js';
import type { Mailer } from '../ports/mailer.js';
import type { ClaimedDelivery, DeliveryPatch, Store, WebhookRecord } from '../ports/store.js';
import type { WebhookOutbox } from './webhook-outbox.js';
import type { WebhookRequest, WebhookResponse } from './post-webhook.js';
import { isoTime } from '../clock.js';
import type { Telemetry } from '../ports/telemetry.js';
import { noTelemetry } from '../ports/telemetry.js';

/** Outbox rows moved to deliveries per transaction. */
const RELAY_BATCH = 500;

/** Sends one attempt; {@link WebhookPoster} over HTTP, or anything with the same answer. */
export interface WebhookSender {
  post(request: WebhookRequest): Promise<WebhookResponse>;
  close(): void;
}

export interface WebhookDispatcherSettings {
  store: Store;
  clock: Clock;
  outbox: WebhookOutbox;
  sender: WebhookSender;
  /** Tells webhook owners that their webhook is failing; none: nobody is told. */
  mailer: Mailer | undefined;
  /** Delays between attempts, in ms: `[5s, 30s, 5m, 1h]` makes five attempts in all. */
  retrySchedule: readonly number[];
  /** How long a claim holds a delivery: longer than an attempt can take, so only a crashed dispatcher's claims lapse. */
  leaseMs: number;
  /** Attempts in flight at once, in all and per webhook (a slow receiver cannot take every slot). */
  maxInFlight?: number;
  perWebhook?: number;
  /** How often due retries (and other processes' events) are looked for. */
  pollIntervalMs?: number;
  /** How long finished deliveries stay in the log (and their events in the outbox). Default 30 days. */
  retentionMs?: number;
  onError?: (message: string, error?: unknown) => void;
  /** Told of every attempt's result. */
  telemetry?: Telemetry;
}

/**
 * Delivers the outbox (docs/webhooks.md, Delivery): claims due deliveries, sends each attempt,
 * and records the outcome — success; a retry on the schedule; `failing` with one e-mail to the
 * owner when the last retry is next; `disabled` on 410 Gone. Every attempt of an event sends the
 * same bytes with the same event id, so receivers can deduplicate. Claims are leases in the
 * store, so several processes share the queue and a killed one's deliveries are taken over.
 */
export class WebhookDispatcher {
  readonly #s: Required<Omit<WebhookDispatcherSettings, 'mailer' | 'onError'>> & Pick<WebhookDispatcherSettings, 'mailer' | 'onError'>;
  /** Attempts running, by delivery id. */
  readonly #inFlight = new Map<string, Promise<void>>();
  /** Per webhook with claimed work: attempts running (never above the cap) and claimed ones waiting for a slot. */
  readonly #webhooks = new Map<string, { running: number; waiting: ClaimedDelivery[] }>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #pruner: ReturnType<typeof setInterval> | undefined;
  #pruning: Promise<number> | undefined;
  #unsubscribe: (() => void) | undefined;
  #claiming: Promise<number> | undefined;
  #again = false;
  /** Events may wait in the outbox (one was stored, or another process may have stored some). */
  #outboxDirty = true;
  /** Outcomes waiting to be written together (see {@link #record}). */
  #outcomes: { id: string; patch: DeliveryPatch; settle: (error?: unknown) => void }[] = [];
  #closed = false;

  constructor(settings: WebhookDispatcherSettings) {
    this.#s = { maxInFlight: 256, perWebhook: 8, pollIntervalMs: 1000, retentionMs: 30 * 24 * 3_600_000, telemetry: noTelemetry, ...settings };
  }

  start(): void {
    this.#unsubscribe = this.#s.outbox.onEnqueued(() => this.#wake(true));
    this.#timer = setInterval(() => this.#wake(true), this.#s.pollIntervalMs);
    this.#timer.unref();
    this.#pruner = setInterval(() => void this.prune(), 3_600_000);
    this.#pruner.unref();
    void this.prune();
    this.#wake();
  }

  /** Forgets finished deliveries older than the retention period; returns how many. */
  prune(): Promise<number> {
    this.#pruning ??= this.#s.store.webhookDeliveries
      .prune(this.#s.clock.now() - this.#s.retentionMs)
      .catch((error) => {
        this.#s.onError?.('pruning old webhook deliveries failed', error);
        return 0;
      })
      .finally(() => (this.#pruning = undefined));
    return this.#pruning;
  }

  /** Sends everything due now and waits for the outcomes (tests on a manual clock; operators' tools). */
  async drain(): Promise<void> {
    for (;;) {
      this.#outboxDirty = true;
      const claimed = await this.#claim();
      if (claimed === 0 && this.#inFlight.size === 0) return;
      await Promise.all(this.#inFlight.values());
    }
  }

  /**
   * Stops claiming, hands back the claimed deliveries that have not started (their claims are
   * lifted, so another process sends them at once rather than when the claims lapse) and waits
   * for attempts in flight (each ends within its timeout).
   */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    if (this.#pruner) clearInterval(this.#pruner);
    this.#unsubscribe?.();
    await Promise.all([this.#claiming, this.#pruning]);
    await this.#handBack();
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight.values());
    this.#s.sender.close();
  }

  async #handBack(): Promise<void> {
    const waiting = [...this.#webhooks.values()].flatMap((webhook) => webhook.waiting.splice(0));
    if (waiting.length === 0) return;
    try {
      await this.#s.store.transaction(async (tx) => {
        for (const { delivery } of waiting) await tx.webhookDeliveries.update(delivery.id, { lockedUntil: null });
      });
    } catch (error) {
      this.#s.onError?.('handing back claimed webhook deliveries failed; they are sent when their claims lapse', error);
    }
  }

  #wake(outbox = false): void {
    if (outbox) this.#outboxDirty = true;
    if (this.#closed) return;
    if (this.#claiming) {
      this.#again = true;
      return;
    }
    void this.#claim().catch((error) => this.#s.onError?.('claiming webhook deliveries failed', error));
  }

  /** Claims what is due and free slots allow, and starts sending it; returns how many. */
  #claim(): Promise<number> {
    if (this.#claiming) return this.#claiming.then(() => this.#claim());
    const claiming = (async () => {
      let total = 0;
      do {
        this.#again = false;
        if (this.#outboxDirty) {
          this.#outboxDirty = false;
          await this.#relay();
        }
        const room = this.#s.maxInFlight - this.#claimedCount();
        if (room <= 0 || this.#closed) break;
        const now = this.#s.clock.now();
        const skipWebhooks = [...this.#webhooks].filter(([, w]) => w.running + w.waiting.length >= this.#s.perWebhook).map(([id]) => id);
        const claimed = await this.#s.store.webhookDeliveries.claimDue({
          now,
          lockedUntil: now + this.#s.leaseMs,
          limit: room,
          perWebhook: this.#s.perWebhook,
          skipWebhooks,
        });
        for (const item of claimed) this.#start(item);
        total += claimed.length;
        if (claimed.length === room) this.#again = true;
      } while (this.#again);
      return total;
    })();
    this.#claiming = claiming;
    return claiming.finally(() => {
      if (this.#claiming === claiming) this.#claiming = undefined;
    });
  }

  /**
   * Runs a claimed delivery, or keeps it until its webhook has a free slot: at most `perWebhook`
   * attempts per webhook run at once. A waiting delivery starts when one of its webhook's attempts
   * ends (well within its claim's lease), without asking the store; the store is asked again only
   * when a webhook has nothing left waiting.
   */
  /** Deliveries this process holds: running, or waiting for their webhook's slot. */
  #claimedCount(): number {
    let waiting = 0;
    for (const webhook of this.#webhooks.values()) waiting += webhook.waiting.length;
    return this.#inFlight.size + waiting;
  }

  /** Moves everything in the outbox to deliveries, a batch per transaction. */
  async #relay(): Promise<void> {
    while ((await this.#s.store.transaction((tx) => tx.webhookDeliveries.relayOutbox(RELAY_BATCH))) === RELAY_BATCH);
  }

  #start(item: ClaimedDelivery): void {
    const webhookId = item.webhook.id;
    let webhook = this.#webhooks.get(webhookId);
    if (!webhook) this.#webhooks.set(webhookId, (webhook = { running: 0, waiting: [] }));
    if (webhook.running < this.#s.perWebhook) this.#run(item, webhook);
    else webhook.waiting.push(item);
  }

  #run(item: ClaimedDelivery, webhook: { running: number; waiting: ClaimedDelivery[] }): void {
    webhook.running++;
    const running = this.#attempt(item)
      .catch((error) => this.#s.onError?.(`recording delivery ${item.delivery.id} failed; it is retried when its claim lapses`, error))
      .finally(() => {
        this.#inFlight.delete(item.delivery.id);
        webhook.running--;
        // Once closing, waiting deliveries stay unsent: their claims lapse and the next start sends them.
        const next = this.#closed ? undefined : webhook.waiting.shift();
        if (next) return this.#run(next, webhook);
        if (webhook.running === 0) this.#webhooks.delete(item.webhook.id);
        this.#wake();
      });
    this.#inFlight.set(item.delivery.id, running);
  }

  async #attempt({ delivery, webhook, body }: ClaimedDelivery): Promise<void> {
    const { store, clock, sender, retrySchedule } = this.#s;
    if (webhook.status === 'disabled') {
      await store.webhookDeliveries.update(delivery.id, { status: 'cancelled', nextAttemptAt: null, lockedUntil: null });
      return;
    }
    const attempt = delivery.attempts + 1;
    const startedAt = clock.now();
    const response = await sender.post({
      url: webhook.url,
      body,
      secret: webhook.secret,
      eventId: delivery.eventId,
      eventType: delivery.eventType,
      attempt,
    });
    const now = clock.now();
    const outcome = {
      attempts: attempt,
      lockedUntil: null,
      lastAttemptAt: startedAt,
      lastResponseStatus: response.status ?? null,
      lastError: response.error ?? null,
      lastDurationMs: response.durationMs,
    };
    if (response.error === undefined) {
      this.#s.telemetry.webhookAttempt('succeeded');
      await this.#record(delivery.id, { ...outcome, status: 'succeeded', nextAttemptAt: null });
      if (webhook.status === 'failing') {
        await store.webhooks.transition(webhook.id, 'failing', { status: 'active', statusReason: null, statusSince: now, updatedAt: now });
      }
      return;
    }
    if (response.status === 410) {
      this.#s.telemetry.webhookAttempt('failed');
      // The receiver says the endpoint is gone for good: stop sending anything to it.
      await store.transaction(async (tx) => {
        await tx.webhookDeliveries.update(delivery.id, { ...outcome, status: 'failed', nextAttemptAt: null });
        await tx.webhooks.update(webhook.id, {
          status: 'disabled',
          statusReason: `the receiver answered 410 Gone to ${delivery.eventId} at ${isoTime(startedAt)}`,
          statusSince: now,
          updatedAt: now,
        });
        await tx.webhookDeliveries.cancelPending(webhook.id);
      });
      return;
    }
    const delay = retrySchedule[attempt - 1];
    this.#s.telemetry.webhookAttempt(delay === undefined ? 'failed' : 'retrying');
    await this.#record(delivery.id, {
      ...outcome,
      ...(delay === undefined ? { status: 'failed', nextAttemptAt: null } : { status: 'pending', nextAttemptAt: now + delay }),
    });
    // Failing once only the last retry is left (the 4th failure on the default schedule).
    if (attempt === Math.max(1, retrySchedule.length) && webhook.status === 'active') {
      const reason = response.error;
      const changed = await store.webhooks.transition(webhook.id, 'active', { status: 'failing', statusReason: reason, statusSince: now, updatedAt: now });
      if (changed) await this.#tellOwner(webhook, { since: now, lastError: reason, eventId: delivery.eventId, finalRetryAt: delay === undefined ? undefined : now + delay });
    }
  }

  /**
   * Writes an attempt's outcome. Outcomes of attempts that end close together are written in one
   * transaction: one commit for many deliveries instead of one each (bench/README.md, webhook-delivery).
   */
  #record(id: string, patch: DeliveryPatch): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.#outcomes.length === 0) setImmediate(() => void this.#writeOutcomes());
      this.#outcomes.push({ id, patch, settle: (error) => (error === undefined ? resolve() : reject(error)) });
    });
  }

  async #writeOutcomes(): Promise<void> {
    const batch = this.#outcomes.splice(0);
    try {
      await this.#s.store.transaction(async (tx) => {
        for (const { id, patch } of batch) await tx.webhookDeliveries.update(id, patch);
      });
      for (const outcome of batch) outcome.settle();
    } catch (error) {
      for (const outcome of batch) outcome.settle(error);
    }
  }

  async #tellOwner(webhook: WebhookRecord, failure: { since: number; lastError: string; eventId: string; finalRetryAt: number | undefined }): Promise<void> {
    const { mailer, store, retrySchedule } = this.#s;
    if (!mailer) return;
    const account = await store.accounts.findById(webhook.accountId);
    if (!account) return;
    const attempts = Math.max(1, retrySchedule.length);
    const text = [
      `Your webhook ${webhook.id} (${webhook.mode} mode) is failing.`,
      '',
      `URL:           ${webhook.url}`,
      `Failing since: ${isoTime(failure.since)}`,
      `Last error:    ${failure.lastError}`,
      `Event:         ${failure.eventId}, ${attempts} attempt${attempts === 1 ? '' : 's'} failed`,
      '',
      failure.finalRetryAt === undefined
        ? 'That was the last attempt for this event.'
        : `The last retry of this event runs at ${isoTime(failure.finalRetryAt)}.`,
      'New events are still sent. The first delivery that succeeds marks the webhook active again;',
      'you will not get another e-mail until it has recovered and failed again.',
      '',
      'To fix it: make the receiver answer 2xx within a few seconds (answer first, work later).',
      `Recent attempts: GET /v1/webhooks/${webhook.id}/deliveries`,
      `To pause it:     PATCH /v1/webhooks/${webhook.id} {"status": "disabled"}`,
      `To re-enable it: PATCH /v1/webhooks/${webhook.id} {"status": "active"}`,
      'Test it:         POST /v1/webhooks/test {"event": "conversation.started", "webhookId": "' + webhook.id + '"}',
    ].join('\n');
    try {
      await mailer.send({ to: account.email, subject: `Webhook ${webhook.id} is failing`, text });
    } catch (error) {
      this.#s.onError?.(`e-mailing ${account.email} about failing webhook ${webhook.id} failed`, error);
    }
  }
}
