import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

/**
 * "No 500 for anything a client can send", checked against every operation of the OpenAPI
 * document the server publishes (so a new route is covered the day it is added): hostile path
 * parameters, query values and bodies — wrong types, nulls, huge and odd strings, non-objects,
 * broken JSON, prototype keys — each with the credential the operation asks for. Every answer
 * must be a 2xx/3xx, or a 4xx (or 503 `unavailable`) with the JSON error shape and no internals in the message; the app
 * must log no unexpected error; and the server must still work afterwards.
 */

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  examples?: unknown[];
  contentMediaType?: string;
  minimum?: number;
  minLength?: number;
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
}

interface Operation {
  security?: Record<string, unknown>[];
  parameters?: { name: string; in: 'path' | 'query'; schema: JsonSchema }[];
  requestBody?: { content: { 'application/json'?: { schema: JsonSchema }; 'multipart/form-data'?: { schema: JsonSchema } } };
}

interface Attempt {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  -1,
  1e308,
  0.5,
  '',
  ' ',
  'x'.repeat(20_000),
  '\u0000\ud800 ☃ 🙂',
  '../../etc/passwd',
  [],
  [null, 1, 'a'],
  {},
  { nested: { deeper: [1, { x: null }] } },
];

const HOSTILE_SEGMENTS = ['x', '%00', '..%2F..%2Fetc%2Fpasswd', '%E0%A4%A', 'conv_' + 'z'.repeat(300), '%F0%9F%99%82', "'%20OR%201=1--"];

const RAW_BODIES = ['', 'null', '[]', '"text"', '42', 'true', '{', '{"a":', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}'];

/** A plausible value for a schema: enough for the other fields to pass while one is attacked. */
function plausible(schema: JsonSchema): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.examples?.length) return schema.examples[0];
  const variant = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (variant) return plausible(variant);
  switch (schema.type) {
    case 'string':
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, plausible(v)]));
    default:
      return 'x';
  }
}

function bodyAttempts(schema: JsonSchema): string[] {
  const base = plausible(schema) as Record<string, unknown>;
  const bodies = [...RAW_BODIES, JSON.stringify({ ...base, unexpected_field: 1 })];
  for (const name of Object.keys(schema.properties ?? {})) {
    for (const value of HOSTILE_VALUES) bodies.push(JSON.stringify({ ...base, [name]: value }));
    const { [name]: _omitted, ...without } = base;
    bodies.push(JSON.stringify(without));
  }
  return bodies;
}

const BOUNDARY = 'hostile-boundary';

interface FormPart {
  name: string;
  value: string;
  filename?: string;
  headers?: string;
}

/** A multipart/form-data body written by hand, so it can be wrong in ways FormData never is. */
function formText(parts: readonly FormPart[], close = true): string {
  const encoded = parts.map((part) => {
    const disposition = `Content-Disposition: form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const type = part.filename !== undefined ? '\r\nContent-Type: application/octet-stream' : '';
    return `--${BOUNDARY}\r\n${part.headers ?? disposition + type}\r\n\r\n${part.value}\r\n`;
  });
  return encoded.join('') + (close ? `--${BOUNDARY}--\r\n` : '');
}

/** Upload bodies: malformed forms, hostile field values, files where fields go and the reverse, limits. */
function multipartAttempts(schema: JsonSchema): Attempt[] {
  const properties = Object.entries(schema.properties ?? {});
  const files = properties.filter(([, property]) => property.contentMediaType !== undefined && property.contentMediaType !== 'application/json').map(([name]) => name);
  const fields: FormPart[] = properties.filter(([name]) => !files.includes(name)).map(([name, property]) => ({ name, value: String(plausible(property)) }));
  const file: FormPart = { name: files[0] ?? 'file', filename: 'model.vrm', value: 'glTF\u0002\u0000\u0000\u0000 not really' };
  const base = [...fields, file];
  const type = `multipart/form-data; boundary=${BOUNDARY}`;
  const bodies: string[] = [
    '',
    `--${BOUNDARY}--\r\n`,
    formText(base, false),
    formText(base),
    formText([...base, { name: '__proto__', value: '{"admin":true}' }, { name: 'constructor', value: 'x' }]),
    formText([...base, { name: '__proto__', filename: 'p.vrm', value: 'x' }, { name: 'other', filename: '../../etc/passwd', value: 'x' }]),
    formText([...base, file, file]),
    formText([...fields, { ...file, filename: '' }]),
    formText([...base, { name: 'x', value: 'x'.repeat(70_000) }]),
    formText([...base, ...Array.from({ length: 30 }, (_, i) => ({ name: `f${i}`, value: 'x' }))]),
    formText([...base, { name: '', value: 'x', headers: 'X-Nothing: here' }]),
    ...files.map((name) => formText([...fields, { name, value: 'a text field where a file goes' }])),
  ];
  for (const field of fields) {
    for (const value of HOSTILE_VALUES) bodies.push(formText([...base.filter((part) => part !== field), { name: field.name, value: typeof value === 'string' ? value : JSON.stringify(value) }]));
    bodies.push(formText([...base, field]));
  }
  return [
    ...bodies.map((body) => ({ body, headers: { 'content-type': type } })),
    { body: formText(base), headers: { 'content-type': 'multipart/form-data' } },
    { body: formText(base), headers: { 'content-type': 'multipart/form-data; boundary=another' } },
  ].map((attempt) => ({ method: '', path: '', ...attempt }));
}

/** Flat responses are the resource; envelope responses wrap it in `data`. */
const unwrap = <T>(body: { data?: T } & T): T => body.data ?? body;

for (const style of ['flat', 'envelope'] as const) describe(`hostile input on every operation of the OpenAPI document (${style} style)`, () => {
  let t: TestServer;
  const logged: string[] = [];
  let accountToken: string;

  before(async () => {
    t = await startTestServer({ env: { API_STYLE: style }, log: (message, error) => logged.push(`${message} ${error instanceof Error ? error.stack : String(error ?? '')}`) });
    // A limit the battery never reaches, so every request gets past the limiter to validation.
    await t.service.accounts.setPlan(t.accountId, { tier: 'enterprise', requestsPerMinute: 1_000_000_000 });
    accountToken = (await t.service.accounts.issueToken(t.accountId)).token;
  });
  after(() => t.close());

  async function freshConversationId(): Promise<string> {
    const res = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser' } });
    assert.equal(res.status, 201);
    return unwrap((await res.json()) as { id: string }).id;
  }

  async function check(attempt: Attempt, credential: string | null): Promise<number> {
    const headers: Record<string, string> = { ...attempt.headers };
    if (credential) headers.authorization = `Bearer ${credential}`;
    if (attempt.body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(t.url + attempt.path, { method: attempt.method, headers, ...(attempt.body !== undefined && { body: attempt.body }) });
    const what = `${attempt.method} ${attempt.path.slice(0, 120)} ${attempt.body?.slice(0, 120) ?? ''}`;
    const text = await res.text();
    // 503 `unavailable` (a vendor without a key) is the server's state, not the client's input.
    const unavailable = res.status === 503 && /"code":"unavailable"/.test(text);
    assert.ok(res.status < 500 || unavailable, `${what} → ${res.status} ${text.slice(0, 300)}`);
    if (res.status >= 400) {
      assert.match(res.headers.get('content-type') ?? '', /application\/json/, what);
      const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
      assert.equal(typeof body.error?.code, 'string', `${what} → ${text.slice(0, 300)}`);
      assert.equal(typeof body.error?.message, 'string', `${what} → ${text.slice(0, 300)}`);
      assert.doesNotMatch(String(body.error?.message), /node_modules|\/dist\/|\bat \w+ \(|Error:/, `${what} → internals leaked: ${text.slice(0, 300)}`);
    }
    return res.status;
  }

  it('never answers 5xx, always with the error shape, and logs nothing unexpected', async () => {
    const document = (await (await t.request('/v1/openapi.json', { auth: null })).json()) as { paths: Record<string, Record<string, Operation>> };
    let requests = 0;
    const statuses = new Map<number, number>();
    for (const [template, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const needsAccount = operation.security?.some((s) => 'accountToken' in s) ?? false;
        const credential = needsAccount ? accountToken : t.key;
        const pathParams = (operation.parameters ?? []).filter((p) => p.in === 'path');
        const queryParams = (operation.parameters ?? []).filter((p) => p.in === 'query');
        const fill = async (segment: string | undefined) => {
          let path = template;
          for (const param of pathParams) {
            const value = segment ?? (param.name === 'id' && template.startsWith('/v1/conversations') ? await freshConversationId() : String(plausible(param.schema)));
            path = path.replace(`{${param.name}}`, value);
          }
          return path;
        };
        const attempts: Attempt[] = [];
        const upper = method.toUpperCase();
        const body = operation.requestBody?.content['application/json']?.schema;
        if (pathParams.length) for (const segment of HOSTILE_SEGMENTS) attempts.push({ method: upper, path: await fill(segment), ...(body && { body: '{}' }) });
        for (const param of queryParams) {
          for (const value of ['', '-1', 'abc', '1e999', 'x'.repeat(5000), '%00', '2026-13-45']) {
            attempts.push({ method: upper, path: `${await fill(undefined)}?${param.name}=${value}` });
          }
          attempts.push({ method: upper, path: `${await fill(undefined)}?${param.name}=a&${param.name}=b` });
        }
        if (body) {
          const path = await fill(undefined);
          for (const raw of bodyAttempts(body)) attempts.push({ method: upper, path, body: raw });
          attempts.push({ method: upper, path, body: '{}', headers: { 'content-type': 'application/json; charset=latin1' } });
          attempts.push({ method: upper, path, body: '<a/>', headers: { 'content-type': 'application/xml' } });
        }
        const form = operation.requestBody?.content['multipart/form-data']?.schema;
        if (form) {
          const path = await fill(undefined);
          for (const attempt of multipartAttempts(form)) attempts.push({ ...attempt, method: upper, path });
          attempts.push({ method: upper, path, body: '{}' });
        }
        if (attempts.length === 0) attempts.push({ method: upper, path: await fill(undefined) });
        for (const attempt of attempts) {
          for (const auth of [credential, null, 'sess_forged.token', 'svc_test_' + 'A'.repeat(40)]) {
            const status = await check(attempt, auth);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            requests++;
          }
        }
      }
    }
    // The battery reached validation and handlers, not only the authentication gate.
    assert.ok(requests > 1000, `only ${requests} requests`);
    assert.ok((statuses.get(400) ?? 0) > 100, `statuses ${JSON.stringify([...statuses])}`);
    assert.ok((statuses.get(404) ?? 0) > 20, `statuses ${JSON.stringify([...statuses])}`);
    assert.ok([...statuses.keys()].some((s) => s >= 200 && s < 300), `statuses ${JSON.stringify([...statuses])}`);
    // Replies started by plausible bodies finish before the log is judged.
    await t.service.conversations.close();
    assert.deepEqual(logged, []);
    // Refused uploads leave no temporary file behind.
    assert.deepEqual(readdirSync(join(t.dataDir, 'uploads')), []);
  });

  it('still serves the whole conversation path afterwards', async () => {
    const id = await freshConversationId();
    const sent = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'Hello, I am Robin.' } });
    assert.equal(sent.status, 200);
    const history = unwrap((await (await t.request(`/v1/conversations/${id}`)).json()) as { messages: unknown[] });
    assert.ok(history.messages.length >= 2);
  });
});
