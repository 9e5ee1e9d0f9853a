import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { DeliveryRecord, Owner, Store, WebhookPatch, WebhookRecord } from '../ports/store.js';
import type { ReceiverPolicy } from './address-policy.js';
import type { WebhookOutbox } from './webhook-outbox.js';
import type { WebhookEventType } from './webhook-events.js';
import { NotFoundError, ServiceError, ValidationError } from '../errors.js';
import { checkReceiverUrl } from './address-policy.js';
import { WebhookEventTypes, isWebhookEventType, sampleEventData } from './webhook-events.js';
import { pageOf, type Page } from '../util/page.js';

/** Limits of webhook registrations (docs/webhooks.md, Registration). */
export const WebhookLimits = Object.freeze({
  perOwner: 20,
  secretMinChars: 16,
  secretMaxChars: 256,
});

export interface WebhookInput {
  url: string;
  events: readonly string[];
  secret: string;
}

export interface WebhookUpdate {
  url?: string;
  events?: readonly string[];
  secret?: string;
  /** `disabled` stops deliveries (pending ones are cancelled); `active` resumes them. */
  status?: 'active' | 'disabled';
}

/**
 * Webhook registrations of an owner (an account in one mode): create, read, update, delete, their
 * delivery log, and test events. Receiver URLs are checked against the address policy here and
 * again at every delivery.
 */
export class WebhookService {
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #ids: IdGenerator;
  readonly #outbox: WebhookOutbox;
  readonly #policy: ReceiverPolicy;

  constructor(deps: { store: Store; clock: Clock; ids: IdGenerator; outbox: WebhookOutbox; policy: ReceiverPolicy }) {
    this.#store = deps.store;
    this.#clock = deps.clock;
    this.#ids = deps.ids;
    this.#outbox = deps.outbox;
    this.#policy = deps.policy;
  }

  async create(owner: Owner, input: WebhookInput): Promise<WebhookRecord> {
    const events = checkEvents(input.events);
    checkSecret(input.secret);
    const url = await this.#checkUrl(input.url);
    if ((await this.#store.webhooks.countByOwner(owner)) >= WebhookLimits.perOwner) {
      throw new ServiceError('invalid_request', `An account can register at most ${WebhookLimits.perOwner} webhooks per mode; delete one first`);
    }
    const now = this.#clock.now();
    const webhook: WebhookRecord = {
      id: this.#ids.next('wh'),
      accountId: owner.accountId,
      mode: owner.mode,
      url,
      events,
      secret: input.secret,
      status: 'active',
      statusReason: null,
      statusSince: now,
      createdAt: now,
      updatedAt: now,
    };
    await this.#store.webhooks.create(webhook);
    return webhook;
  }

  async get(owner: Owner, id: string): Promise<WebhookRecord> {
    const webhook = await this.#store.webhooks.find(owner, id);
    if (!webhook) throw new NotFoundError('webhook', id);
    return webhook;
  }

  async list(owner: Owner, page: { limit: number; startingAfter?: string }): Promise<Page<WebhookRecord>> {
    const rows = await this.#store.webhooks.listByOwner(owner, { limit: page.limit + 1, ...(page.startingAfter !== undefined && { after: page.startingAfter }) });
    return pageOf(rows, page.limit);
  }

  async update(owner: Owner, id: string, update: WebhookUpdate): Promise<WebhookRecord> {
    const webhook = await this.get(owner, id);
    const now = this.#clock.now();
    const patch: WebhookPatch = { updatedAt: now };
    if (update.events !== undefined) patch.events = checkEvents(update.events);
    if (update.secret !== undefined) patch.secret = checkSecret(update.secret);
    if (update.url !== undefined) patch.url = await this.#checkUrl(update.url);
    if (update.status !== undefined && update.status !== webhook.status) {
      patch.status = update.status;
      patch.statusReason = update.status === 'disabled' ? 'disabled by its owner' : null;
      patch.statusSince = now;
    }
    await this.#store.transaction(async (tx) => {
      await tx.webhooks.update(id, patch);
      if (patch.status === 'disabled') await tx.webhookDeliveries.cancelPending(id);
    });
    return { ...webhook, ...patch } as WebhookRecord;
  }

  async delete(owner: Owner, id: string): Promise<void> {
    await this.get(owner, id);
    await this.#store.webhooks.delete(id);
  }

  /** The webhook's deliveries, newest first. */
  async deliveries(owner: Owner, id: string, page: { limit: number; startingAfter?: string }): Promise<Page<DeliveryRecord>> {
    await this.get(owner, id);
    // Events the dispatcher has not yet taken from the outbox are listed too (read your writes).
    await this.#store.transaction((tx) => tx.webhookDeliveries.relayOutbox(10_000));
    const rows = await this.#store.webhookDeliveries.listByWebhook(id, {
      limit: page.limit + 1,
      ...(page.startingAfter !== undefined && { before: page.startingAfter }),
    });
    return pageOf(rows, page.limit);
  }

  /** Sends a sample event of `type` (`data.test: true`) to one webhook through the outbox; returns its id. */
  async sendTest(owner: Owner, input: { event: string; webhookId: string }): Promise<string> {
    if (!isWebhookEventType(input.event)) throw new ValidationError('event', unknownEvent(input.event));
    const webhook = await this.get(owner, input.webhookId);
    if (webhook.status === 'disabled') {
      throw new ValidationError('webhookId', `Webhook ${webhook.id} is disabled; set its status to active to send to it`);
    }
    const data = sampleEventData(input.event, { conversationId: this.#ids.next('conv'), messageId: this.#ids.next('msg') });
    const eventId = await this.#store.transaction((tx) => this.#outbox.enqueue(tx, owner, input.event as WebhookEventType, data, { webhookId: webhook.id }));
    if (eventId === undefined) throw new NotFoundError('webhook', input.webhookId);
    return eventId;
  }

  async #checkUrl(url: string): Promise<string> {
    return (await checkReceiverUrl(url, this.#policy)).href;
  }
}

function unknownEvent(name: string): string {
  return `'${name}' is not an event; events are ${WebhookEventTypes.join(', ')}`;
}

function checkEvents(events: readonly string[]): string[] {
  if (events.length === 0) throw new ValidationError('events', 'events must name at least one event');
  for (const name of events) if (!isWebhookEventType(name)) throw new ValidationError('events', `events: ${unknownEvent(name)}`);
  return [...new Set(events)];
}

function checkSecret(secret: string): string {
  if (secret.length < WebhookLimits.secretMinChars || secret.length > WebhookLimits.secretMaxChars) {
    throw new ValidationError('secret', `secret must be ${WebhookLimits.secretMinChars} to ${WebhookLimits.secretMaxChars} characters (got ${secret.length}); e.g. openssl rand -hex 32`);
  }
  return secret;
}
