import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import Koa from 'koa';
import { Limits } from '../../core/index.js';
import { SseWriter } from '../../server/http/sse-writer.js';
import { readSse } from '../support/sse-client.js';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

/** An OpenAI-compatible server that never stops talking: chunks until the client hangs up. */
async function endlessVendor(): Promise<{ url: string; closedStreams: () => number; close(): Promise<void> }> {
  let closed = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = `data: ${JSON.stringify({ id: 'chatcmpl-endless', object: 'chat.completion.chunk', model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content: 'and on ' } }] })}\n\n`;
    const timer = setInterval(() => {
      for (let i = 0; i < 200; i++) res.write(chunk);
    }, 1);
    res.on('close', () => {
      clearInterval(timer);
      closed++;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    closedStreams: () => closed,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('Bounded replies and buffers', () => {
  let vendor: Awaited<ReturnType<typeof endlessVendor>>;
  let t: TestServer;
  before(async () => {
    vendor = await endlessVendor();
    t = await startTestServer({
      providersFromConfig: true,
      env: { OPENAI_API_KEY: 'sk-test-endless', OPENAI_BASE_URL: vendor.url, DEFAULT_AI_PROVIDER: 'openai', DEFAULT_TTS_PROVIDER: 'browser' },
    });
  });
  after(async () => {
    await t.close();
    await vendor.close();
  });

  it('cuts a reply that never ends at the length cap, closes the vendor stream, and stores it', async () => {
    const created = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } });
    const { id } = (await created.json()) as { id: string };
    const closedBefore = vendor.closedStreams();
    const res = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'Talk forever.', stream: true } });
    const events = await readSse(res);
    const text = events.filter((e) => e.event === 'message').map((e) => (e.data as { delta: string }).delta).join('');
    assert.equal(text.length, Limits.replyMaxChars);
    assert.equal(events.at(-1)?.event, 'done');
    const stored = (await (await t.request(`/v1/conversations/${id}`)).json()) as { messages: { role: string; content: string }[] };
    assert.equal(stored.messages.at(-1)?.content.length, Limits.replyMaxChars);
    for (let i = 0; i < 100 && vendor.closedStreams() === closedBefore; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(vendor.closedStreams(), closedBefore + 1, 'the vendor stream was closed');
  });

  it('caps raw chat completions too', async () => {
    const res = await t.request('/v1/ai/chat', { method: 'POST', json: { provider: 'openai', messages: [{ role: 'user', content: 'Go on.' }] } });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { content: string; finish_reason: string };
    assert.equal(body.content.length, Limits.replyMaxChars);
    assert.equal(body.finish_reason, 'length');
  });
});

describe('SseWriter with a client that stops reading', () => {
  it('drops the connection once a megabyte is held, instead of buffering without bound', async () => {
    let writer: SseWriter | undefined;
    let written = 0;
    const app = new Koa();
    app.on('error', () => undefined); // the dropped stream's premature close
    app.use((ctx) => {
      writer = new SseWriter(ctx);
      const event = { text: 'x'.repeat(64 * 1024) };
      const pump = setInterval(() => {
        if (writer!.closed) return clearInterval(pump);
        for (let i = 0; i < 8; i++) {
          writer!.send('message', event);
          written += 64 * 1024;
        }
      }, 5);
    });
    const server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
    socket.pause(); // never reads
    socket.on('error', () => undefined);
    for (let i = 0; i < 500 && !writer?.closed; i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(writer?.closed, 'the writer closed');
    socket.destroy();
    assert.ok(written < 64 * 1024 * 1024, `it stopped early (${Math.round(written / 1024 / 1024)} MB offered)`);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
});
