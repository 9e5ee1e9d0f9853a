/**
 * The demo page's first load as a visitor gets it: bytes on the wire, requests, cumulative layout
 * shift and the time to the avatar's first rendered frame, at 1280×800 (desktop) and 390×844
 * (a phone: device pixel ratio 3, touch), with compression (what the server sends a browser) and
 * without it (the same browser asking for `Accept-Encoding: identity`, i.e. the server before
 * compression). Real server with `npm start`'s defaults (SQLite, local AI and speech, demo
 * sessions) in this process; Debian's Chromium with SwiftShader WebGL; a fresh browser context
 * (cold HTTP cache) per load; medians of N loads after one warm-up load per viewport.
 *
 *   npm run build && node dist/bench/first-load.js [--runs 5]
 *
 * Bytes are the sum of CDP `Network.loadingFinished.encodedDataLength` (response headers and
 * body as received) over every request of the page until it is settled: `avatar-ready` fired, the
 * avatar's first frame rendered (when the stage is on screen: it renders only there), and then no
 * request for 1 s. Times are from navigation start. socket.io's WebSocket frames are not counted (they are not
 * part of loading; its polling handshake is). CLS follows web.dev's definition: layout-shift
 * entries without recent input, grouped in session windows (gaps < 1 s, windows ≤ 5 s), the
 * largest window's sum.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { loadConfig, startServer } from '../server/index.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH, freePort } from '../test/e2e/chromium.js';
import { repoRoot } from '../test/support/repo-root.js';
import { percentile } from './support/bench-server.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
if (!existsSync(join(repoRoot, 'dist/widget/avatar-chat.js.br'))) throw new Error('Build first (the bundle and its precompressed copies): npm run build');

const VIEWPORTS: Record<string, BrowserContextOptions> = {
  '1280x800': { viewport: { width: 1280, height: 800 } },
  '390x844': { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
};
const MODES = { compressed: {}, identity: { 'accept-encoding': 'identity' } } as const;
const QUIET_MS = 1000;
const TIMEOUT_MS = 120_000;

interface Load {
  bytes: number;
  requests: number;
  cls: number;
  ready_ms: number;
  /** null when the stage is below the fold: it renders only once scrolled into view. */
  first_frame_ms: number | null;
  /** Bytes per URL path, for the breakdown of the last load. */
  byPath: Record<string, number>;
}

/** Runs in the page before its own scripts: CLS by session windows, and when the avatar is up. */
function observePage(): void {
  const w = window as unknown as { __load: { cls: number; readyAt?: number; frameAt?: number } };
  w.__load = { cls: 0 };
  let windowSum = 0;
  let first = 0;
  let last = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
      if (entry.hadRecentInput) continue;
      if (windowSum > 0 && entry.startTime - last < 1000 && entry.startTime - first < 5000) windowSum += entry.value;
      else {
        windowSum = entry.value;
        first = entry.startTime;
      }
      last = entry.startTime;
      w.__load.cls = Math.max(w.__load.cls, windowSum);
    }
  }).observe({ type: 'layout-shift', buffered: true });
  // avatar-ready does not bubble: a capturing listener on the document sees it on its way down.
  document.addEventListener('avatar-ready', () => (w.__load.readyAt ??= performance.now()), true);
  const frame = () => {
    const stage = (document.querySelector('avatar-chat') as unknown as { stage?: { renderedFrames: number } } | null)?.stage;
    if (stage && stage.renderedFrames > 0) w.__load.frameAt = performance.now();
    else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

async function loadOnce(browser: Browser, url: string, options: BrowserContextOptions, headers: Record<string, string>): Promise<Load> {
  const context = await browser.newContext({ ...options, extraHTTPHeaders: headers });
  try {
    const page = await context.newPage();
    await page.addInitScript(observePage);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const urls = new Map<string, string>();
    const byPath: Record<string, number> = {};
    let bytes = 0;
    let requests = 0;
    let lastActivity = Date.now();
    cdp.on('Network.requestWillBeSent', ({ requestId, request }) => {
      if (!/^https?:/.test(request.url)) return;
      if (!urls.has(requestId)) requests++;
      urls.set(requestId, request.url);
      lastActivity = Date.now();
    });
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
      const url = urls.get(requestId);
      if (url === undefined) return;
      bytes += encodedDataLength;
      const path = new URL(url).pathname;
      byPath[path] = (byPath[path] ?? 0) + encodedDataLength;
      lastActivity = Date.now();
    });
    await page.goto(url);
    const started = Date.now();
    type Seen = { cls: number; readyAt?: number; frameAt?: number };
    const seen = () => page.evaluate(() => (window as unknown as { __load: Seen }).__load);
    await page.waitForFunction(() => (window as unknown as { __load: Seen }).__load.readyAt !== undefined, undefined, { timeout: TIMEOUT_MS });
    // The stage renders only while on screen (widget/stage/stage-visibility.ts): below the fold
    // there is no frame until the visitor scrolls, and none is waited for.
    const onScreen = await page.evaluate(() => (document.querySelector('avatar-chat')?.getBoundingClientRect().top ?? Infinity) < innerHeight);
    if (onScreen) await page.waitForFunction(() => (window as unknown as { __load: Seen }).__load.frameAt !== undefined, undefined, { timeout: TIMEOUT_MS });
    while (Date.now() - lastActivity < QUIET_MS) {
      if (Date.now() - started > TIMEOUT_MS) throw new Error('the page never settled');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { cls, readyAt, frameAt } = await seen();
    return { bytes, requests, cls, ready_ms: readyAt!, first_frame_ms: frameAt ?? null, byPath };
  } finally {
    await context.close();
  }
}

const dataDir = await mkdtemp(join(tmpdir(), 'avatar-bench-load-'));
const server = await startServer(loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(await freePort()), DEV_BOOTSTRAP: 'true', ACCESS_LOG: 'false' }));
// Every load opens a demo session: more than the 120 a minute one address may open.
await server.service.accounts.setPlan(server.bootstrap!.accountId, { tier: 'pro' });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });

const results: Record<string, unknown> = {};
try {
  for (const [name, options] of Object.entries(VIEWPORTS)) {
    await loadOnce(browser, `${server.url}/`, options, {}); // warms the server (speech engine, SQLite pages)
    const loads: Record<string, Load[]> = { compressed: [], identity: [] };
    // Alternate the two modes, so drift on a noisy machine falls on both alike.
    for (let run = 0; run < runs; run++) {
      for (const [mode, headers] of Object.entries(MODES)) loads[mode]!.push(await loadOnce(browser, `${server.url}/`, options, headers));
    }
    const median = (mode: string, key: 'bytes' | 'requests' | 'cls' | 'ready_ms') => percentile(loads[mode]!.map((load) => load[key]), 50);
    const frames = (mode: string) => loads[mode]!.map((load) => load.first_frame_ms).filter((ms) => ms !== null);
    const medianFrame = (mode: string) => (frames(mode).length === runs ? percentile(frames(mode), 50) : null);
    const summary = (mode: string) => ({
      kib: Math.round(median(mode, 'bytes') / 1024),
      requests: median(mode, 'requests'),
      cls: Number(median(mode, 'cls').toFixed(4)),
      cls_max: Number(Math.max(...loads[mode]!.map((load) => load.cls)).toFixed(4)),
      ready_ms: Math.round(median(mode, 'ready_ms')),
      first_frame_ms: medianFrame(mode) === null ? 'stage below the fold: no frame until scrolled' : Math.round(medianFrame(mode)!),
      kib_by_path_last_load: Object.fromEntries(
        Object.entries(loads[mode]!.at(-1)!.byPath)
          .sort(([, a], [, b]) => b - a)
          .map(([path, n]) => [path, Number((n / 1024).toFixed(1))]),
      ),
    });
    const after = summary('compressed');
    const before = summary('identity');
    results[name] = {
      before_no_compression: before,
      after_compressed: after,
      bytes_ratio_after_over_before: Number((median('compressed', 'bytes') / median('identity', 'bytes')).toFixed(3)),
      ready_ratio_after_over_before: Number((median('compressed', 'ready_ms') / median('identity', 'ready_ms')).toFixed(3)),
    };
  }
} finally {
  await browser.close();
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}

console.log(JSON.stringify({ benchmark: 'demo page first load (cold cache): bytes on the wire, requests, CLS, first avatar frame', runs, ...results }, null, 2));
