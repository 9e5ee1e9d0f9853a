import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { SpeechProvider } from '../../core/index.js';
import { createLocalSpeechProvider } from '../../core/index.js';
import { DEMO_EMAIL } from '../../server/dev-bootstrap.js';
import { repoRoot } from '../support/repo-root.js';
import {
  aiProviderListSchema,
  apiKeyCreatedSchema,
  apiKeyListSchema,
  avatarDetailSchema,
  avatarListSchema,
  avatarModelSchema,
  chatCompletionSchema,
  conversationCreatedSchema,
  conversationSchema,
  conversationWithMessagesSchema,
  deletedSchema,
  healthSchema,
  healthReportSchema,
  liveSchema,
  loginSchema,
  messageListSchema,
  messageSchema,
  modelListSchema,
  personaListSchema,
  personaSchema,
  personaVerticalSchema,
  sessionSchema,
  ttsSynthesisSchema,
  usageReportSchema,
  voiceListSchema,
  webhookSchema,
  webhookListSchema,
  webhookTestSchema,
  deliveryListSchema,
} from '../../server/http/resource-schemas.js';
import type { Schema } from '../../server/schema/schema.js';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';
import { dereference } from '../support/dereference.js';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

/** A vendor engine played by the offline one, so the vendor-only routes answer without a network. */
function standIn(id: string, local: SpeechProvider): SpeechProvider {
  return {
    id,
    name: `${id} (offline stand-in)`,
    available: async () => true,
    voices: () => local.voices().map((voice) => ({ ...voice, provider: id })),
    engineVoiceFor: (voiceId) => local.engineVoiceFor(voiceId),
    synthesize: async (request) => ({ ...(await local.synthesize(request)), provider: id }),
    close: async () => undefined,
  };
}

/**
 * Every JSON route on its success path, each body parsed with the schema the OpenAPI document
 * gives for it: `parse` rejects unknown fields, so the document cannot drift from the server.
 */
describe('Response schemas', () => {
  let t: TestServer;
  let openapi: OpenApiDocument;
  /** `<method> <path template>` of every operation checked so far. */
  const covered = new Set<string>();

  before(async () => {
    const local = createLocalSpeechProvider();
    t = await startTestServer({
      env: { DEV_BOOTSTRAP: 'true' },
      speechProviders: [local, ...['google', 'elevenlabs', 'openai'].map((id) => standIn(id, local))],
    });
    openapi = dereference(await (await t.request('/v1/openapi.json', { auth: null })).json()) as OpenApiDocument;
  });
  after(() => t.close());

  /** Calls `template` (filled in as `path`), checks the document gives `schema` for it, and parses the body with it. */
  async function expectBody<T>(
    schema: Schema<T>,
    method: 'get' | 'post' | 'put' | 'patch' | 'delete',
    template: string,
    init: RequestInit & { json?: unknown; auth?: string | null; path?: string; status?: number } = {},
  ): Promise<T> {
    const { path = template, status = 200, ...rest } = init;
    const what = `${method.toUpperCase()} ${path}`;
    const res = await t.request(path, { ...rest, method: method.toUpperCase() });
    const text = await res.text();
    assert.equal(res.status, status, `${what} → ${text.slice(0, 300)}`);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/, what);
    const documented = openapi.paths[template]?.[method]?.responses[String(status)]?.content?.['application/json']?.schema;
    assert.deepEqual(documented, schema.json, `${method} ${template} documents this schema`);
    covered.add(`${method} ${template}`);
    try {
      return schema.parse(JSON.parse(text), '');
    } catch (error) {
      assert.fail(`${what}: ${(error as Error).message}\n${text.slice(0, 1000)}`);
    }
  }

  it('health and the catalogue: avatars, personas, AI models and providers, voices', async () => {
    await expectBody(healthSchema, 'get', '/health', { auth: null });
    await expectBody(healthSchema, 'get', '/v1/health', { auth: null });
    await expectBody(healthReportSchema, 'get', '/health/ready', { auth: null });
    await expectBody(liveSchema, 'get', '/health/live', { auth: null });
    await expectBody(avatarListSchema, 'get', '/v1/avatars', { auth: null });
    await expectBody(avatarDetailSchema, 'get', '/v1/avatars/{id}', { path: '/v1/avatars/luna-001', auth: null });
    await expectBody(avatarModelSchema, 'get', '/v1/avatars/{id}/model', { path: '/v1/avatars/luna-001/model', auth: null });
    const { personas } = await expectBody(personaListSchema, 'get', '/v1/personas', { auth: null });
    const persona = personas[0]!;
    await expectBody(personaSchema, 'get', '/v1/personas/id/{id}', { path: `/v1/personas/id/${persona.id}`, auth: null });
    await expectBody(personaVerticalSchema, 'get', '/v1/personas/{vertical}', { path: `/v1/personas/${persona.vertical}`, auth: null });
    await expectBody(modelListSchema, 'get', '/v1/models', { auth: null });
    await expectBody(aiProviderListSchema, 'get', '/v1/ai/providers');
    await expectBody(voiceListSchema, 'get', '/v1/tts/voices', { auth: null });
  });

  it('conversations: create, send, read with messages, end, read ended, delete', async () => {
    const created = await expectBody(conversationCreatedSchema, 'post', '/v1/conversations', {
      json: { avatar_id: 'luna-001', tts_provider: 'browser' },
      status: 201,
    });
    const path = `/v1/conversations/${created.id}`;
    const reply = await expectBody(messageSchema, 'post', '/v1/conversations/{id}/messages', {
      path: `${path}/messages`,
      json: { content: 'Hello! What can you do?' },
    });
    assert.equal(reply.role, 'assistant');
    const active = await expectBody(conversationWithMessagesSchema, 'get', '/v1/conversations/{id}', { path });
    assert.deepEqual(active.messages.map((m) => m.role), ['user', 'assistant']);
    const page = await expectBody(messageListSchema, 'get', '/v1/conversations/{id}/messages', { path: `${path}/messages?limit=1` });
    assert.deepEqual([page.messages.map((m) => m.id), page.has_more], [[active.messages[0]!.id], true]);
    const ended = await expectBody(conversationSchema, 'post', '/v1/conversations/{id}/end', { path: `${path}/end` });
    assert.equal(ended.end_reason, 'ended');
    await expectBody(conversationWithMessagesSchema, 'get', '/v1/conversations/{id}', { path });
    await expectBody(deletedSchema, 'delete', '/v1/conversations/{id}', { path });
  });

  it('sessions and usage', async () => {
    await expectBody(sessionSchema, 'post', '/v1/sessions', { json: { avatar_id: 'luna-001' }, status: 201 });
    await expectBody(usageReportSchema, 'get', '/v1/usage');
  });

  it('speech: synthesis, voice preview and the vendor-only routes', async () => {
    await expectBody(ttsSynthesisSchema, 'post', '/v1/tts', { json: { text: 'Hello there.', provider: 'local' } });
    await expectBody(ttsSynthesisSchema, 'post', '/v1/tts/preview', { json: { voice_id: 'en-US-Neural2-F', provider: 'local' } });
    for (const vendor of ['google', 'elevenlabs', 'openai']) {
      const result = await expectBody(ttsSynthesisSchema, 'post', `/v1/tts/${vendor}`, { json: { text: 'Hi.' } });
      assert.equal(result.provider, vendor);
    }
  });

  it('a raw chat completion', async () => {
    await expectBody(chatCompletionSchema, 'post', '/v1/ai/chat', {
      json: { provider: 'local', messages: [{ role: 'user', content: 'Hello!' }] },
    });
  });

  it('login and API keys: list, create, revoke', async () => {
    await expectBody(loginSchema, 'post', '/v1/auth/login', { json: { email: 'a@example.com', password: 'password-a' }, auth: null });
    const auth = t.service.accounts.issueToken(t.accountId).token;
    const created = await expectBody(apiKeyCreatedSchema, 'post', '/v1/api-keys', {
      json: { name: 'widget', allowed_origins: ['https://shop.example.com'] },
      status: 201,
      auth,
    });
    await expectBody(deletedSchema, 'delete', '/v1/api-keys/{keyId}', { path: `/v1/api-keys/${created.id}`, auth });
    const { api_keys } = await expectBody(apiKeyListSchema, 'get', '/v1/api-keys', { auth });
    assert.ok(api_keys.some((k) => k.id === created.id && k.revoked_at !== null));
  });

  it('webhooks: register, list, get, update, test, deliveries, delete', async () => {
    const created = await expectBody(webhookSchema, 'post', '/v1/webhooks', {
      json: { url: 'http://127.0.0.1:9/hooks', events: ['conversation.started'], secret: 'whsec-0123456789abcdef' },
      status: 201,
    });
    const path = `/v1/webhooks/${created.id}`;
    await expectBody(webhookListSchema, 'get', '/v1/webhooks');
    await expectBody(webhookSchema, 'get', '/v1/webhooks/{id}', { path });
    await expectBody(webhookSchema, 'patch', '/v1/webhooks/{id}', { path, json: { events: ['conversation.started', 'message.created'] } });
    await expectBody(webhookTestSchema, 'post', '/v1/webhooks/test', { json: { event: 'message.created', webhookId: created.id }, status: 202 });
    await expectBody(deliveryListSchema, 'get', '/v1/webhooks/{id}/deliveries', { path: `${path}/deliveries` });
    await expectBody(deletedSchema, 'delete', '/v1/webhooks/{id}', { path });
  });

  it('custom avatars: upload, list, get, model, update, replace the model, delete', async () => {
    const vrm = (file: string) => new Blob([new Uint8Array(readFileSync(join(repoRoot, 'assets', 'avatars', file)))]);
    const upload = new FormData();
    upload.set('name', 'Robin');
    upload.set('file', vrm('luna-001.vrm'), 'robin.vrm');
    const created = await expectBody(avatarDetailSchema, 'post', '/v1/avatars', { body: upload, status: 201 });
    assert.equal(created.preview_url, null, 'uploaded without a preview');
    const path = `/v1/avatars/${created.id}`;
    const { avatars } = await expectBody(avatarListSchema, 'get', '/v1/avatars');
    assert.ok(avatars.some((a) => a.id === created.id && !a.preset));
    await expectBody(avatarDetailSchema, 'get', '/v1/avatars/{id}', { path });
    await expectBody(avatarModelSchema, 'get', '/v1/avatars/{id}/model', { path: `${path}/model` });
    await expectBody(avatarDetailSchema, 'patch', '/v1/avatars/{id}', { path, json: { description: 'A guide.' } });
    const replacement = new FormData();
    replacement.set('file', vrm('atlas-002.vrm'), 'atlas.vrm');
    await expectBody(avatarDetailSchema, 'put', '/v1/avatars/{id}/model', { path: `${path}/model`, body: replacement });
    await expectBody(deletedSchema, 'delete', '/v1/avatars/{id}', { path });
  });

  it('the demo session (outside the document, like every demo route)', async () => {
    await t.service.accounts.createAccount({ email: DEMO_EMAIL, password: 'demo-password' });
    const res = await t.request('/demo/session', { method: 'POST', json: { avatar_id: 'luna-001' }, auth: null });
    assert.equal(res.status, 201);
    sessionSchema.parse(await res.json(), '');
  });

  // Runs after the tests above, which fill `covered`.
  it('documents a real schema for every JSON operation, each checked above', () => {
    for (const [path, operations] of Object.entries(openapi.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const key = `${method} ${path}`;
        const success = Object.entries(operation.responses).find(([status]) => status !== 'default')?.[1];
        const schema = success?.content?.['application/json']?.schema;
        // File routes (audio, avatar models and previews) document only their media types.
        if (schema === undefined) continue;
        assert.notDeepEqual(schema, { type: 'object' }, `${key} documents its success body`);
        assert.ok(covered.has(key), `${key} is called by this test`);
      }
    }
    for (const key of ['/v1/audio/{file}', '/assets/avatars/{file}', '/v1/avatar-files/{file}']) {
      assert.equal(openapi.paths[key]?.get?.responses['200']?.content?.['application/json'], undefined, `${key} sends a file, not JSON`);
    }
  });
});
