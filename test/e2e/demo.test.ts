// End to end: the demo page at `/` of a real server (DEV_BOOTSTRAP on, offline AI and speech),
// driven in Debian's Chromium through playwright-core. Needs `npm run build` (the widget bundle).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { loadConfig, startServer } from '../../server/index.js';
import type { RunningServer } from '../../server/index.js';
import { repoRoot } from '../support/repo-root.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH, freePort } from './chromium.js';

const ARTIFACTS = join(repoRoot, 'test-artifacts');
const require = createRequire(import.meta.url);
const bundleBuilt = existsSync(join(repoRoot, 'dist/widget/avatar-chat.js'));
const chromiumPresent = existsSync(CHROMIUM_PATH);

describe('demo page end to end', { skip: !bundleBuilt || !chromiumPresent ? 'needs the widget bundle and /usr/bin/chromium' : false }, () => {
  let server: RunningServer;
  let dataDir: string;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const widgetFiles: { url: string; status: number; cacheControl: string }[] = [];

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'avatar-e2e-'));
    const port = await freePort();
    server = await startServer(loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), DEV_BOOTSTRAP: 'true', ACCESS_LOG: 'false' }));
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1100, height: 1000 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('response', (response) => {
      if (response.url().includes('/widget/')) widgetFiles.push({ url: response.url(), status: response.status(), cacheControl: response.headers()['cache-control'] ?? '' });
    });
    // Console errors include resources the page's own CSP blocks (e.g. the model's textures).
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves a page without any key in its source', async () => {
    const response = await page.goto(server.url + '/');
    assert.equal(response?.status(), 200);
    const csp = response?.headers()['content-security-policy'] ?? '';
    assert.match(csp, /script-src 'self'(;|$)/, 'scripts from this server only, none inline');
    assert.match(csp, /frame-ancestors 'self'/);
    const sources = [await response!.text()];
    for (const file of ['/demo/demo.js', '/demo/demo.css']) sources.push(await (await fetch(server.url + file)).text());
    for (const source of sources) assert.doesNotMatch(source, /svc_(live|test)_[A-Za-z0-9]/);
  });

  it('picks an avatar, sends a message, streams the reply and plays its audio', async () => {
    const options = page.locator('.avatar-option');
    await options.first().waitFor();
    assert.equal(await options.count(), 6);
    assert.equal(await page.locator('.avatar-option img').count(), 6);

    await page.locator('.avatar-option', { hasText: 'Sofia' }).click();
    const chat = page.locator('avatar-chat[avatar-id="sofia-003"][data-ready="true"]');
    await chat.waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => (document.querySelector('avatar-chat') as unknown as { stage?: { renderedFrames: number } }).stage!.renderedFrames > 2);

    const states: string[] = [];
    await page.exposeFunction('__recordState', (state: string) => states.push(state));
    await page.evaluate(() =>
      document.querySelector('avatar-chat')!.addEventListener('avatar-state', (e) => (window as unknown as { __recordState(s: string): void }).__recordState((e as CustomEvent<{ state: string }>).detail.state)),
    );

    const input = chat.locator('input[name="message"]');
    await input.fill('Hello! What can you tell me about yourself?');
    await input.press('Enter');

    const reply = chat.locator('[part~="message-assistant"] .text').last();
    await page.waitForFunction(
      () => {
        const el = document.querySelector('avatar-chat')!;
        return (el.shadowRoot!.querySelector('[part~="message-assistant"]:last-of-type .text')?.textContent ?? '').length > 10;
      },
      undefined,
      { timeout: 30_000 },
    );
    assert.ok((await reply.textContent())!.length > 10, 'the reply streamed into the transcript');

    await page.waitForFunction(() => (document.querySelector('avatar-chat') as unknown as { playing: boolean }).playing, undefined, { timeout: 30_000 });
    assert.ok(states.includes('thinking'), `states: ${states.join(',')}`);
    await page.waitForFunction(() => document.querySelector('#state')?.textContent === 'talking');

    // The latency readout of the turn.
    await page.waitForFunction(() => /ms$/.test(document.querySelector('[data-metric="first_token_ms"]')?.textContent ?? ''), undefined, { timeout: 30_000 });
    assert.match((await page.locator('[data-metric="first_audio_ms"]').textContent()) ?? '', /^\d+ ms$/);

    await mkdir(ARTIFACTS, { recursive: true });
    await chat.locator('[part="stage"]').screenshot({ path: join(ARTIFACTS, 'demo-avatar.png') });
    assert.ok(existsSync(join(ARTIFACTS, 'demo-avatar.png')));

    // Stop interrupts the audio.
    await chat.locator('[part~="stop-button"]').click();
    await page.waitForFunction(() => !(document.querySelector('avatar-chat') as unknown as { playing: boolean }).playing);

    // The embedding snippet names this server and the chosen avatar.
    const snippet = (await page.locator('#snippet').textContent()) ?? '';
    assert.ok(snippet.includes(`${server.url}/widget/avatar-chat.js`));
    assert.ok(snippet.includes('avatar-id="sofia-003"'));
    // The socket.io client came as its own chunk, cached for good (its name carries its hash).
    const chunk = widgetFiles.find((file) => /\/widget\/avatar-chat-socket-io-[\w-]{8}\.js$/.test(file.url));
    assert.ok(chunk, `widget files: ${JSON.stringify(widgetFiles)}`);
    assert.deepEqual([chunk.status, chunk.cacheControl], [200, 'public, max-age=31536000, immutable']);
    assert.deepEqual(pageErrors, []);
  });

  it('puts the conversation above the fold and passes axe-core (WCAG 2.2 AA) in light and dark, at 1280×800 and 390×844', async () => {
    const axeSource = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
    await mkdir(ARTIFACTS, { recursive: true });
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
        // bypassCSP: the page allows only its own scripts; axe-core is injected for the check.
        const view = await browser.newPage({ viewport, colorScheme, bypassCSP: true });
        try {
          await view.goto(server.url + '/');
          await view.locator('avatar-chat[data-ready="true"]').waitFor({ timeout: 30_000 });
          const what = `${colorScheme} ${viewport.width}×${viewport.height}`;
          // The stage and the message field are on the first screen; nothing scrolls sideways.
          const layout = await view.evaluate(() => {
            const chat = document.querySelector('avatar-chat')!;
            const field = chat.shadowRoot!.querySelector('input[name="message"]')!.getBoundingClientRect();
            const stage = chat.shadowRoot!.querySelector('[part="stage"]')!.getBoundingClientRect();
            return { stageTop: stage.top, fieldBottom: field.bottom, scrollWidth: document.documentElement.scrollWidth };
          });
          assert.ok(layout.scrollWidth <= viewport.width, `${what}: page is ${layout.scrollWidth} px wide`);
          if (viewport.width > 1000) assert.ok(layout.fieldBottom <= viewport.height, `${what}: the message field ends at ${layout.fieldBottom}`);
          else assert.ok(layout.stageTop < viewport.height / 2, `${what}: the stage starts at ${layout.stageTop}`);
          await view.screenshot({ path: join(ARTIFACTS, `demo-${colorScheme}-${viewport.width}x${viewport.height}.png`) });

          await view.addScriptTag({ content: axeSource });
          const violations = await view.evaluate(async () => {
            const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> } }).axe;
            const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } });
            return result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
          });
          assert.deepEqual(violations, [], what);
        } finally {
          await view.close();
        }
      }
    }
  });
});
