// Builds the <avatar-chat> widget into one minified ES module with a source map:
//   dist/widget/avatar-chat.js (+ .map), served by the server at /widget/avatar-chat.js.
// TypeScript 7 has no JavaScript API, so esbuild transpiles (types are checked by
// `tsc -p widget/tsconfig.json` in `npm run build`, which also writes dist/widget/types).
// bench/widget-bundle.ts builds a bare viewer with the same settings (`widgetBuildOptions`).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
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

/** Rollup input and output options for one ES module bundle. */
export function widgetBuildOptions(input, file, extraPlugins = []) {
  return {
    input,
    plugins: [...widgetPlugins(), ...extraPlugins],
    output: { file, format: 'es', sourcemap: true, inlineDynamicImports: true },
    onwarn(warning, warn) {
      // three-vrm and three reference `this` at module scope in a few places; harmless in ESM.
      if (warning.code === 'THIS_IS_UNDEFINED') return;
      warn(warning);
    },
  };
}

/** Prints raw and gzip size of the written bundle and its ratio to the budget baseline. */
function reportSize() {
  return {
    name: 'report-size',
    writeBundle(options) {
      const code = readFileSync(options.file);
      const gzip = gzipSync(code, { level: 9 }).length;
      const ratio = gzip / BASELINE_GZIP_BYTES;
      const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
      const verdict = ratio <= BUDGET_RATIO ? 'within' : 'OVER';
      console.log(
        `widget: ${options.file} ${kb(code.length)} raw, ${kb(gzip)} gzip = ${ratio.toFixed(3)}× the ${kb(BASELINE_GZIP_BYTES)} bare-viewer baseline (${verdict} the ${BUDGET_RATIO}× budget)`,
      );
    },
  };
}

export default widgetBuildOptions('widget/index.ts', 'dist/widget/avatar-chat.js', [reportSize()]);
