import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { io as connect } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import WebSocket from 'ws';
import type { ClientToServerEvents, ServerFrame, ServerToClientEvents } from '../../core/index.js';
import { scriptedProvider } from '../support/scripted-provider.js';
import { readSse } from '../support/sse-client.js';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

/**
 * The emotion of each sentence on the wire: the same `emotion` field on the `message` and
 * `audio` events of SSE, socket.io and the plain WebSocket, inferred from the words of a vendor's
 * reply (here a scripted one), absent on a plain statement.
 */

const REPLY = "Hello, it's lovely to see you! The museum opens at nine. I'm sorry, the café is closed today.";
const EXPECTED = [
  { text: "Hello, it's lovely to see you!", emotion: 'happy' },
  { text: 'The museum opens at nine.', emotion: undefined },
  { text: "I'm sorry, the café is closed today.", emotion: 'sad' },
];

interface Frame {
  type: string;
  data: { delta?: string; text?: string; emotion?: string };
}

/** `[text, emotion]` of the reply's sentences, from its message events and from its audio events. */
function sentences(frames: Frame[]) {
  const messages = frames.filter((f) => f.type === 'message').map((f) => ({ text: f.data.delta!.trim(), emotion: f.data.emotion }));
  const audio = frames.filter((f) => f.type === 'audio').map((f) => ({ text: f.data.text!, emotion: f.data.emotion }));
  return { messages, audio };
}

describe('Reply emotion on every transport', () => {
  let t: TestServer;
  before(async () => (t = await startTestServer({ aiProviders: [scriptedProvider({ reply: REPLY })] })));
  after(() => t.close());

  const create = async (): Promise<string> => {
    const res = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } });
    assert.equal(res.status, 201);
    return ((await res.json()) as { id: string }).id;
  };

  it('SSE: each sentence carries its emotion on message and audio', async () => {
    const id = await create();
    const res = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content: 'Hi!', stream: true } });
    const events = await readSse(res);
    const { messages, audio } = sentences(events.map((e) => ({ type: e.event, data: e.data as Frame['data'] })));
    assert.deepEqual(messages, EXPECTED);
    assert.deepEqual(audio, EXPECTED);
    for (const event of events.filter((e) => e.event === 'audio' || e.event === 'message')) {
      if ((event.data as Frame['data']).emotion === undefined) assert.ok(!('emotion' in (event.data as object)), 'no emotion: no field');
    }
  });

  it('socket.io: the same fields', async () => {
    const id = await create();
    const client: Socket<ServerToClientEvents, ClientToServerEvents> = connect(t.url, {
      path: '/v1/realtime',
      auth: { token: t.key },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    try {
      const joined = await client.timeout(5000).emitWithAck('join', { conversation_id: id });
      assert.equal(joined.ok, true);
      const frames: Frame[] = [];
      client.on('message', (data) => frames.push({ type: 'message', data }));
      client.on('audio', (data) => frames.push({ type: 'audio', data }));
      const done = new Promise((resolve) => client.on('done', resolve));
      await client.timeout(5000).emitWithAck('message', { content: 'Hi!' });
      await done;
      const { messages, audio } = sentences(frames);
      assert.deepEqual(messages, EXPECTED);
      assert.deepEqual(audio, EXPECTED);
    } finally {
      client.close();
    }
  });

  it('WebSocket: the same fields', async () => {
    const id = await create();
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/v1/conversations/${id}/ws`, { headers: { authorization: `Bearer ${t.key}` } });
    try {
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      const frames: Frame[] = [];
      const done = new Promise<void>((resolve) =>
        ws.on('message', (raw) => {
          const frame = JSON.parse(raw.toString()) as ServerFrame;
          if (frame.type === 'message' || frame.type === 'audio') frames.push(frame as Frame);
          if (frame.type === 'done') resolve();
        }),
      );
      ws.send(JSON.stringify({ type: 'message', data: { content: 'Hi!' } }));
      await done;
      const { messages, audio } = sentences(frames);
      assert.deepEqual(messages, EXPECTED);
      assert.deepEqual(audio, EXPECTED);
    } finally {
      ws.terminate();
    }
  });
});
