import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAvatar } from './build-avatar.js';
import { CHARACTERS } from './characters/characters.js';

/**
 * Writes `<id>.vrm` for every character into `outDir` and returns the written paths.
 * Used by the CLI below and by the determinism test (which writes into a temp dir).
 */
export function generateAvatars(outDir: string): string[] {
  mkdirSync(outDir, { recursive: true });
  return CHARACTERS.map((spec) => {
    const file = join(outDir, `${spec.id}.vrm`);
    writeFileSync(file, buildAvatar(spec));
    return file;
  });
}

/** The repository's committed output folder, found from this file (source or dist). */
export function defaultOutDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!dir.endsWith('assets') && dirname(dir) !== dir) dir = dirname(dir);
  // From dist/assets/generator the nearest "assets" is dist/assets: step out of dist.
  if (dir.endsWith(join('dist', 'assets'))) dir = join(dirname(dirname(dir)), 'assets');
  return join(dir, 'avatars');
}

const invokedDirectly = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const outFlag = process.argv.indexOf('--out');
  const outDir = outFlag > 0 && process.argv[outFlag + 1] ? resolve(process.argv[outFlag + 1]!) : defaultOutDir();
  for (const file of generateAvatars(outDir)) console.log(`wrote ${file}`);
}
