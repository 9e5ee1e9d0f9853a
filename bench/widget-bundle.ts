/**
 * Size of the <avatar-chat> bundle against a bare Lit + three + three-vrm viewer (a Lit element
 * that loads a VRM and renders it), both built in this run with the widget's own rollup settings
 * (`widgetBuildOptions` in rollup.config.mjs: node-resolve, esbuild, terser). Budget: the widget
 * at most 1.15× the bare viewer's gzip size (issue 5). The widget's entry is what a page loads;
 * the socket.io client is a chunk the element imports when it opens a socket.io connection, so
 * its size is reported beside the entry's, and with it.
 *
 *   npm run build && node dist/bench/widget-bundle.js
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { rollup } from 'rollup';
import type { OutputOptions, RollupOptions } from 'rollup';
import { repoRoot } from '../test/support/repo-root.js';

interface WidgetRollupConfig {
  widgetBuildOptions(input: string, file: string): RollupOptions & { output: OutputOptions };
  BASELINE_GZIP_BYTES: number;
  BUDGET_RATIO: number;
}

/** The smallest useful viewer: what any VRM web component needs at least. */
const BARE_VIEWER = `
import { LitElement, html } from 'lit';
import { AmbientLight, Clock, DirectionalLight, PerspectiveCamera, Scene, WebGLRenderer } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, VRMUtils } from '@pixiv/three-vrm';

class BareVrmViewer extends LitElement {
  static properties = { src: {} };
  render() {
    return html\`<canvas style="width:100%;height:100%"></canvas>\`;
  }
  async firstUpdated() {
    const canvas = this.renderRoot.querySelector('canvas');
    const renderer = new WebGLRenderer({ canvas, alpha: true });
    const scene = new Scene();
    scene.add(new AmbientLight(0xffffff, 0.7), new DirectionalLight(0xffffff, 1.5));
    const camera = new PerspectiveCamera(30, 1, 0.1, 20);
    camera.position.set(0, 1.4, 1.5);
    const loader = new GLTFLoader();
    loader.register((parser) => new VRMLoaderPlugin(parser));
    const gltf = await loader.loadAsync(this.src);
    const vrm = gltf.userData.vrm;
    VRMUtils.rotateVRM0(vrm);
    scene.add(vrm.scene);
    const clock = new Clock();
    renderer.setAnimationLoop(() => {
      vrm.update(clock.getDelta());
      renderer.render(scene, camera);
    });
  }
}
customElements.define('bare-vrm-viewer', BareVrmViewer);
`;

interface BuildSize {
  raw: number;
  gzip: number;
  /** Chunks the entry imports on demand (the socket.io client), gzip bytes by file. */
  lazyGzip: Record<string, number>;
}

async function build(config: WidgetRollupConfig, input: string, file: string): Promise<BuildSize> {
  const options = config.widgetBuildOptions(input, file);
  const bundle = await rollup({ ...options, onwarn: () => undefined });
  let output;
  try {
    ({ output } = await bundle.write(options.output));
  } finally {
    await bundle.close();
  }
  const gzip = (code: string) => gzipSync(code, { level: 9 }).length;
  const chunks = output.filter((item) => item.type === 'chunk');
  const entry = chunks.find((chunk) => chunk.isEntry)!;
  const lazyGzip = Object.fromEntries(chunks.filter((chunk) => !chunk.isEntry).map((chunk) => [chunk.fileName, gzip(chunk.code)]));
  return { raw: Buffer.byteLength(entry.code), gzip: gzip(entry.code), lazyGzip };
}

const config = (await import(pathToFileURL(join(repoRoot, 'rollup.config.mjs')).href)) as WidgetRollupConfig;
// Inside the repository, so the viewer resolves lit / three / three-vrm from node_modules.
const work = join(repoRoot, 'dist', 'bench', 'widget-bundle');
await rm(work, { recursive: true, force: true });
await mkdir(work, { recursive: true });
await writeFile(join(work, 'bare-viewer.js'), BARE_VIEWER);
const started = performance.now();
const widget = await build(config, join(repoRoot, 'widget/index.ts'), join(work, 'avatar-chat.js'));
const bare = await build(config, join(work, 'bare-viewer.js'), join(work, 'bare-viewer.bundle.js'));
const kb = (n: number) => Number((n / 1024).toFixed(1));
const ratio = widget.gzip / bare.gzip;
const lazy = Object.values(widget.lazyGzip).reduce((sum, n) => sum + n, 0);
console.log(
  JSON.stringify(
    {
      benchmark: '<avatar-chat> bundle vs a bare Lit + three + three-vrm viewer, same rollup settings',
      widget_kb: { raw: kb(widget.raw), gzip: kb(widget.gzip) },
      widget_on_demand_gzip_kb: Object.fromEntries(Object.entries(widget.lazyGzip).map(([name, n]) => [name.replace(/-[\w-]{8}\.js$/, '.js'), kb(n)])),
      bare_viewer_kb: { raw: kb(bare.raw), gzip: kb(bare.gzip) },
      ratio_gzip: Number(ratio.toFixed(3)),
      ratio_gzip_with_on_demand: Number(((widget.gzip + lazy) / bare.gzip).toFixed(3)),
      ratio_to_documented_baseline: Number((widget.gzip / config.BASELINE_GZIP_BYTES).toFixed(3)),
      budget: config.BUDGET_RATIO,
      within_budget: ratio <= config.BUDGET_RATIO,
      build_s: Number(((performance.now() - started) / 1000).toFixed(1)),
    },
    null,
    2,
  ),
);
await rm(work, { recursive: true, force: true });
