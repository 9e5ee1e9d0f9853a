import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { io } from 'socket.io-client';
import { clientMessageSchema, joinAckSchema, messageAckSchema, serverEvents } from '../../server/http/wire-schemas.js';
import { readSse } from '../support/sse-client.js';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

const schemaOf = new Map<string, (typeof serverEvents)[number]['schema']>(serverEvents.map((event) => [event.name, event.schema]));

/**
 * Real frames parsed with the schemas the OpenAPI and AsyncAPI documents are built from: `parse`
 * rejects unknown fields and missing ones, so a payload the server sends but the documents do not
 * describe (or the reverse) fails here.
 */
describe('Wire schemas match what the server sends', () => {
  let t: TestServer;
  before(async () => (t = await startTestServer()));
  after(() => t.close());

  async function conversation(): Promise<string> {
    const res = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } });
    return ((await res.json()) as { id: string }).id;
  }

  it('every SSE event of a spoken reply, and only the SSE events', async () => {
    const id = await conversation();
    const res = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'Hello! I am Sam. How are you?', stream: true } });
    const events = await readSse(res);
    assert.ok(events.some((e) => e.event === 'audio') && events.at(-1)?.event === 'done');
    for (const event of events) {
      const entry = serverEvents.find((e) => e.name === event.event);
      assert.ok(entry?.sse, `${event.event} is documented as an SSE event`);
      entry.schema.parse(event.data, event.event);
    }
  });

  it('socket.io acknowledgements and every event of a reply', async () => {
    const id = await conversation();
    const socket = io(t.url, { path: '/v1/realtime', auth: { token: t.key }, transports: ['websocket'] });
    const seen: string[] = [];
    const problems: string[] = [];
    socket.onAny((name: string, data: unknown) => {
      seen.push(name);
      const schema = schemaOf.get(name);
      if (!schema) return problems.push(`${name} is not documented`);
      try {
        schema.parse(data, name);
      } catch (error) {
        problems.push((error as Error).message);
      }
    });
    try {
      joinAckSchema.parse(await socket.emitWithAck('join', { conversation_id: id }), 'join ack');
      const done = new Promise((resolve) => socket.once('done', resolve));
      const content = clientMessageSchema.parse({ content: 'Hi there, I am Sam.' }, 'message');
      messageAckSchema.parse(await socket.emitWithAck('message', content), 'message ack');
      await done;
    } finally {
      socket.disconnect();
    }
    assert.deepEqual(problems, []);
    for (const name of ['state', 'message', 'audio', 'done']) assert.ok(seen.includes(name), `${name} was sent`);
  });
});
