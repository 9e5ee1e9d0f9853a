// Builds the <avatar-chat> widget into a minified ES module with a source map:
//   dist/widget/avatar-chat.js (+ .map), served by the server at /widget/avatar-chat.js, and the
//   socket.io client as a chunk beside it (avatar-chat-socket-io-<hash>.js) that the element
//   imports only when it opens a socket.io connection.
// TypeScript 7 has no JavaScript API, so esbuild transpiles (types are checked by
// `tsc -p widget/tsconfig.json` in `npm run build`, which also writes dist/widget/types).
// bench/widget-bundle.ts builds a bare viewer with the same settings (`widgetBuildOptions`).
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { basename, dirname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import nodeResolve from '@rollup/plugin-node-resolve';
import esbuild from 'rollup-plugin-esbuild';
import terser from '@rollup/plugin-terser';

/** gzip size of a bare Lit + three + three-vrm viewer measured on the build machines (ENVIRONMENT.md). */
export const BASELINE_GZIP_BYTES = 193 * 1024;
/** The widget may be at most this many times the bare viewer (issue 5). */
export const BUDGET_RATIO = 1.15;

/**
 * Where a package's `browser` file map sends `file` (an absolute path inside node_modules):
 * a replacement path, `false` (an empty module), or `undefined` (no mapping). engine.io-client
 * maps its `*.node.js` files to browser ones; @rollup/plugin-node-resolve (and web-test-runner)
 * skip such maps for packages with an `exports` field, which would bundle a Node XMLHttpRequest
 * shim (child_process, fs) and `ws`.
 */
export function browserMappedPath(file, cache = new Map()) {
  if (!file.includes(`${sep}node_modules${sep}`)) return undefined;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    let map = cache.get(dir);
    if (map === undefined) {
      const manifest = join(dir, 'package.json');
      if (!existsSync(manifest)) continue;
      const { browser } = JSON.parse(readFileSync(manifest, 'utf8'));
      map = browser && typeof browser === 'object' ? browser : null;
      cache.set(dir, map);
    }
    const target = map?.[`./${relative(dir, file).split(sep).join('/')}`];
    if (target === false) return false;
    return typeof target === 'string' ? join(dir, target) : undefined;
  }
  return undefined;
}

/** Rollup plugin applying `browserMappedPath` to relative imports inside packages. */
function browserFileMap() {
  const cache = new Map();
  return {
    name: 'browser-file-map',
    async resolveId(source, importer, options) {
      if (!importer || !source.startsWith('.')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || resolved.external) return null;
      const target = browserMappedPath(resolved.id, cache);
      if (target === false) return '\0browser-empty';
      return target ?? null;
    },
    load(id) {
      return id === '\0browser-empty' ? 'export default {};' : null;
    },
  };
}

/** The plugins every widget-like bundle uses, so size comparisons are like for like. */
export function widgetPlugins() {
  return [
    browserFileMap(),
    nodeResolve({ browser: true, exportConditions: ['browser', 'import', 'default'] }),
    // esbuild transpiles TypeScript (and minifies whitespace and syntax); terser then compresses
    // across the whole bundle, which gzips ≈3 % smaller than esbuild's minifier alone.
    esbuild({
      target: 'es2022',
      minifyWhitespace: true,
      minifySyntax: true,
      legalComments: 'none',
      tsconfig: 'widget/tsconfig.json',
      define: { 'process.env.NODE_ENV': '"production"' },
    }),
    terser({ ecma: 2020, module: true, compress: { passes: 2 }, format: { comments: false } }),
  ];
}

/** socket.io-client and its engine, loaded by the element only for `transport="socket.io"`. */
const SOCKET_IO = /[\\/]node_modules[\\/](?:socket\.io-client|socket\.io-parser|engine\.io-client|engine\.io-parser|@socket\.io[\\/])/;

/**
 * Rollup input and output options for an ES module entry `file`; modules it imports dynamically
 * become chunks beside it named `<entry>-<name>-<hash>.js` (the socket.io client: `socket-io`).
 */
export function widgetBuildOptions(input, file, extraPlugins = []) {
  const entry = basename(file, '.js');
  return {
    input,
    plugins: [...widgetPlugins(), ...extraPlugins],
    output: {
      dir: dirname(file),
      entryFileNames: basename(file),
      // Names reduced to [a-z0-9-] (uPlot.esm → uplot-esm): the server's blob keys allow one dot.
      chunkFileNames: (chunk) => `${entry}-${chunk.name.toLowerCase().replace(/[^a-z0-9-]+/g, '-')}-[hash].js`,
      manualChunks: (id) => (SOCKET_IO.test(id) ? 'socket-io' : undefined),
      format: 'es',
      sourcemap: true,
    },
    onwarn(warning, warn) {
      // three-vrm and three reference `this` at module scope in a few places; harmless in ESM.
      if (warning.code === 'THIS_IS_UNDEFINED') return;
      warn(warning);
    },
  };
}

/**
 * Prints the entry's raw and gzip size and its ratio to the budget baseline, and the lazy chunks';
 * removes chunks of earlier builds from the output folder.
 */
function reportSize(label = 'widget', budget = true) {
  return {
    name: 'report-size',
    writeBundle(options, bundle) {
      const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
      const gzipOf = (name) => gzipSync(readFileSync(join(options.dir, name)), { level: 9 }).length;
      const [entry] = Object.values(bundle).filter((file) => file.type === 'chunk' && file.isEntry);
      const lazy = Object.values(bundle).filter((file) => file.type === 'chunk' && !file.isEntry);
      const stem = basename(entry.fileName, '.js');
      for (const name of readdirSync(options.dir)) {
        if (name.startsWith(`${stem}-`) && !(name in bundle)) rmSync(join(options.dir, name));
      }
      const gzip = gzipOf(entry.fileName);
      const ratio = gzip / BASELINE_GZIP_BYTES;
      const verdict = ratio <= BUDGET_RATIO ? 'within' : 'OVER';
      const chunks = lazy.map((chunk) => `${chunk.fileName} ${kb(gzipOf(chunk.fileName))} gzip`).join(', ');
      const versus = budget ? ` = ${ratio.toFixed(3)}× the ${kb(BASELINE_GZIP_BYTES)} bare-viewer baseline (${verdict} the ${BUDGET_RATIO}× budget)` : '';
      console.log(
        `${label}: ${join(options.dir, entry.fileName)} ${kb(entry.code.length)} raw, ${kb(gzip)} gzip${versus}; loaded on demand: ${chunks || 'nothing'}`,
      );
    },
  };
}

/**
 * Copies the API reference page's renderer (Redoc's standalone bundle, MIT, with its licence) into
 * dist/docs, so the server serves /docs without a CDN (server/routes/docs-routes.ts).
 */
function copyDocsRenderer() {
  return {
    name: 'copy-docs-renderer',
    writeBundle() {
      const from = dirname(fileURLToPath(import.meta.resolve('redoc/package.json')));
      mkdirSync('dist/docs', { recursive: true });
      copyFileSync(join(from, 'bundles/redoc.standalone.js'), 'dist/docs/redoc-standalone.js');
      copyFileSync(join(from, 'LICENSE'), 'dist/docs/redoc.LICENSE');
      copyFileSync(join(from, 'bundles/redoc.standalone.js.LICENSE.txt'), 'dist/docs/redoc-standalone.js.LICENSE.txt');
    },
  };
}

export default [
  widgetBuildOptions('widget/index.ts', 'dist/widget/avatar-chat.js', [reportSize(), copyDocsRenderer()]),
  // The account dashboard at /dashboard (server/routes/dashboard-routes.ts): its own entry; the
  // areas showing an <avatar-chat> import the widget bundle above from /widget/ when first shown.
  widgetBuildOptions('widget/dashboard/index.ts', 'dist/widget/dashboard.js', [reportSize('dashboard', false)]),
];
