import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { BlobStore } from '../../core/index.js';
import { FsBlobStore } from '../../core/index.js';
import { Metrics } from '../../server/index.js';
import { startTestServer } from '../support/test-server.js';
import { readSse } from '../support/sse-client.js';

/** The value of one sample line of a Prometheus exposition, e.g. `http_requests_total{…}`; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe('Operations: /metrics', () => {
  it('counts requests by route template, vendor calls, first token and first audio, connections and the webhook queue', async () => {
    const t = await startTestServer({ metrics: new Metrics() });
    try {
      const conversation = (await (await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } })).json()) as { id: string };
      const res = await t.request(`/v1/conversations/${conversation.id}/messages`, { method: 'POST', json: { content: 'Hello there!', stream: true } });
      const events = await readSse(res);
      assert.equal(events.at(-1)?.event, 'done');
      assert.ok(events.some((e) => e.event === 'audio'), 'the reply was spoken');
      await (await t.request(`/v1/conversations/${conversation.id}`)).text();
      assert.equal((await t.request('/v1/webhooks', { method: 'POST', json: { url: 'http://127.0.0.1:9/hooks', events: ['conversation.started'], secret: 'whsec-0123456789abcdef' } })).status, 201);

      const scrape = await t.request('/metrics', { auth: null });
      assert.equal(scrape.status, 200);
      assert.match(scrape.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      const text = await scrape.text();
      assert.equal(sample(text, 'http_requests_total', { method: 'GET', route: '/v1/conversations/:id', status: '200' }), 1);
      assert.equal(sample(text, 'http_requests_total', { method: 'POST', route: '/v1/conversations/:id/messages', status: '200' }), 1);
      assert.equal(sample(text, 'http_request_duration_seconds_count', { method: 'POST', route: '/v1/conversations/:id/messages', status: '200' }), 1);
      assert.doesNotMatch(text, new RegExp(conversation.id), 'raw paths never become labels');
      assert.equal(sample(text, 'vendor_call_duration_seconds_count', { kind: 'ai', provider: 'local', outcome: 'ok' }), 1);
      assert.ok(sample(text, 'vendor_call_duration_seconds_count', { kind: 'speech', provider: 'local', outcome: 'ok' })! >= 1);
      assert.equal(sample(text, 'ai_time_to_first_token_seconds_count', { provider: 'local' }), 1);
      assert.equal(sample(text, 'reply_time_to_first_audio_seconds_count'), 1);
      assert.equal(sample(text, 'open_connections', { transport: 'sse' }), 0);
      assert.equal(sample(text, 'open_connections', { transport: 'websocket' }), 0);
      assert.equal(typeof sample(text, 'webhook_queue_depth'), 'number');
      // A webhook whose receiver refuses: its first attempt fails and is rescheduled.
      await (await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } })).text();
      let retrying: number | undefined;
      for (let i = 0; i < 500 && !retrying; i++) {
        retrying = sample(await (await t.request('/metrics', { auth: null })).text(), 'webhook_attempts_total', { result: 'retrying' });
        if (!retrying) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(retrying, 1);
      assert.equal(sample(await (await t.request('/metrics', { auth: null })).text(), 'webhook_queue_depth'), 1, 'the retry waits in the queue');
      assert.equal(typeof sample(text, 'nodejs_eventloop_lag_p99_seconds'), 'number');
    } finally {
      await t.close();
    }
  });

  it('counts a failing speech engine as a vendor error by provider', async () => {
    const metrics = new Metrics();
    const t = await startTestServer({
      metrics,
      speechProviders: [
        {
          id: 'local',
          name: 'broken',
          available: async () => true,
          voices: () => [],
          engineVoiceFor: (voiceId) => voiceId,
          synthesize: async () => {
            throw new Error('engine down');
          },
          close: async () => undefined,
        },
      ],
    });
    try {
      const conversation = (await (await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', voice_id: 'local:en-US-1' } })).json()) as { id?: string };
      assert.ok(conversation.id, JSON.stringify(conversation));
      await (await t.request(`/v1/conversations/${conversation.id}/messages`, { method: 'POST', json: { content: 'Hello!' } })).text();
      const text = await (await t.request('/metrics', { auth: null })).text();
      assert.ok(sample(text, 'vendor_errors_total', { kind: 'speech', provider: 'local' })! >= 1, text);
    } finally {
      await t.close();
    }
  });

  it('needs METRICS_TOKEN as a bearer when set; without it, serves loopback clients that came through no proxy', async () => {
    const open = await startTestServer();
    try {
      assert.equal((await open.request('/metrics', { auth: null })).status, 200);
      const proxied = await open.request('/metrics', { auth: null, headers: { 'x-forwarded-for': '203.0.113.7' } });
      assert.equal(proxied.status, 403);
      assert.match(((await proxied.json()) as { error: { message: string } }).error.message, /METRICS_TOKEN/);
    } finally {
      await open.close();
    }
    const token = 'metrics-token-0123456789';
    const guarded = await startTestServer({ env: { METRICS_TOKEN: token } });
    try {
      assert.equal((await guarded.request('/metrics', { auth: null })).status, 401);
      assert.equal((await guarded.request('/metrics', { auth: 'metrics-token-wrong-0000' })).status, 401);
      assert.equal((await guarded.request('/metrics', { auth: guarded.key })).status, 401, 'an API key is not the metrics token');
      assert.equal((await guarded.request('/metrics', { auth: token })).status, 200);
    } finally {
      await guarded.close();
    }
  });
});

describe('Operations: health', () => {
  it('reports each dependency; ready and /health fail with the blob store, live does not', async () => {
    let broken = false;
    const blobDir = await mkdtemp(join(tmpdir(), 'avatar-health-'));
    const t = await startTestServer({
      blobs: new (class extends FsBlobStore {
        override async put(key: string, data: Uint8Array): Promise<void> {
          if (broken) throw new Error('EROFS: read-only file system');
          return super.put(key, data);
        }
      })(blobDir) as BlobStore,
    });
    try {
      const ready = await t.request('/health/ready', { auth: null });
      assert.equal(ready.status, 200);
      const body = (await ready.json()) as { status: string; checks: Record<string, { status: string }> };
      assert.equal(body.status, 'ok');
      assert.deepEqual(Object.keys(body.checks).sort(), ['blob_store', 'database']);
      assert.ok(Object.values(body.checks).every((check) => check.status === 'ok'));

      broken = true;
      const failing = await t.request('/health/ready', { auth: null });
      assert.equal(failing.status, 503);
      assert.equal(failing.headers.get('retry-after'), '30');
      const report = (await failing.json()) as { status: string; checks: { blob_store: { status: string; problem: string }; database: { status: string } } };
      assert.equal(report.status, 'unavailable');
      assert.equal(report.checks.blob_store.status, 'failing');
      assert.match(report.checks.blob_store.problem, /EROFS/);
      assert.equal(report.checks.database.status, 'ok');
      for (const path of ['/health', '/v1/health']) {
        const old = await t.request(path, { auth: null });
        assert.equal(old.status, 503);
        assert.match(((await old.json()) as { error: { code: string; message: string } }).error.message, /blob_store: EROFS/);
      }
      assert.equal((await t.request('/health/live', { auth: null })).status, 200);
    } finally {
      await t.close();
      await rm(blobDir, { recursive: true, force: true });
    }
  });

  it('fails readiness and refuses new streams once shutting down', async () => {
    const t = await startTestServer();
    try {
      const conversation = (await (await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001' } })).json()) as { id: string };
      t.host.shutdown({ reason: 'shutdown', retry_after_ms: 1000 });
      const ready = await t.request('/health/ready', { auth: null });
      assert.equal(ready.status, 503);
      assert.equal(((await ready.json()) as { status: string }).status, 'shutting_down');
      assert.equal((await t.request('/health/live', { auth: null })).status, 200);
      const stream = await t.request(`/v1/conversations/${conversation.id}/messages`, { method: 'POST', json: { content: 'Hi', stream: true } });
      assert.equal(stream.status, 503);
      assert.equal(((await stream.json()) as { error: { code: string } }).error.code, 'unavailable');
    } finally {
      await t.close();
    }
  });
});
