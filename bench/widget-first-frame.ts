/**
 * Time from <avatar-chat> being connected to the page to its first rendered frame of the avatar
 * (session token, conversation, avatar detail, socket.io join, VRM download + parse, first
 * render), median of N runs in Debian's Chromium (SwiftShader WebGL, so CPU-bound). Each run uses
 * a fresh browser context (cold HTTP cache); the bundle is already loaded when the clock starts.
 *
 *   npm run build && node dist/bench/widget-first-frame.js [--runs 7]
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { loadConfig, startServer } from '../server/index.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH, freePort } from '../test/e2e/chromium.js';
import { repoRoot } from '../test/support/repo-root.js';
import { percentile } from './support/bench-server.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, avatar: { type: 'string', default: 'luna-001' } } });
const runs = Number(values.runs);
if (!existsSync(join(repoRoot, 'dist/widget/avatar-chat.js'))) throw new Error('Build the widget first: npm run build');

const dataDir = await mkdtemp(join(tmpdir(), 'avatar-bench-frame-'));
const server = await startServer(loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(await freePort()), DEV_BOOTSTRAP: 'true', ACCESS_LOG: 'false' }));
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });

interface Sample {
  ready_ms: number;
  first_frame_ms: number;
}

const samples: Sample[] = [];
try {
  for (let run = -1; run < runs; run++) {
    const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
    const page = await context.newPage();
    // A page of the server's own origin (a real response, so the browser's local-network checks
    // treat the socket.io connection as same-site), with the bundle loaded.
    await page.goto(`${server.url}/v1/health`);
    await page.addScriptTag({ url: '/widget/avatar-chat.js', type: 'module' });
    await page.waitForFunction(() => customElements.get('avatar-chat') !== undefined);
    const sample = await page.evaluate(
      async ({ server, avatar }) => {
        const el = document.createElement('avatar-chat') as HTMLElement & { stage?: { renderedFrames: number } };
        el.setAttribute('server', `${server}/v1`);
        el.setAttribute('session-url', '/demo/session');
        el.setAttribute('avatar-id', avatar);
        el.style.cssText = 'display:block;width:600px';
        const ready = new Promise<number>((resolve, reject) => {
          el.addEventListener('avatar-ready', () => resolve(performance.now()), { once: true });
          el.addEventListener('avatar-error', (e) => reject(new Error(JSON.stringify((e as CustomEvent).detail))), { once: true });
        });
        const start = performance.now();
        document.body.append(el);
        const readyAt = await ready;
        while (!(el.stage && el.stage.renderedFrames > 0)) {
          if (performance.now() - start > 60_000) throw new Error('no frame rendered within 60 s');
          await new Promise((r) => requestAnimationFrame(r));
        }
        return { ready_ms: readyAt - start, first_frame_ms: performance.now() - start };
      },
      { server: server.url, avatar: values.avatar! },
    );
    if (run >= 0) samples.push(sample); // run -1 warms the server (speech engine, SQLite pages)
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}

const round = (n: number) => Math.round(n);
console.log(
  JSON.stringify(
    {
      benchmark: '<avatar-chat> connected → first rendered frame (SwiftShader, cold HTTP cache)',
      avatar: values.avatar,
      runs,
      first_frame_ms_p50: round(percentile(samples.map((s) => s.first_frame_ms), 50)),
      first_frame_ms_min: round(Math.min(...samples.map((s) => s.first_frame_ms))),
      first_frame_ms_max: round(Math.max(...samples.map((s) => s.first_frame_ms))),
      ready_ms_p50: round(percentile(samples.map((s) => s.ready_ms), 50)),
    },
    null,
    2,
  ),
);
