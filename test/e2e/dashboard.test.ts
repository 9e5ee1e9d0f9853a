// End to end: the dashboard at `/dashboard` of a real server (offline AI and speech), driven in
// Debian's Chromium through playwright-core. Needs `npm run build` (the dashboard bundle).
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { loadConfig, startServer } from '../../server/index.js';
import type { RunningServer } from '../../server/index.js';
import { repoRoot } from '../support/repo-root.js';
import { startReceiver } from '../support/webhook-receiver.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH, freePort } from './chromium.js';

const require = createRequire(import.meta.url);
const bundleBuilt = existsSync(join(repoRoot, 'dist/widget/dashboard.js'));
const chromiumPresent = existsSync(CHROMIUM_PATH);

const EMAIL = 'owner@example.com';
const PASSWORD = 'correct horse battery';
const JWT_SECRET = 'dashboard-e2e-secret-0123456789abcdef0123456789';
const AREAS = ['keys', 'webhooks', 'usage', 'conversations', 'avatars', 'playground'] as const;

describe('dashboard end to end', { skip: !bundleBuilt || !chromiumPresent ? 'needs the dashboard bundle and /usr/bin/chromium' : false }, () => {
  let server: RunningServer;
  let dataDir: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let accountId: string;
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'avatar-dashboard-'));
    const port = await freePort();
    server = await startServer(
      loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), ACCESS_LOG: 'false', JWT_SECRET, ALLOW_INSECURE_WEBHOOKS: 'true' }),
    );
    // The pro tier (300 requests a minute): the suite makes a holder's hour of requests in a minute.
    accountId = (await server.service.accounts.createAccount({ email: EMAIL, password: PASSWORD, tier: 'pro' })).id;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    // The copy button writes the clipboard; the test reads it back.
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') consoleErrors.push(message.text());
    });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const signIn = async (view: Page, password = PASSWORD) => {
    await view.locator('input[name="email"]').fill(EMAIL);
    await view.locator('input[name="password"]').fill(password);
    await view.locator('button[type="submit"]', { hasText: 'Sign in' }).click();
  };
  const open = async (view: Page, area: string) => {
    await view.locator(`nav a[href="#${area}"]`).click();
    await view.locator(`dash-${area} h2`).waitFor();
  };
  const jwtOf = (view: Page) => view.evaluate(() => (document.querySelector('avatar-dashboard') as unknown as { client: { token?: string } }).client.token);

  it('serves a shell with a strict CSP and no secret in it', async () => {
    const response = await page.goto(server.url + '/dashboard');
    assert.equal(response?.status(), 200);
    const headers = response!.headers();
    assert.match(headers['content-security-policy'] ?? '', /script-src 'self'(;|$)/);
    assert.match(headers['content-security-policy'] ?? '', /frame-ancestors 'none'/);
    const shell = await response!.text();
    assert.doesNotMatch(shell, /svc_(live|test)_|eyJ|<script(?![^>]*\bsrc=)/, 'no key, no token, no inline script');
    const bundle = await fetch(server.url + '/dashboard/dashboard.js');
    assert.equal(bundle.status, 200);
    assert.equal(bundle.headers.get('cache-control'), 'no-cache', 'the entry is revalidated on every load');
    assert.equal((await fetch(server.url + '/dashboard/avatar-chat.js')).status, 404, 'only the dashboard files');
    // The chunks it loads on demand carry their hash in their names and are cached for good.
    const files = readdirSync(join(repoRoot, 'dist/widget'));
    const chunks = files.filter((name) => /^dashboard-uplot-esm-[\w-]{8}\.js$/.test(name));
    assert.equal(chunks.length, 1, chunks.join());
    // The widget is not bundled twice: the areas showing <avatar-chat> load the site's /widget/avatar-chat.js.
    assert.deepEqual(files.filter((name) => /^dashboard-.*(widget|three|socket)/.test(name)), []);
    for (const chunk of chunks) {
      const response = await fetch(`${server.url}/dashboard/${chunk}`);
      assert.deepEqual([response.status, response.headers.get('cache-control')], [200, 'public, max-age=31536000, immutable'], chunk);
    }
  });

  it('refuses a wrong password with a message and keeps the form', async () => {
    await page.goto(server.url + '/dashboard');
    await signIn(page, 'not the password');
    const alert = page.locator('#signin-error');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /incorrect/i);
    assert.equal(await page.locator('nav').count(), 0, 'not signed in');
    assert.equal(await page.locator('button', { hasText: 'Create an account' }).count(), 0, 'sign-up is off (ALLOW_SIGNUP unset)');
  });

  it('creates a key shown once, copies it, the key works, then revoking it refuses it', async () => {
    await page.goto(server.url + '/dashboard#keys');
    await signIn(page);
    await page.locator('dash-keys h2').waitFor();
    await page.locator('dash-keys input[name="name"]').fill('e2e server');
    await page.locator('dash-keys button[type="submit"]', { hasText: 'Create key' }).click();
    const value = page.locator('[data-created] [data-key-value]');
    await value.waitFor();
    const key = (await value.textContent())!.trim();
    assert.match(key, /^svc_test_[A-Za-z0-9_-]+$/);
    assert.match((await page.locator('[data-created] .warning').textContent()) ?? '', /only time/);

    await page.locator('[data-created] button', { hasText: 'Copy' }).click();
    await page.locator('[data-created] [role="status"]', { hasText: 'Copied' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key);

    // The listed key shows only its redacted form; once dismissed, the value is gone from the page.
    const row = page.locator('dash-keys tr', { hasText: 'e2e server' });
    assert.equal(await row.locator('code').textContent(), `svc_test_…${key.slice(-4)}`);
    await page.locator('[data-created] button', { hasText: 'hide the key' }).click();
    await page.locator('[data-created]').waitFor({ state: 'detached' });
    assert.ok(!(await page.content()).includes(key), 'the value is no longer in the page');

    const create = () =>
      fetch(server.url + '/v1/conversations', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ avatar_id: 'luna-001' }),
      });
    assert.equal((await create()).status, 201);

    await row.locator('button', { hasText: 'Revoke' }).click();
    const dialog = page.locator('dialog#revoke');
    await dialog.waitFor();
    assert.match((await dialog.textContent()) ?? '', /e2e server/);
    await dialog.locator('button', { hasText: 'Revoke key' }).click();
    await page.locator('dash-keys [role="status"]', { hasText: 'revoked' }).waitFor();
    assert.equal(await page.locator('dash-keys tr', { hasText: 'e2e server' }).count(), 0);
    const refused = await create();
    assert.equal(refused.status, 401);
  });

  it('asks to sign in again when the server refuses an expired token', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(accountId)
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(new TextEncoder().encode(JWT_SECRET));
    // Signed with the server's secret, for this account: refused only for its age.
    const probe = await fetch(server.url + '/v1/api-keys', { headers: { authorization: `Bearer ${expired}` } });
    assert.equal(probe.status, 401);
    await page.evaluate((token) => {
      (document.querySelector('avatar-dashboard') as unknown as { client: { token: string } }).client.token = token;
    }, expired);
    await page.locator('nav a[href="#usage"]').click();
    const prompt = page.locator('[data-expired]');
    await prompt.waitFor();
    assert.match((await prompt.textContent()) ?? '', /expired.*sign in again/i);
    assert.equal(await page.locator('nav').count(), 0);
    await signIn(page);
    await page.locator('nav').waitFor();
    assert.equal(await page.locator('[data-expired]').count(), 0);
  });

  it('registers a webhook, sends a test event and shows the delivery', async () => {
    // The receiver checks signatures with the secret the page shows once (read below).
    const receiverOptions = { secret: 'unknown-until-the-page-shows-it' };
    const receiver = await startReceiver(receiverOptions);
    try {
      await open(page, 'webhooks');
      await page.locator('dash-webhooks button', { hasText: 'Create a test key for this session' }).click();
      await page.locator('dash-webhooks input[name="url"]').waitFor();
      await page.locator('dash-webhooks input[name="url"]').fill(receiver.url);
      await page.locator('dash-webhooks button[type="submit"]', { hasText: 'Register webhook' }).click();
      const secret = (await page.locator('[data-webhook-secret] code').first().textContent())!.trim();
      assert.ok(secret.length >= 32);
      receiverOptions.secret = secret;
      const row = page.locator('dash-webhooks tr[data-webhook-id]');
      await row.waitFor();
      await row.locator('button', { hasText: 'Send test event' }).click();
      await receiver.waitFor((events) => events.length > 0);
      assert.ok(receiver.received[0]!.verified, 'signed with the shown secret');
      assert.equal(receiver.received[0]!.body.type, 'conversation.started');
      const delivery = page.locator('[data-deliveries] tr[data-delivery-id]').first();
      await page.locator('[data-deliveries] tr[data-delivery-id] [data-response]', { hasText: '200' }).waitFor({ timeout: 15_000 });
      assert.match((await delivery.textContent()) ?? '', /conversation\.started.*succeeded/s);
      assert.match((await delivery.textContent()) ?? '', /\d+ ms/);

      // A paused webhook (here through the API) is re-enabled from its row.
      const webhookId = (await row.getAttribute('data-webhook-id'))!;
      const key = await page.evaluate(() => (document.querySelector('avatar-dashboard') as unknown as { client: { key: string } }).client.key);
      const hook = (method: string, body?: unknown) =>
        fetch(`${server.url}/v1/webhooks/${webhookId}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body !== undefined && { body: JSON.stringify(body) }) });
      assert.equal((await hook('PATCH', { status: 'disabled' })).status, 200);
      await open(page, 'keys');
      await open(page, 'webhooks');
      await row.locator('button', { hasText: 'Re-enable' }).click();
      await page.locator('dash-webhooks [role="status"]', { hasText: 're-enabled' }).waitFor();
      assert.equal(((await (await hook('GET')).json()) as { status: string }).status, 'active');
    } finally {
      await receiver.close();
    }
  });

  it("charts the day's usage from real conversations and lists them with their transcripts", async () => {
    // A conversation with one exchange, with the key the dashboard acts with (test mode).
    const key = await page.evaluate(() => (document.querySelector('avatar-dashboard') as unknown as { client: { key: string } }).client.key);
    const call = (path: string, body: unknown) =>
      fetch(server.url + '/v1' + path, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const conversation = (await (await call('/conversations', { avatar_id: 'luna-001' })).json()) as { id: string };
    const reply = (await (await call(`/conversations/${conversation.id}/messages`, { content: 'Hello, who are you?' })).json()) as { content: string };
    assert.ok(reply.content.length > 0);

    const daily = (await (await fetch(server.url + '/v1/usage/daily?days=30', { headers: { authorization: `Bearer ${await jwtOf(page)}` } })).json()) as {
      days: { date: string; ai_tokens: number; tts_characters: number; conversations: number }[];
    };
    const today = new Date().toISOString().slice(0, 10);
    const figures = daily.days.find((d) => d.date === today)!;
    assert.ok(figures.ai_tokens > 0 && figures.conversations >= 1, JSON.stringify(figures));

    await open(page, 'usage');
    await page.locator('dash-usage .chart canvas').first().waitFor();
    const day = page.locator(`[data-usage-table] tr[data-day="${today}"]`);
    for (const field of ['ai_tokens', 'tts_characters', 'conversations'] as const) {
      assert.equal(await day.locator(`[data-field="${field}"]`).textContent({ timeout: 10_000 }), figures[field].toLocaleString('en-US'), field);
    }

    await open(page, 'conversations');
    const row = page.locator(`[data-conversations] tr[data-conversation-id="${conversation.id}"]`);
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /luna-001/);
    await row.locator('button', { hasText: 'Transcript' }).click();
    const transcript = page.locator('[data-transcript]');
    await transcript.locator('li[data-role="assistant"]').waitFor();
    assert.match((await transcript.locator('li[data-role="user"]').textContent()) ?? '', /Hello, who are you\?/);
    assert.ok(((await transcript.locator('li[data-role="assistant"]').textContent()) ?? '').includes(reply.content));
    // Filters: an ended conversation is listed under "ended", not under "active".
    await call(`/conversations/${conversation.id}/end`, {});
    const listed = page.locator(`[data-conversations] tr[data-conversation-id="${conversation.id}"]`);
    const filter = async (status: string) => {
      const answer = page.waitForResponse((response) => response.url().includes(`/v1/conversations?`) && response.url().includes(`status=${status}`));
      await page.locator('dash-conversations select[name="status"]').selectOption(status);
      await page.locator('dash-conversations button', { hasText: 'Apply filters' }).click();
      await answer;
      await page.evaluate(() => (document.querySelector('avatar-dashboard')!.shadowRoot!.querySelector('dash-conversations') as unknown as { updateComplete: Promise<boolean> }).updateComplete);
      return listed.count();
    };
    assert.equal(await filter('ended'), 1);
    assert.equal(await filter('active'), 0);
    const audio = transcript.locator('li[data-role="assistant"] audio');
    if ((await audio.count()) > 0) {
      const src = (await audio.getAttribute('src'))!;
      assert.equal((await fetch(src)).status, 200, 'the reply audio plays from its URL');
    }
  });

  it('rotates a key step by step: new key, switch, revoke the old one', async () => {
    await open(page, 'keys');
    const oldKey = (await (await fetch(server.url + '/v1/api-keys', {
      method: 'POST',
      headers: { authorization: `Bearer ${await jwtOf(page)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'shop backend', mode: 'test' }),
    })).json()) as { key: string };
    await open(page, 'usage');
    await open(page, 'keys');
    await page.locator('dash-keys tr', { hasText: 'shop backend' }).locator('button', { hasText: 'Rotate' }).click();
    const panel = page.locator('[data-rotation]');
    await panel.locator('button', { hasText: 'Create the new key' }).click();
    const newKey = (await panel.locator('[data-key-value]').textContent())!.trim();
    assert.match(newKey, /^svc_test_/);
    assert.notEqual(newKey, oldKey.key);
    await panel.locator('button', { hasText: 'My application uses the new key' }).click();
    await panel.locator('button', { hasText: 'Revoke the old key' }).click();
    await page.locator('dialog#revoke button', { hasText: 'Revoke key' }).click();
    await panel.locator('text=Rotation complete.').waitFor();
    const use = (key: string) => fetch(server.url + '/v1/usage', { headers: { authorization: `Bearer ${key}` } });
    assert.equal((await use(oldKey.key)).status, 401);
    assert.equal((await use(newKey)).status, 200);
    assert.equal(await page.locator('dash-keys tr', { hasText: /^shop backend$/ }).count(), 0);
  });

  it('uploads a VRM avatar, edits its name, voice and traits, previews it in <avatar-chat>, and deletes it', async () => {
    await open(page, 'avatars');
    await page.locator('dash-avatars input[type="file"]').setInputFiles(join(repoRoot, 'assets/avatars/atlas-002.vrm'));
    await page.locator('dash-avatars input[name="name"]').last().fill('Robin');
    await page.locator('dash-avatars button[type="submit"]', { hasText: 'Upload' }).click();
    await page.locator('dash-avatars [role="status"]', { hasText: 'uploaded' }).waitFor({ timeout: 30_000 });
    const row = page.locator('dash-avatars tr', { hasText: 'Robin' });
    const id = (await row.getAttribute('data-avatar-id'))!;
    assert.match(id, /^robin-\d+$/);

    await row.locator('button', { hasText: 'Edit' }).click();
    const form = page.locator('dash-avatars form', { has: page.locator('button', { hasText: 'Save' }) });
    await form.locator('input[name="name"]').fill('Robin Hood');
    await form.locator('select[name="default_voice"]').selectOption('en-US-Neural2-D');
    await form.locator('textarea[name="personality"]').fill('Generous and bold.');
    await form.locator('textarea[name="speaking_style"]').fill('Short, merry sentences.');
    await form.locator('button', { hasText: 'Save' }).click();
    await page.locator('dash-avatars [role="status"]', { hasText: 'saved' }).waitFor();
    const key = await page.evaluate(() => (document.querySelector('avatar-dashboard') as unknown as { client: { key: string } }).client.key);
    const stored = (await (await fetch(`${server.url}/v1/avatars/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      name: string;
      default_voice: string;
      traits: { personality: string; speaking_style: string };
    };
    assert.deepEqual([stored.name, stored.default_voice, stored.traits], ['Robin Hood', 'en-US-Neural2-D', { personality: 'Generous and bold.', speaking_style: 'Short, merry sentences.' }]);

    await page.locator('dash-avatars tr', { hasText: 'Robin Hood' }).locator('button', { hasText: 'Preview' }).click();
    // The element says it is ready on its stage (data-status), as its `avatar-ready` event fires.
    await page.locator('dash-avatars avatar-chat [part="stage"][data-status="ready"]').waitFor({ timeout: 90_000 });
    assert.match((await page.locator('dash-avatars avatar-chat [part="status"]').textContent()) ?? '', /Robin Hood/);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.locator('dash-avatars tr', { hasText: 'Robin Hood' }).locator('button', { hasText: 'Delete' }).click();
    await page.locator('dash-avatars [role="status"]', { hasText: 'deleted' }).waitFor();
    assert.equal((await fetch(`${server.url}/v1/avatars/${id}`, { headers: { authorization: `Bearer ${key}` } })).status, 404);
  });

  it('the playground talks with the chosen avatar, persona and providers and prints the embed code for them', async () => {
    await open(page, 'playground');
    await page.locator('dash-playground select[name="avatar_id"]').selectOption('luna-001');
    const persona = await page.locator('dash-playground select[name="persona_id"] option').nth(1).getAttribute('value');
    await page.locator('dash-playground select[name="persona_id"]').selectOption(persona!);
    await page.locator('dash-playground select[name="ai_provider"]').selectOption('local');
    await page.locator('dash-playground select[name="tts_provider"]').selectOption('local');
    await page.locator('dash-playground button[type="submit"]').click();
    const chat = page.locator('dash-playground avatar-chat');
    await chat.locator('[part="stage"][data-status="ready"]').waitFor({ timeout: 90_000 }).catch(async (error: Error) => {
      const stage = chat.locator('[part="stage"]');
      const said = await page.evaluate(() => document.querySelector('avatar-dashboard')!.shadowRoot!.querySelector('dash-playground avatar-chat')!.shadowRoot!.textContent);
      throw new Error(`${error.message}\nstage: ${await stage.getAttribute('data-status').catch(() => 'none')}: ${said?.replace(/\s+/g, ' ')}\nconsole: ${consoleErrors.join('\n')}`);
    });
    const input = chat.locator('input[name="message"]');
    await input.fill('Hello there!');
    await input.press('Enter');
    await chat.locator('[part~="message-assistant"] .text').first().waitFor({ timeout: 60_000 });

    const conversationId = (await chat.getAttribute('conversation-id'))!;
    const key = await page.evaluate(() => (document.querySelector('avatar-dashboard') as unknown as { client: { key: string } }).client.key);
    const conversation = (await (await fetch(`${server.url}/v1/conversations/${conversationId}`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      avatar_id: string;
      persona_id: string;
      config: { ai_provider: string; tts_provider: string };
    };
    assert.deepEqual([conversation.avatar_id, conversation.persona_id, conversation.config.ai_provider, conversation.config.tts_provider], ['luna-001', persona, 'local', 'local']);
    const snippet = (await page.locator('[data-snippet]').textContent()) ?? '';
    assert.ok(snippet.includes(`<script type="module" src="${server.url}/widget/avatar-chat.js"></script>`), snippet);
    assert.ok(snippet.includes(JSON.stringify({ avatar_id: 'luna-001', persona_id: persona, ai_provider: 'local', tts_provider: 'local' })), snippet);
    assert.doesNotMatch(snippet, /svc_(test|live)_/, 'the key is not in the embed code');
  });

  it('is usable from the keyboard: sign in, move between areas, cancel a confirmation', async () => {
    const view = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const active = () =>
      view.evaluate(() => {
        let element = document.activeElement;
        while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
        return `${element?.tagName.toLowerCase()}${element?.getAttribute('name') ? `[name=${element.getAttribute('name')}]` : ''} ${element?.textContent?.trim() ?? ''}`;
      });
    try {
      await view.goto(server.url + '/dashboard');
      await view.locator('input[name="email"]').waitFor();
      await view.keyboard.press('Tab');
      assert.match(await active(), /^input\[name=email\]/);
      await view.keyboard.type(EMAIL);
      await view.keyboard.press('Tab');
      await view.keyboard.type(PASSWORD);
      await view.keyboard.press('Enter');
      await view.locator('dash-keys h2').waitFor();
      // Tab moves along the areas' links in order.
      await view.locator('nav a[href="#keys"]').focus();
      await view.keyboard.press('Tab');
      assert.equal(await active(), 'a Webhooks');
      await view.keyboard.press('Tab');
      assert.equal(await active(), 'a Usage');
      await view.keyboard.press('Enter');
      await view.locator('dash-usage h2').waitFor();
      assert.equal(await view.locator('nav a[aria-current="page"]').textContent(), 'Usage');

      await view.locator('nav a[href="#keys"]').focus();
      await view.keyboard.press('Enter');
      const revoke = view.locator('dash-keys tr[data-key-id] button', { hasText: 'Revoke' }).first();
      await revoke.focus();
      await view.keyboard.press('Enter');
      await view.locator('dialog#revoke[open]').waitFor();
      assert.match(await active(), /^button Cancel/, 'the safe choice has the focus');
      await view.keyboard.press('Escape');
      await view.locator('dialog#revoke[open]').waitFor({ state: 'detached' }).catch(() => undefined);
      assert.equal(await view.locator('dialog#revoke[open]').count(), 0);
    } finally {
      await view.close();
    }
  });

  it('warns before the session ends and asks to sign in again once it has (client clock)', async () => {
    const view = await context.newPage();
    try {
      await view.clock.install();
      await view.goto(server.url + '/dashboard');
      await signIn(view);
      await view.locator('dash-keys h2').waitFor();
      await view.clock.fastForward('56:00');
      await view.locator('main [role="status"]', { hasText: 'Your session ends at' }).waitFor();
      await view.clock.fastForward('05:00');
      await view.locator('[data-expired]').waitFor();
      assert.equal(await view.locator('nav').count(), 0);
    } finally {
      await view.close();
    }
  });

  it('offers sign-up when the server allows it (ALLOW_SIGNUP=true) and signs the new account in', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'avatar-dashboard-signup-'));
    const open = await startServer(loadConfig({ DATA_DIR: dir, HOST: '127.0.0.1', PORT: String(await freePort()), ACCESS_LOG: 'false', ALLOW_SIGNUP: 'true' }));
    const view = await browser.newPage();
    try {
      await view.goto(open.url + '/dashboard');
      await view.locator('button', { hasText: 'Create an account' }).click();
      await view.locator('h2', { hasText: 'Create an account' }).waitFor();
      await view.locator('input[name="email"]').fill('new@example.com');
      await view.locator('input[name="password"]').fill('a long enough password');
      await view.locator('input[name="name"]').fill('New Holder');
      await view.locator('button[type="submit"]', { hasText: 'Create account' }).click();
      await view.locator('dash-keys h2').waitFor();
      assert.match((await view.locator('dash-keys tbody').textContent()) ?? '', /No keys yet/);
      assert.ok(await open.service.accounts.findAccountByEmail('new@example.com'));
    } finally {
      await view.close();
      await open.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('signs out: forgets the token and revokes the key it created for the session', async () => {
    const sessionKeys = async () => {
      const token = (await server.service.accounts.login(EMAIL, PASSWORD)).token;
      const list = (await (await fetch(server.url + '/v1/api-keys', { headers: { authorization: `Bearer ${token}` } })).json()) as { api_keys: { name: string; revoked_at: string | null }[] };
      return list.api_keys.filter((key) => key.name === 'dashboard session' && key.revoked_at === null).length;
    };
    assert.equal(await sessionKeys(), 1, 'the webhooks area created one');
    await page.locator('header button', { hasText: 'Sign out' }).click();
    await page.locator('input[name="email"]').waitFor();
    assert.equal(await jwtOf(page), undefined);
    assert.equal(await sessionKeys(), 0);
  });

  it('has no axe-core violations in any area, light and dark, at 1280 and 390 px wide', async () => {
    const axeSource = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
        const view = await browser.newPage({ viewport, colorScheme, bypassCSP: true });
        try {
          await view.goto(server.url + '/dashboard');
          await view.locator('input[name="email"]').waitFor();
          await view.addScriptTag({ content: axeSource });
          const scan = async (what: string) => {
            const result = await view.evaluate(async () => {
              const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> } }).axe;
              const run = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } });
              return { violations: run.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`), width: document.documentElement.scrollWidth };
            });
            const where = `${what}, ${colorScheme} ${viewport.width}×${viewport.height}`;
            assert.deepEqual(result.violations, [], where);
            assert.ok(result.width <= viewport.width, `${where}: the page is ${result.width} px wide`);
          };
          await scan('sign-in');
          await signIn(view);
          await view.locator('nav').waitFor();
          for (const area of AREAS) {
            await open(view, area);
            // The areas acting in a key's mode show their content once a key is chosen.
            if (area === 'webhooks') await view.locator('dash-webhooks button', { hasText: 'Create a test key for this session' }).click();
            // Each area's content has arrived (tables, forms) before it is checked.
            await view.waitForLoadState('networkidle');
            await scan(area);
          }
        } finally {
          await view.close();
        }
      }
    }
    assert.deepEqual(pageErrors, []);
  });
});
