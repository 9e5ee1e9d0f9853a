import { ValidationError, WebhookEventTypes, WebhookLimits } from '../../core/index.js';
import { s } from '../schema/schema.js';
import { defineRoute } from '../http/route.js';
import type { Route } from '../http/route.js';
import { ownerOf } from '../http/owner.js';
import { presentDelivery, presentWebhook } from '../edge/present.js';
import { deletedSchema, deliveryListSchema, webhookListSchema, webhookSchema, webhookTestSchema } from '../http/resource-schemas.js';

const webhookId = (description?: string) =>
  s.string({ pattern: /^wh_[0-9a-z]{16,40}$/, patternHint: 'be a webhook id (wh_…)', ...(description && { description }) });
const params = s.object({ id: webhookId() });
const url = s.string({ min: 1, max: 2048, description: 'https URL of the receiver (http and private addresses only when ALLOW_INSECURE_WEBHOOKS is on)' });
const events = s.array(s.enum(WebhookEventTypes), { min: 1, max: WebhookEventTypes.length * 2, description: 'Event types to receive' });
const secret = s.string({
  min: WebhookLimits.secretMinChars,
  max: WebhookLimits.secretMaxChars,
  description: 'Signing secret: x-service-signature is the hex HMAC-SHA256 of the body with it',
});
const pageQuery = (prefix: string) =>
  s.object({
    limit: s.optional(s.integer({ min: 1, max: 100, text: true, description: 'Items per page, 1 to 100; default 20' })),
    starting_after: s.optional(s.string({ pattern: new RegExp(`^${prefix}_[0-9a-z]{16,40}$`), patternHint: `be an id (${prefix}_…)`, description: 'Cursor: the last id of the previous page' })),
  });

/** Webhook registrations, their delivery log, and test events (API key; docs/webhooks.md). */
export function webhookRoutes(): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/webhooks',
      summary: 'Register a webhook',
      tag: 'webhooks',
      auth: 'api_key',
      status: 201,
      response: webhookSchema.json,
      body: s.object({ url, events, secret }),
      async handle({ body, principal, service }) {
        return presentWebhook(await service.webhooks.create(ownerOf(principal), body));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/webhooks',
      summary: 'List webhooks (oldest first)',
      tag: 'webhooks',
      auth: 'api_key',
      response: webhookListSchema.json,
      query: pageQuery('wh'),
      async handle({ query, principal, service }) {
        const page = await service.webhooks.list(ownerOf(principal), {
          limit: query.limit ?? 20,
          ...(query.starting_after !== undefined && { startingAfter: query.starting_after }),
        });
        return { webhooks: page.items.map(presentWebhook), has_more: page.hasMore };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/webhooks/test',
      summary: 'Send a sample event (data.test: true) to a webhook through the delivery pipeline',
      tag: 'webhooks',
      auth: 'api_key',
      status: 202,
      response: webhookTestSchema.json,
      body: s.object({
        event: s.enum(WebhookEventTypes, 'Type of the sample event'),
        webhookId: s.optional(webhookId('The webhook to send it to (the specification spells it webhookId)')),
        webhook_id: s.optional(webhookId('The same, in snake_case')),
      }),
      async handle({ body, principal, service }) {
        const target = body.webhookId ?? body.webhook_id;
        if (target === undefined) throw new ValidationError('webhookId', 'webhookId is required: the webhook to send the sample event to');
        return { event_id: await service.webhooks.sendTest(ownerOf(principal), { event: body.event, webhookId: target }) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/webhooks/:id',
      summary: 'Get a webhook',
      tag: 'webhooks',
      auth: 'api_key',
      params,
      response: webhookSchema.json,
      async handle({ params, principal, service }) {
        return presentWebhook(await service.webhooks.get(ownerOf(principal), params.id));
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/webhooks/:id',
      summary: 'Change a webhook: url, events, secret, or status (disabled pauses it, active resumes it)',
      tag: 'webhooks',
      auth: 'api_key',
      params,
      response: webhookSchema.json,
      body: s.object({
        url: s.optional(url),
        events: s.optional(events),
        secret: s.optional(secret),
        status: s.optional(s.enum(['active', 'disabled'] as const, 'disabled: nothing is sent and pending deliveries are cancelled; active: resume')),
      }),
      async handle({ params, body, principal, service }) {
        return presentWebhook(await service.webhooks.update(ownerOf(principal), params.id, body));
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/webhooks/:id',
      summary: 'Delete a webhook and its delivery log',
      tag: 'webhooks',
      auth: 'api_key',
      params,
      response: deletedSchema.json,
      async handle({ params, principal, service }) {
        await service.webhooks.delete(ownerOf(principal), params.id);
        return { deleted: true };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/webhooks/:id/deliveries',
      summary: "A webhook's deliveries, newest first, with the outcome of each one's last attempt",
      tag: 'webhooks',
      auth: 'api_key',
      params,
      query: pageQuery('dlv'),
      response: deliveryListSchema.json,
      async handle({ params, query, principal, service }) {
        const page = await service.webhooks.deliveries(ownerOf(principal), params.id, {
          limit: query.limit ?? 20,
          ...(query.starting_after !== undefined && { startingAfter: query.starting_after }),
        });
        return { deliveries: page.items.map(presentDelivery), has_more: page.hasMore };
      },
    }),
  ];
}
