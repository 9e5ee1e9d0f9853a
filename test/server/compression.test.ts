import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Koa from 'koa';
import { FsBlobStore } from '../../core/index.js';
import { compression } from '../../server/http/compression.js';
import { sendBlob } from '../../server/http/send-blob.js';
import { isCurrentVariant, precompressFolder } from '../../server/precompress.js';
import { repoRoot } from '../support/repo-root.js';
import { scriptedProvider } from '../support/scripted-provider.js';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as they came over the wire, still encoded. */
  body: Buffer;
}

/** One request with node:http, which (unlike fetch) neither asks for nor decodes compression. */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function decode(res: RawResponse): Buffer {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.body);
  if (encoding === 'gzip') return gunzipSync(res.body);
  assert.equal(encoding, undefined);
  return res.body;
}

function assertVaries(res: RawResponse): void {
  assert.match(String(res.headers.vary), /accept-encoding/i);
}

describe('compression over HTTP', () => {
  let t: TestServer;
  const audioKey = `aud_${'0'.repeat(26)}.mp3`;
  const mp3 = Buffer.alloc(40_000, 'MP3 frame bytes that would compress well ');

  before(async () => {
    t = await startTestServer({
      aiProviders: [scriptedProvider({ reply: 'The first sentence arrives now. Then the second one takes its time to come.', delayMs: 150 })],
    });
    await t.service.blobs.put(audioKey, mp3);
  });
  after(() => t.close());

  const files = [
    { what: 'the widget bundle', path: '/widget/avatar-chat.js', file: join(repoRoot, 'dist/widget/avatar-chat.js'), type: /^text\/javascript/ },
    { what: 'a preset VRM', path: '/assets/avatars/luna-001.vrm', file: join(repoRoot, 'assets/avatars/luna-001.vrm'), type: /^model\/gltf-binary/ },
    { what: 'the demo page', path: '/', file: join(repoRoot, 'demo/index.html'), type: /^text\/html/ },
  ];

  for (const encoding of ['br', 'gzip'] as const) {
    it(`Accept-Encoding: ${encoding} gets ${encoding} JSON, with Vary, decoding to the same document`, async () => {
      const plain = await raw(`${t.url}/v1/openapi.json`);
      const res = await raw(`${t.url}/v1/openapi.json`, { 'accept-encoding': encoding });
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-encoding'], encoding);
      assertVaries(res);
      assert.ok(res.body.length < plain.body.length / 3, `${res.body.length} bytes on the wire for ${plain.body.length}`);
      assert.deepEqual(decode(res), plain.body);
    });
  }

  for (const { what, path, file, type } of files) {
    it(`Accept-Encoding: br gets ${what} precompressed, with a strong ETag of its own, decoding to the file`, async () => {
      const original = await readFile(file);
      const res = await raw(t.url + path, { 'accept-encoding': 'br' });
      assert.equal(res.status, 200);
      assert.match(String(res.headers['content-type']), type);
      assert.equal(res.headers['content-encoding'], 'br');
      assertVaries(res);
      assert.equal(Number(res.headers['content-length']), res.body.length, 'the build made the variant: its length is known');
      assert.ok(res.body.length < original.length * 0.6);
      assert.deepEqual(decode(res), original);
      assert.match(String(res.headers.etag), /^"[0-9a-f]+-[0-9a-f]+-br"$/);
    });

    it(`Accept-Encoding: gzip gets ${what} compressed per request (no gzip copy is built), with a weak ETag`, async () => {
      const original = await readFile(file);
      const res = await raw(t.url + path, { 'accept-encoding': 'gzip' });
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-encoding'], 'gzip');
      assertVaries(res);
      assert.ok(res.body.length < original.length * 0.6);
      assert.deepEqual(decode(res), original);
      assert.match(String(res.headers.etag), /^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    });
  }

  it('sends the stored bytes, with a different strong ETag, to a client that asks for no encoding', async () => {
    for (const { path, file } of files) {
      const res = await raw(t.url + path);
      assert.equal(res.headers['content-encoding'], undefined, path);
      assertVaries(res);
      assert.deepEqual(res.body, await readFile(file));
      assert.match(String(res.headers.etag), /^"[0-9a-f]+-[0-9a-f]+"$/);
    }
    const json = await raw(`${t.url}/v1/openapi.json`, { 'accept-encoding': 'identity' });
    assert.equal(json.headers['content-encoding'], undefined);
    const refused = await raw(`${t.url}/widget/avatar-chat.js`, { 'accept-encoding': 'br;q=0, gzip;q=0' });
    assert.equal(refused.headers['content-encoding'], undefined);
  });

  it('prefers brotli when a browser lists gzip first', async () => {
    const res = await raw(`${t.url}/widget/avatar-chat.js`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    assert.equal(res.headers['content-encoding'], 'br');
  });

  it('never encodes MP3 or PNG, whatever the client accepts', async () => {
    const audio = await raw(`${t.url}/v1/audio/${audioKey}`, { 'accept-encoding': 'gzip, br' });
    assert.equal(audio.status, 200);
    assert.equal(audio.headers['content-encoding'], undefined);
    assert.deepEqual(audio.body, mp3);
    const png = await raw(`${t.url}/assets/avatars/luna-001.png`, { 'accept-encoding': 'gzip, br' });
    assert.equal(png.headers['content-encoding'], undefined);
    assert.deepEqual(png.body, await readFile(join(repoRoot, 'assets/avatars/luna-001.png')));
  });

  it('answers If-None-Match with 304 per representation', async () => {
    for (const accept of ['br', 'gzip', 'identity']) {
      const first = await raw(`${t.url}/assets/avatars/luna-001.vrm`, { 'accept-encoding': accept });
      const again = await raw(`${t.url}/assets/avatars/luna-001.vrm`, { 'accept-encoding': accept, 'if-none-match': String(first.headers.etag) });
      assert.equal(again.status, 304, accept);
      assert.equal(again.body.length, 0);
      assert.equal(again.headers.etag, first.headers.etag);
    }
    const br = await raw(`${t.url}/assets/avatars/luna-001.vrm`, { 'accept-encoding': 'br' });
    const otherEncoding = await raw(`${t.url}/assets/avatars/luna-001.vrm`, { 'accept-encoding': 'gzip', 'if-none-match': String(br.headers.etag) });
    assert.equal(otherEncoding.status, 200, "the brotli variant's ETag does not validate the gzip one");
  });

  it('answers HEAD with the headers of the encoded GET and no body', async () => {
    const get = await raw(`${t.url}/widget/avatar-chat.js`, { 'accept-encoding': 'br' });
    const head = await raw(`${t.url}/widget/avatar-chat.js`, { 'accept-encoding': 'br' }, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-encoding'], 'br');
    assert.equal(head.headers['content-length'], get.headers['content-length']);
    assert.equal(head.headers.etag, get.headers.etag);
    assert.equal(head.body.length, 0);
  });

  it('keeps byte ranges: 206 from the stored bytes, never encoded', async () => {
    const audio = await raw(`${t.url}/v1/audio/${audioKey}`, { 'accept-encoding': 'gzip, br', range: 'bytes=100-1099' });
    assert.equal(audio.status, 206);
    assert.equal(audio.headers['content-encoding'], undefined);
    assert.equal(audio.headers['content-range'], `bytes 100-1099/${mp3.length}`);
    assert.deepEqual(audio.body, mp3.subarray(100, 1100));
    const vrm = await raw(`${t.url}/assets/avatars/luna-001.vrm`, { 'accept-encoding': 'br', range: 'bytes=0-11' });
    assert.equal(vrm.status, 206);
    assert.equal(vrm.headers['content-encoding'], undefined);
    assert.equal(vrm.body.subarray(0, 4).toString('latin1'), 'glTF');
  });

  it('streams SSE uncompressed and in real time: the first event arrives before the reply ends', async () => {
    const conversation = (await (await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', tts_provider: 'browser' } })).json()) as { id: string };
    const { headers, firstEventBeforeEnd, text } = await new Promise<{ headers: IncomingHttpHeaders; firstEventBeforeEnd: boolean; text: string }>((resolve, reject) => {
      const req = httpRequest(
        `${t.url}/v1/conversations/${conversation.id}/messages`,
        { method: 'POST', headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json', 'accept-encoding': 'gzip, br' } },
        (res) => {
          let text = '';
          let firstEventBeforeEnd = false;
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            // Nothing of the reply's end may have been written when the first message event is read.
            if (!text.includes('event: message') && chunk.includes('event: message')) firstEventBeforeEnd = !chunk.includes('event: done');
            text += chunk;
          });
          res.on('end', () => resolve({ headers: res.headers, firstEventBeforeEnd, text }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ content: 'Hello', stream: true }));
    });
    assert.equal(headers['content-encoding'], undefined);
    assert.match(String(headers['content-type']), /^text\/event-stream/);
    assert.ok(firstEventBeforeEnd, `the first event came with the end of the reply:\n${text}`);
    assert.match(text, /event: done/);
  });
});

describe('precompressed variants', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'avatar-precompress-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('are written beside compressible files with their source time, kept while current, removed with their source', async () => {
    const script = Buffer.from('export const greeting = "hello";\n'.repeat(200));
    await writeFile(join(dir, 'app.js'), script);
    await writeFile(join(dir, 'tiny.json'), '{}');
    await writeFile(join(dir, 'photo.png'), script);
    await writeFile(join(dir, 'gone.js.br'), 'left from an older build');
    await writeFile(join(dir, 'app.js.gz'), 'a gzip copy an older build made');
    const [app, tiny] = await precompressFolder(dir);
    assert.equal(app!.file, join(dir, 'app.js'));
    assert.deepEqual(Object.keys(app!.encoded), ['br'], 'brotli only: no gzip copy is built');
    assert.deepEqual(brotliDecompressSync(await readFile(join(dir, 'app.js.br'))), script);
    await assert.rejects(stat(join(dir, 'app.js.gz')), 'a gzip copy left by an older build is removed');
    assert.ok(isCurrentVariant((await stat(join(dir, 'app.js'))).mtimeMs, (await stat(join(dir, 'app.js.br'))).mtimeMs), 'the variant carries its source time');
    assert.deepEqual(tiny!.encoded, {}, 'a variant that saves nothing is not written');
    await assert.rejects(stat(join(dir, 'tiny.json.br')));
    await assert.rejects(stat(join(dir, 'photo.png.br')), 'PNG is not compressible');
    await assert.rejects(stat(join(dir, 'gone.js.br')), 'a variant without its source is removed');
  });

  it('are not sent once their source changed: the file is then compressed per request, with a weak ETag', async () => {
    const script = Buffer.from('export const farewell = "goodbye";\n'.repeat(200));
    await writeFile(join(dir, 'late.js'), 'export {};\n'.repeat(300));
    await precompressFolder(dir);
    await writeFile(join(dir, 'late.js'), script);
    const later = new Date(Date.now() + 5_000);
    await utimes(join(dir, 'late.js'), later, later);
    const app = new Koa();
    app.use(compression());
    app.use(async (ctx) => sendBlob(ctx, new FsBlobStore(dir), 'late.js', { contentType: 'text/javascript; charset=utf-8', cacheControl: 'no-cache', precompressed: true }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
      const res = await raw(url, { 'accept-encoding': 'br' });
      assert.equal(res.headers['content-encoding'], 'br');
      assert.deepEqual(decode(res), script, 'the current file, not the stale variant');
      assert.match(String(res.headers.etag), /^W\/"/);
      const again = await raw(url, { 'accept-encoding': 'br', 'if-none-match': String(res.headers.etag) });
      assert.equal(again.status, 304);
    } finally {
      server.close();
    }
  });
});
