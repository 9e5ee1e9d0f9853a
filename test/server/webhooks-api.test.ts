import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalProvider, WebhookPoster } from '../../core/index.js';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';
import { scriptedProvider } from '../support/scripted-provider.js';
import { startReceiver } from '../support/webhook-receiver.js';
import type { ReceivedEvent, Receiver } from '../support/webhook-receiver.js';
import { json } from '../support/read-json.js';

const SECRET = 'whsec-api-0123456789abcdef';
const ALL = ['conversation.started', 'conversation.ended', 'message.created', 'message.failed'];


describe('Webhooks over HTTP', () => {
  let t: TestServer;
  let receiver: Receiver;
  let webhookId: string;

  before(async () => {
    t = await startTestServer({ aiProviders: [createLocalProvider(), scriptedProvider({ id: 'flaky', reply: 'One two three four five.', failAfter: 2 })] });
    receiver = await startReceiver({ secret: SECRET });
    const created = await json(await t.request('/v1/webhooks', { method: 'POST', json: { url: receiver.url, events: ALL, secret: SECRET } }));
    assert.equal(created.status, 201, created.text);
    webhookId = created.body.id;
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  /** The events of `conversationId` received so far, in the order they happened. */
  const eventsOf = (conversationId: string) =>
    receiver.received
      .filter((e) => e.body.data.conversationId === conversationId)
      .sort((a, b) => a.body.id.localeCompare(b.body.id));
  const waitForEvents = (conversationId: string, count: number) => receiver.waitFor(() => eventsOf(conversationId).length >= count);

  it('registers a webhook: 201 with id, url, events, status, created_at and never the secret', async () => {
    const res = await t.request(`/v1/webhooks/${webhookId}`);
    const { body, text } = await json(res);
    assert.match(body.id, /^wh_[0-9a-z]{26}$/);
    assert.equal(body.url, receiver.url);
    assert.deepEqual(body.events, ALL);
    assert.equal(body.status, 'active');
    assert.match(body.created_at, /^\d{4}-\d\d-\d\dT/);
    assert.ok(!text.includes(SECRET), 'the secret is never shown');
  });

  it('a conversation tells its story: started, both messages, ended — each signed, with the documented data', async () => {
    const created = await json(await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser' } }));
    const id = created.body.id as string;
    const reply = await json(await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'Hello there 👋' } }));
    assert.equal(reply.status, 200, reply.text);
    await t.request(`/v1/conversations/${id}/end`, { method: 'POST' });
    await waitForEvents(id, 4);
    const events = eventsOf(id);
    assert.deepEqual(events.map((e) => e.body.type), ['conversation.started', 'message.created', 'message.created', 'conversation.ended']);
    assert.ok(events.every((e) => e.verified), 'every signature verifies');
    for (const e of events) {
      assert.match(e.body.id, /^evt_/);
      assert.equal(e.headers['x-service-event-id'], e.body.id);
      assert.equal(e.headers['x-service-event-type'], e.body.type);
      assert.equal(e.headers['x-service-delivery-attempt'], '1');
      assert.match(String(e.headers['x-service-signature']), /^[0-9a-f]{64}$/, 'lowercase hex');
      assert.ok(Math.abs(Date.parse(e.body.timestamp) - Date.now()) < 60_000);
      assert.equal(e.body.data.avatarId, 'luna-001');
    }
    const conversation = await json(await t.request(`/v1/conversations/${id}`));
    const [user, assistant] = conversation.body.messages;
    assert.deepEqual(events[1]!.body.data, { conversationId: id, avatarId: 'luna-001', message: { id: user.id, role: 'user', content: 'Hello there 👋' } });
    assert.deepEqual(events[2]!.body.data, { conversationId: id, avatarId: 'luna-001', message: { id: assistant.id, role: 'assistant', content: assistant.content } });
    assert.equal(events[3]!.body.data.reason, 'ended');
    assert.equal(events[0]!.body.data.personaId, null);
  });

  it('conversation.ended says why: deleted while active, idle timeout; deleting an ended one says nothing more', async () => {
    const active = (await json(await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } }))).body.id as string;
    await t.request(`/v1/conversations/${active}`, { method: 'DELETE' });
    await waitForEvents(active, 2);
    assert.equal(eventsOf(active)[1]!.body.data.reason, 'deleted');

    const idle = (await json(await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } }))).body.id as string;
    await t.service.conversations.endIdle(-1);
    await waitForEvents(idle, 2);
    assert.deepEqual(eventsOf(idle).map((e) => [e.body.type, e.body.data.reason]), [['conversation.started', undefined], ['conversation.ended', 'timeout']]);
    await t.request(`/v1/conversations/${idle}`, { method: 'DELETE' });
    const sent = await t.service.webhooks.deliveries({ accountId: t.accountId, mode: 'test' }, webhookId, { limit: 100 });
    assert.equal(sent.items.filter((d) => d.eventType === 'conversation.ended').length, 3, 'ended, deleted and timeout: no event for deleting an ended one');
  });

  it('a failed reply: the user message is created, the partial reply too, and message.failed names the error', async () => {
    const id = (await json(await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', ai_provider: 'flaky', tts_provider: 'browser' } }))).body.id as string;
    const res = await json(await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'Tell me a story' } }));
    assert.equal(res.status, 502, res.text);
    await waitForEvents(id, 4);
    const events = eventsOf(id);
    assert.deepEqual(events.map((e) => e.body.type), ['conversation.started', 'message.created', 'message.created', 'message.failed']);
    const failed = events[3]!.body.data as { userMessageId: string; error: { code: string }; message: { id: string; content: string } };
    assert.equal(failed.userMessageId, (events[1]!.body.data.message as { id: string }).id);
    assert.equal(failed.error.code, 'provider_error');
    assert.equal(failed.message.id, (events[2]!.body.data.message as { id: string }).id, 'what was said before the failure');
    assert.equal(failed.message.content, 'One two');
  });

  it('POST /webhooks/test sends a sample event (data.test: true) and answers 202 with its id', async () => {
    const res = await json(await t.request('/v1/webhooks/test', { method: 'POST', json: { event: 'safety.topic_blocked', webhookId } }));
    assert.equal(res.status, 202, res.text);
    assert.match(res.body.event_id, /^evt_/);
    await receiver.waitFor((events) => events.some((e) => e.body.id === res.body.event_id));
    const event = receiver.received.find((e) => e.body.id === res.body.event_id)!;
    assert.equal(event.body.type, 'safety.topic_blocked');
    assert.equal(event.body.data.test, true);
    assert.ok(event.verified);
    const missing = await json(await t.request('/v1/webhooks/test', { method: 'POST', json: { event: 'message.created' } }));
    assert.equal(missing.status, 400);
    assert.match(missing.body.error.message, /webhookId/);
  });

  it('lists deliveries newest first with attempts, status, response status, timings and next attempt', async () => {
    const page = await json(await t.request(`/v1/webhooks/${webhookId}/deliveries?limit=2`));
    assert.equal(page.status, 200, page.text);
    assert.equal(page.body.deliveries.length, 2);
    assert.equal(page.body.has_more, true);
    const [newest, older] = page.body.deliveries;
    assert.ok(newest.id > older.id, 'newest first');
    assert.equal(newest.event_type, 'safety.topic_blocked');
    assert.equal(newest.status, 'succeeded');
    assert.equal(newest.attempts, 1);
    assert.equal(newest.response_status, 200);
    assert.equal(newest.error, null);
    assert.equal(newest.next_attempt_at, null);
    assert.equal(typeof newest.duration_ms, 'number');
    const next = await json(await t.request(`/v1/webhooks/${webhookId}/deliveries?limit=2&starting_after=${older.id}`));
    assert.ok(next.body.deliveries.every((d: { id: string }) => d.id < older.id), 'the next page continues after the cursor');
  });

  it('refuses bad registrations with 400 naming the field', async () => {
    const good = { url: receiver.url, events: ['message.created'], secret: SECRET };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...good, events: ['message.created', 'message.exploded'] }, /events\[1\]/],
      [{ ...good, events: [] }, /events/],
      [{ ...good, url: 'not a url' }, /url/],
      [{ ...good, url: '/relative/path' }, /url/],
      [{ ...good, url: 'ftp://files.example.com/in' }, /url/],
      [{ ...good, url: 'javascript:alert(1)' }, /url/],
      [{ ...good, secret: 'too-short' }, /secret/],
      [{ url: good.url, events: good.events }, /secret/],
      [{ ...good, colour: 'blue' }, /colour/],
    ];
    for (const [body, field] of cases) {
      const res = await json(await t.request('/v1/webhooks', { method: 'POST', json: body }));
      assert.equal(res.status, 400, `${JSON.stringify(body)} → ${res.text}`);
      assert.equal(res.body.error.code, 'invalid_request');
      assert.match(res.body.error.message, field, res.text);
    }
  });

  it('updates url, events, secret and status; disabled webhooks get nothing until re-enabled', async () => {
    const own = await startReceiver({ secret: 'a-new-secret-0123456789' });
    try {
      const created = await json(await t.request('/v1/webhooks', { method: 'POST', json: { url: receiver.url, events: ['conversation.started'], secret: SECRET } }));
      const path = `/v1/webhooks/${created.body.id}`;
      const patched = await json(await t.request(path, { method: 'PATCH', json: { url: own.url, secret: 'a-new-secret-0123456789', events: ['conversation.started', 'conversation.ended'] } }));
      assert.equal(patched.status, 200, patched.text);
      assert.deepEqual([patched.body.url, patched.body.events], [own.url, ['conversation.started', 'conversation.ended']]);
      const disabled = await json(await t.request(path, { method: 'PATCH', json: { status: 'disabled' } }));
      assert.deepEqual([disabled.body.status, disabled.body.status_reason], ['disabled', 'disabled by its owner']);
      await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } });
      assert.equal((await json(await t.request(`${path}/deliveries`))).body.deliveries.length, 0, 'nothing is queued for a disabled webhook');
      assert.equal((await json(await t.request(path, { method: 'PATCH', json: { status: 'failing' } }))).status, 400, 'failing is not for owners to set');
      await t.request(path, { method: 'PATCH', json: { status: 'active' } });
      const id = (await json(await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } }))).body.id;
      await own.waitFor((events) => events.some((e) => e.body.data.conversationId === id));
      assert.ok(own.received.every((e) => e.verified), 'signed with the new secret');
      assert.equal((await json(await t.request(path, { method: 'DELETE' }))).body.deleted, true);
      assert.equal((await t.request(path)).status, 404);
    } finally {
      await own.close();
    }
  });

  it("one account never sees another's webhooks, nor a live key the test-mode ones (404)", async () => {
    for (const auth of [t.otherKey, t.liveKey]) {
      for (const [method, path, body] of [
        ['GET', `/v1/webhooks/${webhookId}`],
        ['PATCH', `/v1/webhooks/${webhookId}`, { status: 'disabled' }],
        ['DELETE', `/v1/webhooks/${webhookId}`],
        ['GET', `/v1/webhooks/${webhookId}/deliveries`],
        ['POST', '/v1/webhooks/test', { event: 'message.created', webhookId }],
      ] as const) {
        const res = await t.request(path, { method, auth, ...(body && { json: body }) });
        assert.equal(res.status, 404, `${method} ${path}`);
      }
      const list = await json(await t.request('/v1/webhooks', { auth }));
      assert.deepEqual(list.body.webhooks, []);
    }
    assert.equal((await t.request('/v1/webhooks', { auth: null })).status, 401, 'webhooks need an API key');
  });

  it('the OpenAPI document carries the routes and the event body', async () => {
    const doc = (await (await t.request('/v1/openapi.json', { auth: null })).json()) as {
      paths: Record<string, Record<string, unknown>>;
      webhooks: { event: { post: { requestBody: { content: { 'application/json': { schema: { $ref: string } } } } } } };
      components: { schemas: { WebhookEvent: { required: string[]; properties: { type: { enum: string[] } } } } };
    };
    for (const [path, method] of [['/v1/webhooks', 'post'], ['/v1/webhooks', 'get'], ['/v1/webhooks/{id}', 'get'], ['/v1/webhooks/{id}', 'patch'], ['/v1/webhooks/{id}', 'delete'], ['/v1/webhooks/{id}/deliveries', 'get'], ['/v1/webhooks/test', 'post']] as const) {
      assert.ok(doc.paths[path]?.[method], `${method} ${path}`);
    }
    assert.equal(doc.webhooks.event.post.requestBody.content['application/json'].schema.$ref, '#/components/schemas/WebhookEvent');
    const event = doc.components.schemas.WebhookEvent;
    assert.deepEqual(event.required, ['id', 'type', 'timestamp', 'data']);
    assert.ok(event.properties.type.enum.includes('message.created') && event.properties.type.enum.includes('safety.escalation'));
    const received = receiver.received[0]!.body;
    assert.deepEqual(Object.keys(received).sort(), [...event.required].sort(), 'a real event has exactly the documented fields');
  });

  it('lists webhooks oldest first, paged', async () => {
    for (let i = 0; i < 3; i++) await t.request('/v1/webhooks', { method: 'POST', json: { url: receiver.url, events: ['avatar.updated'], secret: SECRET } });
    const first = await json(await t.request('/v1/webhooks?limit=2'));
    assert.equal(first.body.webhooks.length, 2);
    assert.equal(first.body.has_more, true);
    assert.equal(first.body.webhooks[0].id, webhookId);
    const rest = await json(await t.request(`/v1/webhooks?starting_after=${first.body.webhooks[1].id}`));
    assert.equal(rest.body.has_more, false);
    assert.ok(rest.body.webhooks.every((w: { id: string }) => w.id > first.body.webhooks[1].id));
  });
});

describe('Webhooks in production mode: receiver addresses', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ env: { NODE_ENV: 'production' } });
  });
  after(() => t.close());

  it('refuses http and every spelling of a loopback, private, link-local, CGNAT, multicast or metadata address', async () => {
    const refused = [
      'http://hooks.example.com/in',
      'https://127.0.0.1/in',
      'https://2130706433/in',
      'https://0x7f000001/in',
      'https://0x7f.0.0.1/in',
      'https://0177.0.0.1/in',
      'https://127.1/in',
      'https://[::1]/in',
      'https://[::ffff:127.0.0.1]/in',
      'https://[::ffff:7f00:1]/in',
      'https://localhost/in',
      'https://localhost./in',
      'https://api.localhost/in',
      'https://10.0.0.1/in',
      'https://172.16.5.4/in',
      'https://192.168.1.1/in',
      'https://169.254.169.254/latest/meta-data/',
      'https://100.64.0.1/in',
      'https://100.100.100.200/in',
      'https://224.0.0.1/in',
      'https://[ff02::1]/in',
      'https://[fe80::1]/in',
      'https://[fd00:ec2::254]/in',
      'https://0.0.0.0/in',
      'https://[::]/in',
      'https://[::ffff:10.0.0.1]/in',
    ];
    for (const url of refused) {
      const res = await json(await t.request('/v1/webhooks', { method: 'POST', json: { url, events: ['message.created'], secret: SECRET } }));
      assert.equal(res.status, 400, `${url} → ${res.text}`);
      assert.match(res.body.error.message, /^url /, `${url}: the message names the field`);
    }
  });

  it('checks again at delivery, on the address connected to: a name re-pointed at loopback is not posted to', async () => {
    const receiver = await startReceiver({ secret: SECRET });
    const port = new URL(receiver.url).port;
    const poster = new WebhookPoster({
      policy: { allowInsecure: false, lookup: async () => [{ address: '127.0.0.1', family: 4 }] },
      timeoutMs: 2_000,
      connectTimeoutMs: 1_000,
    });
    try {
      const response = await poster.post({ url: `https://rebound.example.com:${port}/hooks`, body: '{}', secret: SECRET, eventId: 'evt_x', eventType: 'message.created', attempt: 1 });
      assert.equal(response.status, undefined);
      assert.match(response.error ?? '', /loopback/);
      assert.equal(receiver.received.length, 0, 'no request reached the address');
      const literal = await poster.post({ url: `https://127.0.0.1:${port}/hooks`, body: '{}', secret: SECRET, eventId: 'evt_x', eventType: 'message.created', attempt: 1 });
      assert.match(literal.error ?? '', /127\.0\.0\.1 is not allowed \(loopback\)/, 'an address literal is refused before connecting');
      const plain = await poster.post({ url: `http://hooks.example.com/in`, body: '{}', secret: SECRET, eventId: 'evt_x', eventType: 'message.created', attempt: 1 });
      assert.match(plain.error ?? '', /https/, 'a webhook registered as http before production mode is not sent in clear');
    } finally {
      poster.close();
      await receiver.close();
    }
  });
});

describe('Webhook delivery over HTTP: what a receiver can do to us', () => {
  const poster = new WebhookPoster({ policy: { allowInsecure: true }, timeoutMs: 1_500, connectTimeoutMs: 1_000 });
  after(() => poster.close());
  const post = (url: string) => poster.post({ url, body: '{"id":"evt_1"}', secret: SECRET, eventId: 'evt_1', eventType: 'message.created', attempt: 1 });

  async function withReceiver(respond: (n: number, e: ReceivedEvent, res: import('node:http').ServerResponse) => number | 'handled', run: (r: Receiver) => Promise<void>) {
    const receiver = await startReceiver({ secret: SECRET, respond });
    try {
      await run(receiver);
    } finally {
      await receiver.close();
    }
  }

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    await withReceiver(
      (_n, _e, res) => {
        res.writeHead(307, { location: '/elsewhere' }).end();
        return 'handled';
      },
      async (receiver) => {
        const response = await post(receiver.url);
        assert.equal(response.status, 307);
        assert.match(response.error ?? '', /307/);
        assert.equal(receiver.received.length, 1, 'the redirect was not followed');
      },
    );
  });

  it('reads at most 64 KB of an answer, however much the receiver sends', async () => {
    let written = 0;
    await withReceiver(
      (_n, _e, res) => {
        res.writeHead(200);
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const pump = () => {
          while (written < 512 * 1024 * 1024 && res.write(chunk)) written += chunk.length;
          if (written < 512 * 1024 * 1024 && !res.destroyed) res.once('drain', pump);
        };
        res.on('close', () => res.removeAllListeners('drain'));
        pump();
        return 'handled';
      },
      async (receiver) => {
        const response = await post(receiver.url);
        assert.equal(response.status, 200);
        assert.equal(response.error, undefined);
        assert.ok(written < 64 * 1024 * 1024, `stopped reading long before the end (${written} bytes written)`);
      },
    );
  });

  it('gives up on a receiver that never answers, within the timeout', async () => {
    const hung: import('node:http').ServerResponse[] = [];
    await withReceiver(
      (_n, _e, res) => {
        hung.push(res);
        return 'handled';
      },
      async (receiver) => {
        const response = await post(receiver.url);
        assert.equal(response.status, undefined);
        assert.match(response.error ?? '', /no answer within 1500 ms/);
        for (const res of hung) res.destroy();
      },
    );
  });
});

describe('Webhooks in the envelope style', () => {
  it('sends the same event body; the REST resources are enveloped', async () => {
    const t = await startTestServer({ env: { API_STYLE: 'envelope' } });
    const receiver = await startReceiver({ secret: SECRET });
    try {
      const created = await json(await t.request('/v1/webhooks', { method: 'POST', json: { url: receiver.url, events: ['conversation.started'], secret: SECRET } }));
      assert.equal(created.status, 201, created.text);
      assert.match(created.body.data.id, /^wh_/);
      assert.match(created.body.meta.requestId, /^req_/);
      const tested = await json(await t.request('/v1/webhooks/test', { method: 'POST', json: { event: 'conversation.started', webhookId: created.body.data.id } }));
      assert.match(tested.body.data.eventId, /^evt_/);
      const conversation = await json(await t.request('/v1/conversations', { method: 'POST', json: { avatarId: 'luna-001' } }));
      const id = conversation.body.data.id as string;
      await receiver.waitFor((events) => events.some((e) => e.body.data.conversationId === id));
      const event = receiver.received.find((e) => e.body.data.conversationId === id)!;
      assert.deepEqual(Object.keys(event.body).sort(), ['data', 'id', 'timestamp', 'type']);
      assert.equal(event.body.data.avatarId, 'luna-001');
      assert.ok(event.verified);
    } finally {
      await receiver.close();
      await t.close();
    }
  });
});
