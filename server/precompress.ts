import { readdir, stat, rm, utimes, writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompress, constants } from 'node:zlib';
import { promisify } from 'node:util';
import { packagePaths } from './package-paths.js';
import type { PackagePaths } from './package-paths.js';

/**
 * The encodings files are precompressed in, with the suffix of the file that holds each:
 * `avatar-chat.js` → `avatar-chat.js.br`, in the same folder. Brotli only: every browser sends
 * `br` over HTTPS, and at quality 11 it takes seconds of CPU per file, which is why it is done
 * once at build. A gzip copy would be cheap to make per request (koa-compress does, for clients
 * without brotli) but would add half again to the installed package (2.8 MB of the 4.9 MB the
 * two encodings took), so none is shipped.
 */
export const PRECOMPRESSED = [{ encoding: 'br', suffix: '.br' }] as const;

export type PrecompressedEncoding = (typeof PRECOMPRESSED)[number]['encoding'];

/**
 * Static files worth compressing once at build instead of on every request: the widget bundle
 * and its chunks, the demo page's files and the preset avatar models (a VRM's JSON chunk and
 * uncompressed vertex data halve). Source maps are left out: only developer tools read them.
 */
const COMPRESSIBLE_FILE = /\.(js|html|css|svg|json|vrm)$/;

/**
 * A variant is current when its modification time is its source's: `precompressFolder` copies the
 * source's time onto each variant, so a source edited after the build (the demo during
 * development, a checkout) no longer matches and is compressed per request until the next build.
 */
export function isCurrentVariant(sourceModifiedAt: number, variantModifiedAt: number): boolean {
  return Math.abs(sourceModifiedAt - variantModifiedAt) < 1;
}

const compressors: Record<PrecompressedEncoding, (data: Buffer) => Promise<Buffer>> = {
  // Build time is paid once, so at the highest level.
  br: (data) => promisify(brotliCompress)(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
};

export interface PrecompressedFile {
  file: string;
  bytes: number;
  /** Size of each variant written or kept; absent when the encoding saves nothing. */
  encoded: Partial<Record<PrecompressedEncoding, number>>;
}

/**
 * Writes `.br` beside every compressible file of `dir` whose variant is missing or not current,
 * and removes variants whose source is gone or that would not be smaller than it (a client is
 * then sent the original), and `.gz` copies older builds left.
 */
export async function precompressFolder(dir: string): Promise<PrecompressedFile[]> {
  const names = await readdir(dir);
  const suffixes = PRECOMPRESSED.map((variant) => variant.suffix as string);
  for (const name of names) {
    const suffix = suffixes.find((s) => name.endsWith(s));
    const retired = name.endsWith('.gz') && COMPRESSIBLE_FILE.test(name.slice(0, -3));
    if (retired || (suffix && !names.includes(name.slice(0, -suffix.length)))) await rm(join(dir, name), { force: true });
  }
  const results: PrecompressedFile[] = [];
  for (const file of names.filter((name) => COMPRESSIBLE_FILE.test(name)).sort()) {
    const path = join(dir, file);
    const source = await stat(path);
    const result: PrecompressedFile = { file: path, bytes: source.size, encoded: {} };
    let data: Buffer | undefined;
    for (const { encoding, suffix } of PRECOMPRESSED) {
      const variant = await stat(path + suffix).catch(() => undefined);
      if (variant && isCurrentVariant(source.mtimeMs, variant.mtimeMs)) {
        result.encoded[encoding] = variant.size;
        continue;
      }
      data ??= await readFile(path);
      const encoded = await compressors[encoding](data);
      if (encoded.length >= data.length) {
        await rm(path + suffix, { force: true });
        continue;
      }
      await writeFile(path + suffix, encoded);
      await utimes(path + suffix, source.atimeMs / 1000, source.mtimeMs / 1000);
      result.encoded[encoding] = encoded.length;
    }
    results.push(result);
  }
  return results;
}

/** The folders whose files the server sends with `precompressed` (server/routes/demo-routes.ts, file-routes.ts). */
export function precompressedFolders(paths: PackagePaths): string[] {
  return [paths.widgetBundle, paths.demo, paths.avatarAssets, paths.docsRenderer];
}

/** `npm run build` runs this file last: it precompresses the freshly built bundle and the static files. */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const kb = (n: number | undefined) => (n === undefined ? '—' : `${(n / 1024).toFixed(1)} KB`);
  for (const folder of precompressedFolders(packagePaths())) {
    for (const { file, bytes, encoded } of await precompressFolder(folder)) {
      if (file.endsWith('avatar-chat.js')) console.log(`precompressed: ${file} ${kb(bytes)} → br ${kb(encoded.br)}`);
    }
  }
}
