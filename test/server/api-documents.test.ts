import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Parser } from '@asyncapi/parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

interface OpenApi {
  info: { license?: { name: string } };
  paths: Record<string, Record<string, { operationId?: string; responses: Record<string, { content?: Record<string, { schema?: unknown; 'x-events'?: Record<string, { $ref: string }> }> }> }>>;
  components: { schemas: Record<string, unknown> };
}

/**
 * The API documents checked by independent tools, as a developer who generates a client would:
 * Redocly's recommended rules on the OpenAPI document (no warning allowed), @asyncapi/parser on
 * the AsyncAPI document, and the reference page with its renderer served from this server.
 */
describe('API documents', () => {
  const servers: TestServer[] = [];
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    servers.push(t);
  });
  after(() => Promise.all(servers.map((s) => s.close())));

  async function lint(doc: unknown): Promise<string[]> {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: `${t.url}/v1/openapi.json`, config });
    return problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(', ')}`);
  }

  it('passes Redocly lint (recommended rules) with no error and no warning, in both response styles', async () => {
    const flat = await (await t.request('/v1/openapi.json', { auth: null })).json();
    assert.deepEqual(await lint(flat), []);
    const envelope = await startTestServer({ env: { API_STYLE: 'envelope' } });
    servers.push(envelope);
    assert.deepEqual(await lint(await (await envelope.request('/v1/openapi.json', { auth: null })).json()), []);
  });

  it('gives every operation an operationId, 4XX responses and named schemas', async () => {
    const doc = (await (await t.request('/v1/openapi.json', { auth: null })).json()) as OpenApi;
    assert.equal(doc.info.license?.name, 'MIT');
    const ids = new Set<string>();
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        assert.ok(operation.operationId && !ids.has(operation.operationId), `${method} ${path} has a unique operationId`);
        ids.add(operation.operationId);
        assert.ok(Object.keys(operation.responses).some((status) => /^4\d\d$/.test(status)), `${method} ${path} lists its 4XX responses`);
      }
    }
    const message = doc.paths['/v1/conversations/{id}/messages']!.post!;
    assert.equal(message.operationId, 'postConversationsByIdMessages');
    assert.deepEqual(Object.keys(message.responses).sort(), ['200', '400', '401', '404', '409', '413', '415', '429', 'default']);
    assert.deepEqual(message.responses['200']!.content!['application/json']!.schema, { $ref: '#/components/schemas/Message' });
    for (const name of ['Message', 'Conversation', 'ConversationCreated', 'AvatarList', 'Avatar', 'ApiKeyCreated', 'Error', 'WebhookEvent', 'PostConversationsBody']) {
      assert.ok(doc.components.schemas[name], `components.schemas.${name}`);
    }
    // The SSE stream names its events and their payloads.
    const events = message.responses['200']!.content!['text/event-stream']!['x-events']!;
    assert.deepEqual(Object.keys(events), ['message', 'audio', 'done', 'error', 'reconnect']);
    assert.equal(events.audio!.$ref, '#/components/schemas/AudioEvent');
  });

  it('serves a reference page and its renderer from this server, no CDN', async () => {
    const page = await t.request('/docs', { auth: null });
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const html = await page.text();
    assert.match(html, /<redoc spec-url="\/v1\/openapi.json">/);
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
    assert.deepEqual(scripts, ['/docs/redoc-standalone.js']);
    assert.doesNotMatch(html, /https?:\/\/(?!opensource)/, 'nothing is loaded from elsewhere');
    const renderer = await t.request(scripts[0]!, { auth: null });
    assert.equal(renderer.status, 200);
    assert.ok((await renderer.arrayBuffer()).byteLength > 100_000, 'the renderer bundle is served');
  });

  // Last: the parser takes seconds, and a kept-alive connection left idle that long may be closed under the next request.
  it('publishes an AsyncAPI 3 document of both realtime transports that @asyncapi/parser accepts without warnings', async () => {
    const res = await t.request('/v1/asyncapi.json', { auth: null });
    assert.equal(res.status, 200);
    const text = await res.text();
    const { document, diagnostics } = await new Parser().parse(text);
    const serious = diagnostics.filter((d) => d.severity <= 1).map((d) => `${d.severity} ${d.code}: ${d.message} at ${d.path.join('.')}`);
    assert.deepEqual(serious, []);
    assert.ok(document);
    assert.equal(document.version(), '3.0.0');
    assert.deepEqual(document.channels().all().map((c) => c.address()).sort(), ['/v1/conversations/{conversationId}/ws', '/v1/realtime']);
    const names = new Set(document.messages().all().map((m) => m.name()));
    for (const name of ['join', 'message', 'interrupt', 'audio', 'done', 'state', 'safety', 'conversation.ended']) assert.ok(names.has(name), `message ${name}`);
    const join = document.operations().get('receiveSocketIoJoin');
    assert.ok(join?.reply(), 'join is acknowledged');
  });
});
