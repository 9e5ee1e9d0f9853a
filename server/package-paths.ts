import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folders of the installed package (works from source and from dist/). */
export interface PackagePaths {
  root: string;
  version: string;
  avatarAssets: string;
  demo: string;
  /** Folder of the built widget bundle. */
  widgetBundle: string;
  /** Folder of the API reference page's renderer, copied there by the build. */
  docsRenderer: string;
}

export function packagePaths(): PackagePaths {
  let dir = dirname(fileURLToPath(import.meta.url));
  // The nearest package.json named avatar-service: the repository, or the installed package
  // (which ships dist/, assets/ and demo/ but not the TypeScript sources).
  let manifest: { name?: string; version: string } | undefined;
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
      if (manifest.name === 'avatar-service') break;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('avatar-service: package root not found');
    dir = parent;
  }
  const { version } = manifest;
  return {
    root: dir,
    version,
    avatarAssets: join(dir, 'assets', 'avatars'),
    demo: join(dir, 'demo'),
    widgetBundle: join(dir, 'dist', 'widget'),
    docsRenderer: join(dir, 'dist', 'docs'),
  };
}
