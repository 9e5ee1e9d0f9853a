import { expect } from '@open-wc/testing';
import { SessionCredentials, readJson } from '../../widget/transport/session-credentials.js';
import { WidgetError } from '../../widget/transport/transport.js';

const response = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('widget REST responses', () => {
  it('reads the flat style as it is', async () => {
    const body = { id: 'conv_1', avatar_id: 'luna-001', config: { tts_provider: 'local' } };
    expect(await readJson(response(200, body), 'GET')).to.deep.equal(body);
  });

  it('unwraps the envelope style and renames its camelCase fields', async () => {
    const envelope = {
      data: { id: 'c1', avatarId: 'luna-001', config: { ttsProvider: 'browser' }, messages: [{ id: 'm1', audioUrl: null }] },
      meta: { requestId: 'req_1' },
    };
    expect(await readJson(response(200, envelope), 'GET')).to.deep.equal({
      id: 'c1',
      avatar_id: 'luna-001',
      config: { tts_provider: 'browser' },
      messages: [{ id: 'm1', audio_url: null }],
    });
  });

  it('turns error bodies of either style into a WidgetError with the code and message', async () => {
    for (const code of ['conversation_ended', 'CONVERSATION_ENDED']) {
      const error = await readJson(response(409, { error: { code, message: 'This conversation has ended' } }), 'POST').catch((e: unknown) => e);
      expect(error).to.be.instanceOf(WidgetError);
      expect((error as WidgetError).code).to.equal('conversation_ended');
      expect((error as WidgetError).message).to.equal('This conversation has ended');
    }
  });
});

describe('session-url requests', () => {
  it('asks for a new conversation with the avatar, then renews for that conversation only', async () => {
    const bodies: unknown[] = [];
    const fakeHost: typeof fetch = async (_url, init) => {
      bodies.push(JSON.parse(String(init?.body)));
      return response(201, { token: `sess_${bodies.length}`, expires_at: new Date(Date.now() + 3_600_000).toISOString(), conversation_id: 'conv_1' });
    };
    const credentials = new SessionCredentials({ server: 'https://avatars.example/v1', sessionUrl: '/api/avatar-session', avatarId: 'luna-001', ttsProvider: 'local', fetch: fakeHost });
    expect((await credentials.current()).conversationId).to.equal('conv_1');
    await credentials.refresh();
    // A host forwarding the body to POST /v1/sessions must not send both ids (that is a 400).
    expect(bodies).to.deep.equal([{ avatar_id: 'luna-001', tts_provider: 'local' }, { conversation_id: 'conv_1' }]);
  });
});
