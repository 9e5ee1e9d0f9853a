/**
 * The dashboard's weight and first load, against the demo page as the baseline: the bytes of its
 * bundle (entry and the chunks it loads on demand; raw, gzip, brotli as the server sends them),
 * and in Chromium, from navigation start, the time until the page takes input — the dashboard's
 * sign-in field rendered by its element; the demo's avatar choices rendered and its
 * `<avatar-chat>` ready for a message — with the bytes on the wire until then. Real server
 * (SQLite, local AI and speech, demo sessions) in this process; a fresh browser context (cold
 * HTTP cache) per load; medians of N loads after one warm-up load of each page. 1280×800.
 *
 *   npm run build && node dist/bench/dashboard-load.js [--runs 7]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { loadConfig, startServer } from '../server/index.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH, freePort } from '../test/e2e/chromium.js';
import { repoRoot } from '../test/support/repo-root.js';
import { percentile } from './support/bench-server.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
const runs = Number(values.runs);
const bundleDir = join(repoRoot, 'dist/widget');
if (!existsSync(join(bundleDir, 'dashboard.js.br'))) throw new Error('Build first (the bundle and its precompressed copies): npm run build');

const kb = (n: number) => Number((n / 1024).toFixed(1));

/** Raw, gzip (level 9, as the build's precompressed copy) and brotli sizes of a built file. */
function sizes(file: string) {
  const path = join(bundleDir, file);
  const raw = readFileSync(path);
  const br = existsSync(path + '.br') ? readFileSync(path + '.br').length : NaN;
  return { raw_kb: kb(raw.length), gzip_kb: kb(gzipSync(raw, { level: 9 }).length), br_kb: kb(br) };
}

const chunks = readdirSync(bundleDir).filter((name) => /^dashboard-[a-z0-9-]+-[\w-]{8}\.js$/.test(name));

interface Load {
  interactive_ms: number;
  bytes: number;
  requests: number;
}

/** Predicates run in the page: true once it takes input. */
const READY = {
  dashboard: () => Boolean(document.querySelector('avatar-dashboard')?.shadowRoot?.querySelector('input[name="email"]')),
  demo: () => {
    const chat = document.querySelector('avatar-chat[data-ready="true"]');
    return Boolean(document.querySelector('.avatar-option') && chat?.shadowRoot?.querySelector('input[name="message"]'));
  },
} as const;

async function load(browser: Browser, url: string, ready: () => boolean): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    let bytes = 0;
    let requests = 0;
    cdp.on('Network.loadingFinished', ({ encodedDataLength }) => {
      bytes += encodedDataLength;
      requests += 1;
    });
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(ready, undefined, { polling: 'raf', timeout: 120_000 });
    const interactive_ms = await page.evaluate(() => performance.now());
    return { interactive_ms: Math.round(interactive_ms), bytes, requests };
  } finally {
    await context.close();
  }
}

const dataDir = await mkdtemp(join(tmpdir(), 'avatar-bench-dashboard-'));
const server = await startServer(
  loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(await freePort()), DEV_BOOTSTRAP: 'true', ACCESS_LOG: 'false' }),
);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  const pages = { dashboard: server.url + '/dashboard', demo: server.url + '/' } as const;
  const results: Record<string, Load[]> = { dashboard: [], demo: [] };
  for (const name of ['dashboard', 'demo'] as const) await load(browser, pages[name], READY[name]);
  // Interleaved, so drift in the machine's load hits both pages alike.
  for (let i = 0; i < runs; i++) {
    for (const name of ['dashboard', 'demo'] as const) results[name]!.push(await load(browser, pages[name], READY[name]));
  }
  const summary = (loads: Load[]) => ({
    interactive_ms_p50: percentile(loads.map((l) => l.interactive_ms), 50),
    interactive_ms_range: [Math.min(...loads.map((l) => l.interactive_ms)), Math.max(...loads.map((l) => l.interactive_ms))],
    wire_kb_p50: kb(percentile(loads.map((l) => l.bytes), 50)),
    requests: percentile(loads.map((l) => l.requests), 50),
  });
  const dashboard = summary(results.dashboard!);
  const demo = summary(results.demo!);
  console.log(
    JSON.stringify(
      {
        benchmark: 'dashboard bundle and first load vs the demo page',
        runs,
        bundle: { 'dashboard.js': sizes('dashboard.js'), on_demand: Object.fromEntries(chunks.map((c) => [c.replace(/-[\w-]{8}\.js$/, '.js'), sizes(c)])) },
        demo_widget_bundle: { 'avatar-chat.js': sizes('avatar-chat.js') },
        dashboard,
        demo,
        interactive_ratio: Number((dashboard.interactive_ms_p50 / demo.interactive_ms_p50).toFixed(3)),
        wire_ratio: Number((dashboard.wire_kb_p50 / demo.wire_kb_p50).toFixed(3)),
      },
      null,
      2,
    ),
  );
} finally {
  await browser.close();
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}
