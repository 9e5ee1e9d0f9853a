import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';
import { dereference } from '../support/dereference.js';

describe('HTTP basics', () => {
  let t: TestServer;
  before(async () => (t = await startTestServer()));
  after(() => t.close());

  it('answers health at the root and under /v1 without credentials', async () => {
    for (const path of ['/health', '/v1/health']) {
      const res = await t.request(path, { auth: null });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('x-request-id') ?? '', /^req_[0-9a-z]{26}$/);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
      const body = (await res.json()) as { status: string };
      assert.equal(body.status, 'ok');
    }
  });

  it('gives every response a distinct X-Request-Id, errors included', async () => {
    const a = await t.request('/v1/nope', { auth: null });
    const b = await t.request('/v1/nope', { auth: null });
    assert.equal(a.status, 404);
    assert.notEqual(a.headers.get('x-request-id'), b.headers.get('x-request-id'));
    assert.deepEqual(await a.json(), { error: { code: 'not_found', message: 'No route for GET /v1/nope' } });
  });

  it('405s a known path called with another method, listing the methods it takes', async () => {
    const res = await t.request('/v1/avatars/luna-001', { method: 'PUT', json: {} });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'HEAD, GET, PATCH, DELETE');
    assert.deepEqual(await res.json(), { error: { code: 'method_not_allowed', message: '/v1/avatars/luna-001 does not take PUT; it takes HEAD, GET, PATCH, DELETE' } });
    assert.equal((await t.request('/v1/nope', { method: 'PUT', json: {} })).status, 404);
  });

  it('401s a missing, malformed, unknown or revoked key', async () => {
    const cases: [string | null, RegExp][] = [
      [null, /needs an API key/],
      ['svc_test_short', /Malformed API key/],
      ['svc_test_' + 'x'.repeat(40), /Unknown API key/],
    ];
    for (const [auth, message] of cases) {
      const res = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' }, auth });
      assert.equal(res.status, 401);
      const body = (await res.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'unauthorized');
      assert.match(body.error.message, message);
    }
    const res = await t.request('/v1/conversations', { method: 'POST', json: {}, headers: { authorization: 'Basic abc' }, auth: null });
    assert.equal(res.status, 401);

    const { record, key } = await t.service.accounts.createApiKey(t.accountId, { name: 'to revoke', mode: 'test' });
    assert.equal((await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser' }, auth: key })).status, 201);
    await t.service.accounts.revokeApiKey(t.accountId, record.id);
    const revoked = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' }, auth: key });
    assert.equal(revoked.status, 401);
    assert.match(((await revoked.json()) as { error: { message: string } }).error.message, /revoked/);
  });

  it('415s a body that is not JSON', async () => {
    const res = await t.request('/v1/conversations', {
      method: 'POST',
      body: 'avatar_id=luna-001',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.status, 415);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'unsupported_media_type');
  });

  it('413s a body over 1 MiB', async () => {
    const res = await t.request('/v1/conversations', {
      method: 'POST',
      body: JSON.stringify({ avatar_id: 'luna-001', system_prompt: 'x'.repeat(1024 * 1024 + 10) }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 413);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'payload_too_large');
  });

  it('400s malformed JSON, a non-object body and unknown fields, naming the problem', async () => {
    const bad = await t.request('/v1/conversations', { method: 'POST', body: '{"avatar_id":', headers: { 'content-type': 'application/json' } });
    assert.equal(bad.status, 400);
    assert.deepEqual(await bad.json(), { error: { code: 'invalid_request', message: 'The request body is not valid JSON' } });

    const array = await t.request('/v1/conversations', { method: 'POST', json: ['luna-001'] });
    assert.equal(array.status, 400);
    assert.match(((await array.json()) as { error: { message: string } }).error.message, /must be a JSON object/);
    for (const [body, message] of [
      ['"luna-001"', 'The request body must be a JSON object'],
      ['null', 'The request body must be a JSON object'],
      ['{"avatar_id":"luna-001","__proto__":{"x":1}}', 'The request body must not contain a "__proto__" key'],
    ]) {
      const res = await t.request('/v1/conversations', { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      assert.deepEqual([res.status, await res.json()], [400, { error: { code: 'invalid_request', message } }], body);
    }

    const unknown = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', avatar: 'x' } });
    assert.equal(unknown.status, 400);
    assert.match(((await unknown.json()) as { error: { message: string } }).error.message, /Unknown field avatar/);
  });

  it('publishes an OpenAPI document built from the route schemas', async () => {
    const res = await t.request('/v1/openapi.json', { auth: null });
    assert.equal(res.status, 200);
    const doc = dereference(await res.json()) as { openapi: string; paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { required?: string[]; properties: Record<string, { maxLength?: number }> } }> } }>> };
    assert.equal(doc.openapi, '3.1.0');
    const create = doc.paths['/v1/conversations']?.post?.requestBody?.content['application/json']?.schema;
    assert.deepEqual(create?.required, ['avatar_id']);
    assert.equal(create?.properties.system_prompt?.maxLength, 2000);
    for (const path of ['/v1/avatars', '/v1/avatars/{id}', '/v1/avatars/{id}/model', '/v1/personas', '/v1/personas/{vertical}', '/v1/personas/id/{id}', '/v1/conversations/{id}', '/v1/conversations/{id}/messages', '/v1/conversations/{id}/end', '/health']) {
      assert.ok(doc.paths[path], `${path} is documented`);
    }
    // A generated client joins the server URL and a path: that must reach the route.
    const servers = (doc as unknown as { servers: { url: string }[] }).servers;
    assert.equal((await fetch(`${servers[0]!.url}/v1/avatars`)).status, 200);
  });
});

describe('HTTP options', () => {
  it('logs one JSON line per request: request id, method, path without query, route template, status, duration', async () => {
    const lines: Record<string, unknown>[] = [];
    const t = await startTestServer({ accessLog: (line) => lines.push(line) });
    try {
      const ok = await t.request('/v1/avatars/luna-001?token=sess_secret', { auth: null });
      const missing = await t.request('/v1/nope', { auth: null });
      await Promise.all([ok.text(), missing.text()]);
      for (let i = 0; i < 50 && lines.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(lines.length, 2);
      const [first, second] = lines as [Record<string, unknown>, Record<string, unknown>];
      assert.match(String(first.time), /^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
      assert.deepEqual(
        { level: first.level, msg: first.msg, req_id: first.req_id, method: first.method, path: first.path, route: first.route, status: first.status },
        { level: 'info', msg: 'request', req_id: ok.headers.get('x-request-id'), method: 'GET', path: '/v1/avatars/luna-001', route: '/v1/avatars/:id', status: 200 },
      );
      assert.equal(typeof first.ms, 'number');
      assert.deepEqual([second.path, second.route, second.status], ['/v1/nope', 'unmatched', 404]);
      assert.doesNotMatch(JSON.stringify(lines), /secret/);
    } finally {
      await t.close();
    }
  });

  it('REQUIRE_KEY_FOR_READS makes public reads need a key, but not health', async () => {
    const t = await startTestServer({ env: { REQUIRE_KEY_FOR_READS: 'true' } });
    try {
      assert.equal((await t.request('/v1/avatars', { auth: null })).status, 401);
      assert.equal((await t.request('/v1/avatars')).status, 200);
      assert.equal((await t.request('/v1/health', { auth: null })).status, 200);
    } finally {
      await t.close();
    }
  });

  it('API_STYLE=envelope wraps resources and errors with the request id', async () => {
    const t = await startTestServer({ env: { API_STYLE: 'envelope' } });
    try {
      const res = await t.request('/v1/avatars/luna-001', { auth: null });
      const body = (await res.json()) as { data: { previewUrl: string; defaultVoice: string }; meta: { requestId: string } };
      assert.equal(body.meta.requestId, res.headers.get('x-request-id'));
      assert.equal(body.data.defaultVoice, 'en-US-Neural2-F');
      assert.match(body.data.previewUrl, /luna-001\.png$/);
      const missing = await t.request('/v1/conversations', { method: 'POST', json: {} });
      const error = (await missing.json()) as { error: { code: string; message: string }; meta: { requestId: string } };
      assert.equal(error.error.code, 'BAD_REQUEST');
      assert.match(error.error.message, /avatar_id is required/);
      assert.match(error.meta.requestId, /^req_/);
      // The OpenAPI document describes this style: wrapped, camel-cased, with the same fields as the body.
      const doc = dereference(await (await t.request('/v1/openapi.json', { auth: null })).json()) as {
        paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: { properties: Record<string, { properties: Record<string, unknown>; required?: string[] }> } }> }> }>>;
      };
      const documented = doc.paths['/v1/avatars/{id}']!.get!.responses['200']!.content['application/json']!.schema.properties;
      assert.deepEqual(Object.keys(documented.data!.properties).sort(), Object.keys(body.data).sort());
      assert.ok(documented.data!.required!.includes('defaultVoice'));
      assert.deepEqual(Object.keys(documented.meta!.properties), ['requestId']);
      // Envelope clients may write request fields in camelCase too.
      for (const json of [{ avatarId: 'maya-005', ttsProvider: 'browser' }, { avatar_id: 'maya-005', tts_provider: 'browser' }]) {
        const created = await t.request('/v1/conversations', { method: 'POST', json });
        assert.equal(created.status, 201, JSON.stringify(json));
        const { data } = (await created.json()) as { data: { avatarId: string; config: { ttsProvider: string } } };
        assert.deepEqual([data.avatarId, data.config.ttsProvider], ['maya-005', 'browser']);
      }
    } finally {
      await t.close();
    }
  });
});
