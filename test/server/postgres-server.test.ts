// The real CLI server on DATABASE_URL=postgres://…: it migrates, serves a conversation turn, and
// a second process on the same database (and blob folder) sees everything the first stored.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { freePort, killCli, startCli } from '../support/processes.js';
import type { Cli } from '../support/processes.js';
import { startPostgres } from '../support/postgres-engine.js';
import type { PostgresEngine } from '../support/postgres-engine.js';

let engine: PostgresEngine;
let work: string;
const clis: Cli[] = [];
before(async () => {
  engine = await startPostgres();
  work = await mkdtemp(join(tmpdir(), 'avatar-pg-server-'));
});
after(async () => {
  for (const cli of clis) await killCli(cli);
  await engine?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

it('two server processes on one PostgreSQL database and one BLOB_DIR serve the same conversations and audio', async () => {
  const databaseUrl = await engine.createDatabase();
  const blobDir = join(work, 'blobs');
  const start = async (name: string) => {
    const port = await freePort();
    const cli = await startCli({
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(work, name),
      DATABASE_URL: databaseUrl,
      BLOB_DIR: blobDir,
      JWT_SECRET: 'a-shared-secret-of-at-least-32-characters',
      DEV_BOOTSTRAP: 'true',
      ACCESS_LOG: 'false',
      LOCAL_SPEECH_WORKERS: '1',
    });
    clis.push(cli);
    return { cli, base: `http://127.0.0.1:${port}` };
  };
  const a = await start('node-a');
  const key = /API key: (svc_test_[0-9A-Za-z]+)/.exec(a.cli.output())?.[1];
  assert.ok(key, `no demo key printed:\n${a.cli.output()}`);
  const b = await start('node-b');
  assert.ok(!/API key: svc_test_/.test(b.cli.output()), 'the second process finds the demo account the first stored');
  assert.ok(!existsSync(join(work, 'node-a', 'avatar.db')) && !existsSync(join(work, 'node-b', 'avatar.db')), 'no SQLite file is made');

  const api = async (base: string, path: string, json?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method: json === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${key}`, ...(json !== undefined && { 'content-type': 'application/json' }) },
      ...(json !== undefined && { body: JSON.stringify(json) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  const health = await fetch(`${a.base}/v1/health`);
  assert.equal(health.status, 200);
  const created = await api(a.base, '/v1/conversations', { avatar_id: 'luna-001' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id = String(created.body.id);
  const sent = await api(a.base, `/v1/conversations/${id}/messages`, { content: 'Hello from node A' });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));

  const seen = await api(b.base, `/v1/conversations/${id}`);
  assert.equal(seen.status, 200);
  const messages = seen.body.messages as { role: string; content: string; audio_url?: string | null }[];
  assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant']);
  assert.equal(messages[0]!.content, 'Hello from node A');
  const audioUrl = messages[1]!.audio_url;
  assert.ok(audioUrl, 'the reply has audio');
  // The audio node A wrote is served by node B from the shared folder.
  const audio = await fetch(new URL(new URL(audioUrl).pathname, b.base));
  assert.equal(audio.status, 200);
  assert.equal(audio.headers.get('content-type'), 'audio/mpeg');
  assert.ok((await audio.arrayBuffer()).byteLength > 0);
});
