import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ProviderError } from '../../../../core/errors.js';
import { createOpenAIModeration } from '../../../../core/providers/openai/index.js';
import type { VendorHttpSettings } from '../../../../core/vendor-http/http-settings.js';
import { startReplayServer } from '../../../support/replay-server.js';
import type { ReplayResponse, ReplayServer } from '../../../support/replay-server.js';
import { readFixture } from '../vendor-chat-conformance.js';

const apiKey = 'sk-test-moderation-5678';
const json = (status: number, body: string, headers: Record<string, string> = {}): ReplayResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  chunks: [body],
});
/** Retries without waiting, so tests stay fast; the delays asked for are recorded. */
const noWait = (waits: number[] = []): VendorHttpSettings => ({ sleep: async (ms) => void waits.push(ms), random: () => 0 });

describe('OpenAI moderation (replayed wire format)', () => {
  const servers: ReplayServer[] = [];
  const serve = async (...script: Parameters<typeof startReplayServer>) => {
    const server = await startReplayServer(...script);
    servers.push(server);
    return server;
  };
  after(async () => {
    for (const server of servers) await server.close();
  });

  it('POSTs {model, input} to /moderations with the key and maps the categories that fired', async () => {
    const vendor = await serve([json(200, readFixture('openai', 'moderation-flagged.body.json'))]);
    const moderation = createOpenAIModeration({ apiKey, baseUrl: `${vendor.url}/v1` });
    const result = await moderation.check("I'm going to hurt you");
    assert.deepEqual(result, { flagged: true, categories: ['harassment', 'harassment/threatening', 'violence'] });
    const [request] = vendor.requests;
    assert.equal(request?.method, 'POST');
    assert.equal(request?.url, '/v1/moderations');
    assert.equal(request?.headers.authorization, `Bearer ${apiKey}`);
    assert.equal(request?.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(request!.body), { model: 'omni-moderation-latest', input: "I'm going to hurt you" });
    assert.equal(moderation.provider, 'openai');
  });

  it('answers unflagged text with no categories; the model can be chosen', async () => {
    const vendor = await serve([json(200, readFixture('openai', 'moderation-clean.body.json'))]);
    const result = await createOpenAIModeration({ apiKey, baseUrl: `${vendor.url}/v1`, model: 'text-moderation-stable' }).check('Hello there');
    assert.deepEqual(result, { flagged: false, categories: [] });
    assert.equal((JSON.parse(vendor.requests[0]!.body) as { model: string }).model, 'text-moderation-stable');
  });

  it('a 401 fails at once with the vendor message and never the key', async () => {
    const body = JSON.stringify({ error: { message: `Incorrect API key provided: ${apiKey}.`, type: 'invalid_request_error', code: 'invalid_api_key' } });
    const vendor = await serve([json(401, body)]);
    const error = await createOpenAIModeration({ apiKey, baseUrl: `${vendor.url}/v1`, http: noWait() }).check('hi').catch((e: unknown) => e);
    assert.ok(error instanceof ProviderError);
    assert.match(error.message, /Incorrect API key/);
    assert.ok(!error.message.includes(apiKey), error.message);
    assert.equal(vendor.requests.length, 1);
  });

  it('retries a 500 and then answers', async () => {
    const waits: number[] = [];
    const vendor = await serve([json(500, readFixture('openai', 'server-error-500.body.json')), json(200, readFixture('openai', 'moderation-clean.body.json'))]);
    const result = await createOpenAIModeration({ apiKey, baseUrl: `${vendor.url}/v1`, http: noWait(waits) }).check('hi');
    assert.equal(result.flagged, false);
    assert.equal(vendor.requests.length, 2);
    assert.equal(waits.length, 1);
  });

  for (const [what, body] of [
    ['no results', '{"id":"modr-1","model":"omni-moderation-latest","results":[]}'],
    ['a flag that is not a boolean', '{"results":[{"flagged":"yes","categories":{}}]}'],
    ['no categories', '{"results":[{"flagged":true}]}'],
    ['not JSON', '<html>gateway</html>'],
  ] as const) {
    it(`refuses a response with ${what} as malformed, without retrying`, async () => {
      const vendor = await serve([json(200, body)]);
      await assert.rejects(createOpenAIModeration({ apiKey, baseUrl: `${vendor.url}/v1`, http: noWait() }).check('hi'), (e: unknown) => {
        assert.ok(e instanceof ProviderError && /malformed/.test(e.message), String(e));
        return true;
      });
      assert.equal(vendor.requests.length, 1);
    });
  }

  it('stops when the caller aborts', async () => {
    const vendor = await serve([{ fault: 'headers' }]);
    const controller = new AbortController();
    const pending = createOpenAIModeration({ apiKey, baseUrl: `${vendor.url}/v1` }).check('hi', controller.signal);
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(pending, { name: 'AbortError' });
  });

  it('without a key fails before any request on the default URL, and sends no Authorization to a custom one', async () => {
    await assert.rejects(createOpenAIModeration({}).check('hi'), (e: unknown) => e instanceof ProviderError && /OPENAI_API_KEY/.test(e.message));
    const vendor = await serve([json(200, readFixture('openai', 'moderation-clean.body.json'))]);
    await createOpenAIModeration({ baseUrl: `${vendor.url}/v1` }).check('hi');
    assert.equal(vendor.requests[0]?.headers.authorization, undefined);
  });
});
