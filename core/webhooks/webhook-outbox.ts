import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { Owner, Store } from '../ports/store.js';
import type { WebhookEventBody, WebhookEventType } from './webhook-events.js';
import { isoTime } from '../clock.js';

/**
 * The transactional outbox (docs/webhooks.md, Delivery). A change that causes an event calls
 * `enqueue` with the transaction that writes the change, so the event is stored exactly when the
 * change is: a crash can lose neither one alone. Accounts without a subscribed webhook pay one
 * indexed read.
 *
 * @example
 * await store.transaction(async (tx) => {
 *   await tx.conversations.create(conversation);
 *   await outbox.enqueue(tx, owner, 'conversation.started', { conversationId, avatarId });
 * });
 */
export class WebhookOutbox {
  readonly #clock: Clock;
  readonly #ids: IdGenerator;
  readonly #listeners = new Set<() => void>();

  constructor(deps: { clock: Clock; ids: IdGenerator }) {
    this.#clock = deps.clock;
    this.#ids = deps.ids;
  }

  /**
   * Stores the event for every webhook of `owner` subscribed to `type` (or only `webhookId`, for
   * test events); returns its id, or undefined when no webhook wants it.
   */
  async enqueue(
    tx: Store,
    owner: Owner,
    type: WebhookEventType,
    data: Record<string, unknown>,
    options: { webhookId?: string } = {},
  ): Promise<string | undefined> {
    const webhooks = options.webhookId === undefined ? await tx.webhooks.listSubscribed(owner, type) : [await tx.webhooks.find(owner, options.webhookId)];
    const targets = webhooks.filter((webhook) => webhook !== undefined && webhook.status !== 'disabled');
    if (targets.length === 0) return undefined;
    const now = this.#clock.now();
    const body: WebhookEventBody = { id: this.#ids.next('evt'), type, timestamp: isoTime(now), data };
    await tx.webhookDeliveries.enqueue(
      { id: body.id, accountId: owner.accountId, mode: owner.mode, type, body: JSON.stringify(body), createdAt: now },
      targets.map((webhook) => ({ id: this.#ids.next('dlv'), webhookId: webhook!.id })),
    );
    // Told on the next turn of the event loop: by then the enqueuing transaction has usually
    // committed; if not, the dispatcher's poll finds the event a moment later.
    setImmediate(() => {
      for (const listener of this.#listeners) listener();
    });
    return body.id;
  }

  /** Called soon after each enqueue (the dispatcher wakes up). */
  onEnqueued(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
