import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import Koa from 'koa';
import { ServiceError } from '../../core/index.js';
import { jsonBody } from '../../server/http/json-body.js';

const LIMIT = 64 * 1024;

/** The JSON body reader alone, behind an error mapping like the server's: what a request body becomes. */
describe('jsonBody', () => {
  let server: Server;
  let url: string;
  before(async () => {
    const app = new Koa();
    app.use(async (ctx, next) => {
      try {
        await next();
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        ctx.status = error.status;
        ctx.body = { code: error.code, message: error.message };
      }
    });
    app.use(jsonBody(LIMIT));
    app.use((ctx) => {
      // x-echo: kind answers only the kind of value read (a deep body would not serialize back).
      const parsed: unknown = ctx.state.body;
      ctx.body = { parsed: parsed === undefined ? 'unset' : ctx.get('x-echo') === 'kind' ? (Array.isArray(parsed) ? 'array' : typeof parsed) : parsed };
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  async function send(body: string | Buffer, headers: Record<string, string> = {}, method = 'POST') {
    const res = await fetch(url, { method, headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : new Blob([new Uint8Array(body)]) });
    return { status: res.status, json: (await res.json()) as { parsed?: unknown; code?: string; message?: string } };
  }

  it('reads a body sent as is or in gzip, deflate or br', async () => {
    const text = JSON.stringify({ content: 'Hello', n: [1, 2, 3] });
    assert.deepEqual((await send(text)).json.parsed, { content: 'Hello', n: [1, 2, 3] });
    for (const [coding, encode] of [['gzip', gzipSync], ['deflate', deflateSync], ['br', brotliCompressSync]] as const) {
      const res = await send(encode(text), { 'content-encoding': coding });
      assert.equal(res.status, 200, coding);
      assert.deepEqual(res.json.parsed, { content: 'Hello', n: [1, 2, 3] }, coding);
    }
  });

  it('takes an empty body as {} and drops a UTF-8 byte order mark', async () => {
    assert.deepEqual((await send('')).json.parsed, {});
    assert.deepEqual((await send('\uFEFF{"a":"é"}')).json.parsed, { a: 'é' });
  });

  it('leaves other methods and media types unread', async () => {
    assert.equal((await send('{"a":1}', {}, 'DELETE')).json.parsed, 'unset');
    assert.equal((await send('{"a":1}', { 'content-type': 'text/plain' })).json.parsed, 'unset');
  });

  it('refuses bodies over the limit, counting decoded bytes (a small gzip of a large body too)', async () => {
    const large = JSON.stringify({ pad: 'x'.repeat(LIMIT) });
    const plain = await send(large);
    assert.equal(plain.status, 413);
    assert.equal(plain.json.code, 'payload_too_large');
    const bomb = gzipSync(large);
    assert.ok(bomb.length < LIMIT / 10);
    const zipped = await send(bomb, { 'content-encoding': 'gzip' });
    assert.equal(zipped.status, 413);
  });

  it('refuses an unknown Content-Encoding with 415, and names it', async () => {
    const res = await send('{"a":1}', { 'content-encoding': 'x-unknown' });
    assert.equal(res.status, 415);
    assert.match(res.json.message ?? '', /x-unknown/);
  });

  it('refuses what is not a JSON object or array, malformed JSON and __proto__ keys at any depth, with 400', async () => {
    for (const [body, message] of [
      ['"text"', /must be a JSON object/],
      ['null', /must be a JSON object/],
      ['{"a":', /not valid JSON/],
      ['{"a":[{"b":{"__proto__":{"admin":true}}}]}', /__proto__/],
      ['{"\\u005f_proto__":1}', /__proto__/],
    ] as const) {
      const res = await send(body);
      assert.equal(res.status, 400, body);
      assert.match(res.json.message ?? '', message, body);
    }
    assert.equal((await send('{"__proto__x":1,"a":"__proto__"}')).status, 200, 'only the key itself is refused');
  });

  it('parses bodies nested thousands of levels deep without overflowing the stack', async () => {
    const deep = `{"x":${'['.repeat(5000)}${']'.repeat(5000)},"__proto__":1}`;
    const res = await send(deep, { 'x-echo': 'kind' });
    assert.equal(res.status, 400);
    assert.match(res.json.message ?? '', /__proto__/);
    const fine = await send(`{"x":${'['.repeat(5000)}${']'.repeat(5000)}}`, { 'x-echo': 'kind' });
    assert.equal(fine.status, 200);
    assert.equal(fine.json.parsed, 'object');
  });
});
