#!/usr/bin/env node
// Renders PNG previews of the generated avatars in headless Chromium (three + three-vrm), from
// the .vrm files themselves. A tiny static server on 127.0.0.1 serves the page, the models and
// node_modules; playwright-core drives Debian's Chromium. The previews are rendered by the
// widget's own stage (widget/stage/avatar-stage.ts, bundled here with esbuild): same camera
// framing, lighting, colour management and idle pose as the live avatar, on a transparent
// background, so the picker shows what loads.
//
//   node assets/generator/preview/render-previews.mjs            → assets/avatars/<id>.png
//   node assets/generator/preview/render-previews.mjs --lineup out.png
//   node assets/generator/preview/render-previews.mjs --face <id> <expression> out.png
//   node assets/generator/preview/render-previews.mjs --stage <id> <state> <seconds> out.png [emotion]
//        (the live stage in idle / thinking / talking after <seconds>, for reviewing motion)
import { createServer } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'esbuild';

const ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const IDS = ['luna-001', 'atlas-002', 'sofia-003', 'kenji-004', 'maya-005', 'orion-006'];
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.vrm': 'model/gltf-binary', '.json': 'application/json' };
const ALLOWED = ['assets', 'node_modules'];
export const CHROMIUM_ARGS = [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
];

/** The stage, lighting and renderer settings of the widget as one ES module (three stays external). */
async function bundleStage() {
  const result = await build({
    stdin: {
      contents: [
        "export { AvatarStage } from './widget/stage/avatar-stage.ts';",
        "export { addStageLighting } from './widget/stage/stage-lighting.ts';",
        "export { applyStageRendering } from './widget/stage/stage-rendering.ts';",
      ].join('\n'),
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    write: false,
    external: ['three', 'three/*', '@pixiv/three-vrm'],
  });
  return result.outputFiles[0].contents;
}

function startServer(stageModule) {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^[/\\]+/, '');
    if (path === 'stage.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(stageModule);
      return;
    }
    const file = join(ROOT, path);
    if (!file.startsWith(ROOT + sep) || !ALLOWED.includes(path.split(/[/\\]/)[0])) {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

async function main(argv) {
  const server = await startServer(await bundleStage());
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(`${base}/assets/generator/preview/preview.html`);
    await page.waitForFunction(() => window.previewReady === true);
    const render = async (request, out) => {
      const url = await page.evaluate((r) => window.renderAvatars(r), request);
      await writeFile(out, Buffer.from(url.split(',')[1], 'base64'));
      console.log(`wrote ${out}`);
    };
    if (argv[0] === '--lineup') {
      await render({ mode: 'lineup', ids: IDS, width: 1500, height: 700 }, resolve(argv[1] ?? 'lineup.png'));
    } else if (argv[0] === '--face') {
      await render({ mode: 'face', ids: [argv[1]], expression: argv[2], width: 500, height: 500 }, resolve(argv[3] ?? 'face.png'));
    } else if (argv[0] === '--stage') {
      const [, id, state, seconds, out, emotion] = argv;
      await render({ mode: 'stage', ids: [id], state, seconds: Number(seconds), emotion, width: 600, height: 800 }, resolve(out ?? 'stage.png'));
    } else {
      for (const id of IDS) {
        await render({ mode: 'portrait', ids: [id], width: 512, height: 512 }, join(ROOT, 'assets', 'avatars', `${id}.png`));
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
}

await main(process.argv.slice(2));
