import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/chromium.js';
import { freePort, until } from './support/processes.js';
import { repoRoot } from './support/repo-root.js';
import { startTestServer } from './support/test-server.js';
import type { TestServer } from './support/test-server.js';

/**
 * The README's host example (the `js` block under "The widget"), run as a site would run it: its
 * session endpoint forwards the widget's body verbatim to a real server's `POST /v1/sessions`,
 * and its page embeds the widget from that server, on another origin, with browser speech.
 */
describe('README example: a host with the widget and its session endpoint', () => {
  let dir: string;
  let host: ChildProcess;
  let hostUrl: string;
  let output = '';
  let t: TestServer;

  before(async () => {
    const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## The widget'), readme.indexOf('## Safety'));
    const block = /```js\n([\s\S]*?)```/.exec(section)?.[1];
    assert.ok(block, 'README has a js block under "The widget"');
    t = await startTestServer();
    dir = await mkdtemp(join(tmpdir(), 'avatar-host-'));
    await writeFile(join(dir, 'host.mjs'), block);
    const port = await freePort();
    hostUrl = `http://127.0.0.1:${port}`;
    host = spawn(process.execPath, [join(dir, 'host.mjs')], { env: { ...process.env, AVATAR_SERVER: t.url, AVATAR_KEY: t.key, PORT: String(port) } });
    host.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    host.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    await until(() => fetch(hostUrl).then(() => true, () => false), `the host to listen (${output})`);
  });
  after(async () => {
    host?.kill();
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const forward = (body: unknown) =>
    fetch(`${hostUrl}/api/avatar-session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('forwards each body the widget sends: a new conversation with its choices, then a renewal of it', async () => {
    const created = await forward({ avatar_id: 'sofia-003', tts_provider: 'browser' });
    assert.equal(created.status, 201, await created.clone().text());
    const session = (await created.json()) as { token: string; conversation_id: string; expires_at: string };
    assert.match(session.token, /^sess_/);
    const conversation = (await (await t.request(`/v1/conversations/${session.conversation_id}`, { auth: session.token })).json()) as {
      avatar_id: string;
      config: { tts_provider: string };
    };
    assert.equal(conversation.avatar_id, 'sofia-003');
    assert.equal(conversation.config.tts_provider, 'browser');

    const renewed = await forward({ conversation_id: session.conversation_id });
    assert.equal(renewed.status, 201);
    assert.equal(((await renewed.json()) as { conversation_id: string }).conversation_id, session.conversation_id);

    const persona = await forward({ avatar_id: 'luna-001', persona_id: 'edu-math-tutor' });
    assert.equal(persona.status, 201, await persona.clone().text());
  });

  it('passes the service’s refusals back, by the rules of POST /v1/conversations', async () => {
    for (const [body, field] of [
      [{ avatar_id: 'nobody-000' }, 'avatar_id'],
      [{ tts_provider: 'robot' }, 'tts_provider'],
      [{ persona_id: 'no-such-persona' }, 'persona_id'],
      [{ ai_provider: 'openai' }, 'ai_provider'],
      [{ conversation_id: 'conv_x', tts_provider: 'browser' }, 'conversation_id'],
    ] as const) {
      const res = await forward(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      const direct = await t.request('/v1/conversations', { method: 'POST', json: { avatar_id: 'luna-001', ...body } });
      const { error } = (await res.json()) as { error: { code: string; message: string } };
      assert.equal(error.code, 'invalid_request');
      assert.match(error.message, new RegExp(field));
      if (field === 'avatar_id' || field === 'persona_id' || field === 'tts_provider') {
        assert.equal(direct.status, 400, `POST /v1/conversations refuses ${JSON.stringify(body)} too`);
        assert.equal(((await direct.json()) as { error: { message: string } }).error.message, error.message, 'the same rule, the same words');
      }
    }
  });

  it('serves a page whose <avatar-chat tts-provider="browser"> becomes ready and answers in Chromium', { skip: !existsSync(CHROMIUM_PATH) || !existsSync(join(repoRoot, 'dist/widget/avatar-chat.js')) ? 'needs /usr/bin/chromium and the widget bundle' : false }, async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      const sessionBodies: string[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/api/avatar-session')) sessionBodies.push(request.postData() ?? '');
      });
      await page.goto(hostUrl);
      await page.waitForFunction(() => (document.querySelector('avatar-chat') as unknown as { status: string }).status === 'ready', undefined, { timeout: 60_000 }).catch((error: Error) => {
        throw new Error(`${error.message}; page errors: ${problems.join(' | ')}`);
      });
      assert.deepEqual(sessionBodies.map((body) => JSON.parse(body)), [{ avatar_id: 'luna-001', tts_provider: 'browser' }]);
      const reply = await page.evaluate(
        () =>
          new Promise<{ role: string; content: string }>((resolve) => {
            const chat = document.querySelector('avatar-chat') as HTMLElement & { send(text: string): void };
            chat.addEventListener('avatar-message', (event) => {
              const message = (event as CustomEvent<{ role: string; content: string }>).detail;
              if (message.role === 'assistant') resolve(message);
            });
            chat.send('Hello! My name is Sam.');
          }),
      );
      assert.ok(reply.content.length > 0, 'the avatar answered');
    } finally {
      await browser.close();
    }
  });
});
