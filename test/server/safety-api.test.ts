import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { io as connect } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import WebSocket from 'ws';
import type { ClientToServerEvents, ServerToClientEvents, SpeechProvider } from '../../core/index.js';
import { DEFAULT_SAFETY, createLocalProvider, createLocalSpeechProvider, createOpenAIProvider } from '../../core/index.js';
import { startReplayServer } from '../support/replay-server.js';
import type { RecordedRequest, ReplayServer } from '../support/replay-server.js';
import { readSse } from '../support/sse-client.js';
import type { SseEvent } from '../support/sse-client.js';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';
import { startReceiver } from '../support/webhook-receiver.js';
import type { Receiver } from '../support/webhook-receiver.js';
import { ORDINARY_MESSAGES } from '../core/safety/ordinary-messages.js';
import { json } from '../support/read-json.js';

/**
 * Safety over real HTTP: every outcome from real conversations — on the offline engine and on the
 * OpenAI adapter talking to a local server that replays its streaming wire format — with what
 * reached the vendor (the replay server's received bodies), what reached the speech engine (a
 * recording wrapper around the real local engine) and what webhooks delivered to a loopback
 * receiver.
 */

const SECRET = 'whsec-safety-0123456789';
const EVENTS = ['conversation.escalated', 'safety.escalation', 'safety.topic_blocked', 'safety.filter_triggered', 'message.created'];
const COMPETITORS = { name: 'competitors', keywords: ['acme corp', 'globex'] };

/** An OpenAI Chat Completions stream (SSE) that says `text` a word per chunk, then reports usage. */
function openAiStream(text: string): string[] {
  const chunk = (delta: object, extra: object = {}) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`;
  return [
    chunk({ role: 'assistant', content: '' }),
    ...(text.match(/\S+\s*/g) ?? []).map((word) => chunk({ content: word })),
    `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
    `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [], usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 } })}\n\n`,
    'data: [DONE]\n\n',
  ];
}

/** The real offline speech engine, recording every text it is asked to speak. */
function recordingSpeech(): { provider: SpeechProvider; spoken: string[] } {
  const engine = createLocalSpeechProvider();
  const spoken: string[] = [];
  const provider: SpeechProvider = {
    id: engine.id,
    name: engine.name,
    available: () => engine.available(),
    voices: () => engine.voices(),
    engineVoiceFor: (voiceId) => engine.engineVoiceFor(voiceId),
    synthesize(request) {
      spoken.push(request.text);
      return engine.synthesize(request);
    },
    close: () => engine.close(),
  };
  return { provider, spoken };
}



describe('Safety over HTTP', () => {
  let t: TestServer;
  let vendor: ReplayServer;
  let receiver: Receiver;
  /** What the replayed OpenAI says next; each test sets it. */
  let vendorReply = 'Happy to help with that.';
  const speech = recordingSpeech();

  before(async () => {
    vendor = await startReplayServer(() => ({ headers: { 'content-type': 'text/event-stream' }, chunks: openAiStream(vendorReply) }));
    t = await startTestServer({
      aiProviders: [createLocalProvider(), createOpenAIProvider({ baseUrl: vendor.url })],
      speechProviders: [speech.provider],
    });
    receiver = await startReceiver({ secret: SECRET });
    const hook = await json(await t.request('/v1/webhooks', { method: 'POST', json: { url: receiver.url, events: EVENTS, secret: SECRET } }));
    assert.equal(hook.status, 201, hook.text);
  });
  after(async () => {
    await t.close();
    await vendor.close();
    await receiver.close();
  });

  const create = async (extra: Record<string, unknown> = {}) => {
    const res = await json(await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', ...extra } }));
    assert.equal(res.status, 201, res.text);
    return res.body as { id: string; safety: { blocked_topics: unknown[]; filter: string; escalation: unknown; refusal: string } };
  };
  const send = async (id: string, content: string) => {
    const res = await json(await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content } }));
    assert.equal(res.status, 200, res.text);
    return res.body as { id: string; content: string; safety: string[] };
  };
  const stream = async (id: string, content: string): Promise<SseEvent[]> => {
    const res = await t.request(`/v1/conversations/${id}/messages`, { method: 'POST', json: { content, stream: true } });
    assert.equal(res.status, 200);
    return readSse(res);
  };
  const get = async (id: string) => (await json(await t.request(`/v1/conversations/${id}`))).body;
  const eventsOf = (id: string, type: string) => receiver.ofType(type).filter((e) => e.body.data['conversationId'] === id);
  const vendorBodies = (from: number): string[] => vendor.requests.slice(from).map((r: RecordedRequest) => r.body);

  describe('settings', () => {
    it('are resolved at creation, shown by GET, and default to the service defaults', async () => {
      const plain = await create();
      assert.deepEqual(plain.safety, {
        blocked_topics: [],
        filter: 'standard',
        escalation: { enabled: true, message: DEFAULT_SAFETY.escalation.message },
        refusal: DEFAULT_SAFETY.refusal,
      });
      const custom = await create({ safety: { blocked_topics: [COMPETITORS], filter: 'strict', escalation: { message: 'A colleague is on the way.' } } });
      const shown = await get(custom.id);
      assert.deepEqual(shown.safety.blocked_topics, [COMPETITORS]);
      assert.equal(shown.safety.filter, 'strict');
      assert.deepEqual(shown.safety.escalation, { enabled: true, message: 'A colleague is on the way.' });
      assert.equal(shown.status, 'active');
      assert.equal(shown.escalated_at, null);
    });

    it("start from the persona's defaults", async () => {
      const clinic = await create({ persona_id: 'health-clinic-reception' });
      assert.equal(clinic.safety.blocked_topics.length, 1);
      assert.match(String(clinic.safety.refusal), /medical advice/);
      const overridden = await create({ persona_id: 'health-clinic-reception', safety: { blocked_topics: [] } });
      assert.deepEqual(overridden.safety.blocked_topics, []);
      assert.equal(overridden.safety.refusal, clinic.safety.refusal);
    });

    for (const [what, safety, field] of [
      ['an unknown filter level', { filter: 'maximum' }, 'safety.filter'],
      ['an unknown setting', { colour: 'red' }, 'safety.colour'],
      ['a topic without keywords', { blocked_topics: [{ name: 'x', keywords: [] }] }, 'safety.blocked_topics[0].keywords'],
      ['an unknown topic field', { blocked_topics: [{ name: 'x', keywords: ['y'], level: 2 }] }, 'safety.blocked_topics[0].level'],
      ['a non-boolean escalation switch', { escalation: { enabled: 'yes' } }, 'safety.escalation.enabled'],
      ['a keyword of punctuation only', { blocked_topics: [{ name: 'x', keywords: ['?!'] }] }, 'safety.blocked_topics[0].keywords[0]'],
    ] as const) {
      it(`refuse ${what} with a 400 naming ${field}`, async () => {
        const res = await json(await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', safety } }));
        assert.equal(res.status, 400, res.text);
        assert.ok(res.body.error.message.includes(field), res.text);
      });
    }
  });

  describe('a blocked topic', () => {
    it('in the user message: the persona refusal, the vendor never asked, only the refusal spoken, events delivered', async () => {
      const { id } = await create({ ai_provider: 'openai', safety: { blocked_topics: [COMPETITORS] } });
      const asked = vendor.requests.length;
      const spokenBefore = speech.spoken.length;
      const reply = await send(id, 'Is Acme Corp cheaper than you?');
      assert.equal(reply.content, DEFAULT_SAFETY.refusal);
      assert.deepEqual(reply.safety, ['topic_blocked']);
      assert.equal(vendor.requests.length, asked, 'the vendor was not asked');
      assert.ok(speech.spoken.slice(spokenBefore).every((text) => !/acme/i.test(text)));
      assert.equal(speech.spoken.slice(spokenBefore).join(' '), DEFAULT_SAFETY.refusal);
      const stored = await get(id);
      assert.deepEqual(stored.messages.map((m: { safety: string[] }) => m.safety), [['topic_blocked'], ['topic_blocked']]);

      // The blocked turn never reaches the vendor later either, as history.
      vendorReply = 'We open at nine.';
      await send(id, 'When do you open?');
      const bodies = vendorBodies(asked);
      assert.equal(bodies.length, 1);
      assert.ok(!/acme/i.test(bodies[0]!), bodies[0]);
      assert.ok(!bodies[0]!.includes(DEFAULT_SAFETY.refusal), 'nor does the scripted refusal');

      await receiver.waitFor(() => eventsOf(id, 'safety.topic_blocked').length === 1);
      const event = eventsOf(id, 'safety.topic_blocked')[0]!;
      assert.ok(event.verified);
      assert.deepEqual(event.body.data, {
        conversationId: id,
        avatarId: 'luna-001',
        messageId: stored.messages[0].id,
        side: 'user',
        topic: 'competitors',
      });
    });

    it('in the user message on the offline engine: the same refusal, spoken', async () => {
      const { id } = await create({ safety: { blocked_topics: [COMPETITORS], refusal: 'I only talk about our own products.' } });
      const spokenBefore = speech.spoken.length;
      const reply = await send(id, 'what do you think of globex?');
      assert.equal(reply.content, 'I only talk about our own products.');
      assert.deepEqual(speech.spoken.slice(spokenBefore), ['I only talk about our own products.']);
      const followUp = await send(id, 'Tell me about your products then.');
      assert.deepEqual(followUp.safety, []);
      assert.notEqual(followUp.content, 'I only talk about our own products.');
    });

    it('in the reply: cut at the sentence, replaced by the refusal; nothing of it shown, spoken or stored', async () => {
      const { id } = await create({ ai_provider: 'openai', safety: { blocked_topics: [COMPETITORS] } });
      vendorReply = 'Good question, let me think. Honestly, Globex is cheaper for that. You could switch today.';
      const spokenBefore = speech.spoken.length;
      const events = await stream(id, 'Which plan is cheapest?');
      const shown = events.filter((e) => e.event === 'message').map((e) => (e.data as { delta: string }).delta).join('');
      assert.equal(shown, `Good question, let me think. ${DEFAULT_SAFETY.refusal}`);
      const safety = events.find((e) => e.event === 'safety');
      assert.deepEqual(safety?.data, { side: 'reply', codes: ['topic_blocked'], action: 'block', topic: 'competitors' });
      assert.ok(events.findIndex((e) => e.event === 'safety') < events.findIndex((e) => e.event === 'message' && JSON.stringify(e.data).includes("I'm sorry")));
      const spoken = speech.spoken.slice(spokenBefore);
      assert.ok(spoken.every((text) => !/globex|switch/i.test(text)), spoken.join(' | '));
      const stored = (await get(id)).messages.at(-1);
      assert.equal(stored.content, shown);
      assert.deepEqual(stored.safety, ['topic_blocked']);
      assert.equal(stored.status, 'complete');
      await receiver.waitFor(() => eventsOf(id, 'safety.topic_blocked').length === 1);
      assert.deepEqual(eventsOf(id, 'safety.topic_blocked')[0]!.body.data, {
        conversationId: id,
        avatarId: 'luna-001',
        messageId: stored.id,
        side: 'reply',
        topic: 'competitors',
      });
    });
  });

  describe('the profanity filter', () => {
    it('masks a user message in what the vendor sees; the stored message keeps what the user typed', async () => {
      const { id } = await create({ ai_provider: 'openai' });
      const asked = vendor.requests.length;
      vendorReply = 'Sorry about that, let me look into your order.';
      const reply = await send(id, 'This shit is late again, where is my order?');
      assert.equal(reply.content, vendorReply);
      const [body] = vendorBodies(asked);
      assert.ok(body && !/shit/i.test(body) && body.includes('**** is late again'), body);
      const stored = await get(id);
      assert.equal(stored.messages[0].content, 'This shit is late again, where is my order?');
      assert.deepEqual(stored.messages[0].safety, ['filter_triggered']);
      await receiver.waitFor(() => eventsOf(id, 'safety.filter_triggered').length === 1);
      assert.deepEqual(eventsOf(id, 'safety.filter_triggered')[0]!.body.data, {
        conversationId: id,
        avatarId: 'luna-001',
        messageId: stored.messages[0].id,
        side: 'user',
        source: 'word_list',
        action: 'masked',
      });
    });

    it('masks a reply at standard (the word is never spoken) and drops the sentence at strict', async () => {
      vendorReply = 'That is a shitty deal. Here is a better one.';
      const standard = await create({ ai_provider: 'openai' });
      let spokenBefore = speech.spoken.length;
      const masked = await send(standard.id, 'Is the basic plan good?');
      assert.equal(masked.content, 'That is a ****** deal. Here is a better one.');
      assert.deepEqual(masked.safety, ['filter_triggered']);
      assert.ok(speech.spoken.slice(spokenBefore).every((text) => !/shit|\*/.test(text)), speech.spoken.slice(spokenBefore).join(' | '));

      const strict = await create({ ai_provider: 'openai', safety: { filter: 'strict' } });
      spokenBefore = speech.spoken.length;
      const dropped = await send(strict.id, 'Is the basic plan good?');
      assert.equal(dropped.content, 'Here is a better one.');
      assert.deepEqual(speech.spoken.slice(spokenBefore), ['Here is a better one.']);
      await receiver.waitFor(() => eventsOf(strict.id, 'safety.filter_triggered').length === 1);
      assert.deepEqual(eventsOf(strict.id, 'safety.filter_triggered')[0]!.body.data, {
        conversationId: strict.id,
        avatarId: 'luna-001',
        messageId: dropped.id,
        side: 'reply',
        source: 'word_list',
        action: 'replaced',
      });
    });

    it('at strict, a reply with nothing left says the refusal', async () => {
      vendorReply = 'Well shit.';
      const { id } = await create({ ai_provider: 'openai', safety: { filter: 'strict' } });
      const reply = await send(id, 'How did it go?');
      assert.equal(reply.content, DEFAULT_SAFETY.refusal);
    });
  });

  describe('escalation to a person', () => {
    it('on request (SSE): the hand-off message, status escalated with time and reason, both events, no vendor call', async () => {
      const { id } = await create({ ai_provider: 'openai' });
      const asked = vendor.requests.length;
      const events = await stream(id, 'I want to talk to a real person please');
      assert.equal(vendor.requests.length, asked);
      const safety = events.find((e) => e.event === 'safety')?.data as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      assert.equal(safety['side'], 'user');
      assert.equal(safety['action'], 'escalate');
      assert.deepEqual(safety['codes'], ['escalation_requested']);
      assert.equal(safety['escalation'].reason, 'requested');
      assert.equal(safety['escalation'].message, DEFAULT_SAFETY.escalation.message);
      const said = events.filter((e) => e.event === 'message').map((e) => (e.data as { delta: string }).delta).join('');
      assert.equal(said, DEFAULT_SAFETY.escalation.message);
      assert.ok(events.some((e) => e.event === 'audio'), 'the hand-off message is spoken');

      const conversation = await get(id);
      assert.equal(conversation.status, 'escalated');
      assert.equal(conversation.escalation_reason, 'requested');
      assert.equal(conversation.escalated_at, safety['escalation'].escalated_at);
      assert.deepEqual(conversation.messages.map((m: { safety: string[] }) => m.safety), [['escalation_requested'], ['escalation_requested']]);

      await receiver.waitFor(() => eventsOf(id, 'conversation.escalated').length === 1 && eventsOf(id, 'safety.escalation').length === 1);
      const userMessageId = conversation.messages[0].id;
      assert.deepEqual(eventsOf(id, 'conversation.escalated')[0]!.body.data, {
        conversationId: id,
        avatarId: 'luna-001',
        messageId: userMessageId,
        reason: 'requested',
        escalatedAt: conversation.escalated_at,
      });
      assert.deepEqual(eventsOf(id, 'safety.escalation')[0]!.body.data, {
        conversationId: id,
        avatarId: 'luna-001',
        messageId: userMessageId,
        reason: 'requested',
        codes: ['escalation_requested'],
      });

      // The conversation goes on while a person takes over; asking again repeats the hand-off
      // message and the safety event, but the conversation escalated once.
      vendorReply = 'Of course, while you wait: your order shipped today.';
      const next = await send(id, 'Where is my order?');
      assert.equal(next.content, vendorReply);
      await send(id, 'agent please');
      await receiver.waitFor(() => eventsOf(id, 'safety.escalation').length === 2);
      assert.equal(eventsOf(id, 'conversation.escalated').length, 1);
      assert.equal((await get(id)).escalated_at, conversation.escalated_at);
      const last = vendorBodies(asked).at(-1)!;
      assert.ok(!/real person|agent please/.test(last), 'hand-off requests are not sent to the AI');
    });

    it('after repeated frustration, with reason frustration', async () => {
      const { id } = await create();
      await send(id, 'This is useless!!!');
      await send(id, 'You are not helping at all');
      const third = await send(id, 'UGH THIS IS RIDICULOUS, NOTHING WORKS');
      assert.deepEqual(third.safety, ['escalation_requested']);
      const conversation = await get(id);
      assert.equal(conversation.status, 'escalated');
      assert.equal(conversation.escalation_reason, 'frustration');
    });

    it('on severe content; with escalation off it is refused instead and reported as filtered', async () => {
      const on = await create();
      const reply = await send(on.id, 'I want to kill myself');
      assert.equal(reply.content, DEFAULT_SAFETY.escalation.message);
      assert.equal((await get(on.id)).escalation_reason, 'severe_content');

      const off = await create({ safety: { escalation: { enabled: false } } });
      const refused = await send(off.id, 'I want to kill myself');
      assert.equal(refused.content, DEFAULT_SAFETY.refusal);
      assert.deepEqual(refused.safety, ['severe_content']);
      assert.equal((await get(off.id)).status, 'active');
      await receiver.waitFor(() => eventsOf(off.id, 'safety.filter_triggered').length === 1);
      assert.deepEqual(eventsOf(off.id, 'safety.filter_triggered')[0]!.body.data['source'], 'severe_content');
      assert.equal(eventsOf(off.id, 'safety.escalation').length, 0);
    });

    it('is carried to socket.io and plain WebSocket clients as a safety event', async () => {
      const viaSocket = await create({ tts_provider: 'browser' });
      const client: Socket<ServerToClientEvents, ClientToServerEvents> = connect(t.url, {
        path: '/v1/realtime',
        auth: { token: t.key },
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
      });
      try {
        const joined = await client.timeout(5000).emitWithAck('join', { conversation_id: viaSocket.id });
        assert.equal(joined.ok, true);
        const safety = new Promise<ServerToClientEvents['safety'] extends (d: infer D) => void ? D : never>((resolve) => client.on('safety', resolve));
        await client.timeout(5000).emitWithAck('message', { content: 'can I speak to a manager' });
        const event = await safety;
        assert.equal(event.action, 'escalate');
        assert.equal(event.escalation?.reason, 'requested');
      } finally {
        client.close();
      }

      const viaWs = await create({ tts_provider: 'browser' });
      const ws = new WebSocket(`${t.url.replace('http', 'ws')}/v1/conversations/${viaWs.id}/ws`, { headers: { authorization: `Bearer ${t.key}` } });
      try {
        await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
        const frame = new Promise<{ type: string; data: { action: string; escalation?: { reason: string } } }>((resolve) =>
          ws.on('message', (raw) => {
            const parsed = JSON.parse(raw.toString()) as { type: string; data: { action: string } };
            if (parsed.type === 'safety') resolve(parsed);
          }),
        );
        ws.send(JSON.stringify({ type: 'message', data: { content: 'connect me to a human agent' } }));
        const { data } = await frame;
        assert.equal(data.action, 'escalate');
        assert.equal(data.escalation?.reason, 'requested');
      } finally {
        ws.terminate();
      }
    });
  });

  it(`lets ${ORDINARY_MESSAGES.length} ordinary support and small-talk messages through a real conversation untouched`, async () => {
    const { id } = await create({ tts_provider: 'browser', safety: { blocked_topics: [COMPETITORS] } });
    for (const content of ORDINARY_MESSAGES) await send(id, content);
    const conversation = await get(id);
    assert.equal(conversation.status, 'active');
    const flagged = conversation.messages.filter((m: { safety: string[] }) => m.safety.length > 0);
    assert.deepEqual(flagged, []);
    assert.equal(conversation.messages.length, ORDINARY_MESSAGES.length * 2);
  });
});

describe('Vendor moderation (MODERATION_PROVIDER=openai, replayed)', () => {
  let t: TestServer;
  let vendor: ReplayServer;
  let moderationDown = false;

  /** OpenAI's moderation answer: flags messages that mention "insult" (harassment) or "hopeless" (self-harm). */
  function moderation(input: string): string {
    const categories = {
      harassment: /insult/.test(input),
      'harassment/threatening': false,
      'self-harm': /hopeless/.test(input),
      'self-harm/intent': /hopeless/.test(input),
      violence: false,
    };
    const flagged = Object.values(categories).some(Boolean);
    return JSON.stringify({ id: 'modr-1', model: 'omni-moderation-latest', results: [{ flagged, categories, category_scores: {} }] });
  }

  before(async () => {
    vendor = await startReplayServer((request) => {
      if (request.url.endsWith('/moderations')) {
        if (moderationDown) return { status: 503, headers: { 'content-type': 'application/json' }, chunks: ['{"error":{"message":"down","type":"server_error"}}'] };
        return { headers: { 'content-type': 'application/json' }, chunks: [moderation((JSON.parse(request.body) as { input: string }).input)] };
      }
      return { headers: { 'content-type': 'text/event-stream' }, chunks: openAiStream('Here to help.') };
    });
    t = await startTestServer({
      env: { MODERATION_PROVIDER: 'openai', OPENAI_BASE_URL: `${vendor.url}/v1` },
      aiProviders: [createLocalProvider(), createOpenAIProvider({ baseUrl: `${vendor.url}/v1` })],
      speechProviders: [createLocalSpeechProvider()],
    });
  });
  after(async () => {
    await t.close();
    await vendor.close();
  });

  const converse = async (content: string) => {
    const created = await json(await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', ai_provider: 'openai', tts_provider: 'browser' } }));
    const before = vendor.requests.length;
    const reply = await json(await t.request(`/v1/conversations/${created.body.id}/messages`, { method: 'POST', json: { content } }));
    assert.equal(reply.status, 200, reply.text);
    const paths = vendor.requests.slice(before).map((r) => new URL(r.url, 'http://x').pathname);
    return { id: created.body.id as string, reply: reply.body as { content: string; safety: string[] }, paths, requests: vendor.requests.slice(before) };
  };

  it('checks each message before the AI: unflagged goes on to the model', async () => {
    const { reply, paths, requests } = await converse('What are your opening hours?');
    assert.deepEqual(paths, ['/v1/moderations', '/v1/chat/completions']);
    assert.deepEqual(JSON.parse(requests[0]!.body), { model: 'omni-moderation-latest', input: 'What are your opening hours?' });
    assert.equal(reply.content, 'Here to help.');
  });

  it('a flagged message is refused without reaching the model', async () => {
    const { reply, paths, id } = await converse('Write an insult for my neighbour');
    assert.deepEqual(paths, ['/v1/moderations']);
    assert.equal(reply.content, DEFAULT_SAFETY.refusal);
    assert.deepEqual(reply.safety, ['moderation_flagged']);
    const stored = await json(await t.request(`/v1/conversations/${id}`));
    assert.equal(stored.body.status, 'active');
  });

  it('a self-harm flag escalates as severe content', async () => {
    const { reply, paths, id } = await converse('Everything feels hopeless lately');
    assert.deepEqual(paths, ['/v1/moderations']);
    assert.equal(reply.content, DEFAULT_SAFETY.escalation.message);
    const stored = await json(await t.request(`/v1/conversations/${id}`));
    assert.equal(stored.body.status, 'escalated');
    assert.equal(stored.body.escalation_reason, 'severe_content');
  });

  it('messages the word lists stop are never sent to moderation; an outage lets messages pass', async () => {
    const asked = await converse('let me talk to a human');
    assert.deepEqual(asked.paths, []);
    moderationDown = true;
    try {
      const { reply, paths } = await converse('Do you ship to Canada?');
      assert.equal(paths.at(-1), '/v1/chat/completions');
      assert.ok(paths.filter((p) => p === '/v1/moderations').length >= 1);
      assert.equal(reply.content, 'Here to help.');
    } finally {
      moderationDown = false;
    }
  });
});
