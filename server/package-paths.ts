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
}

export function packagePaths(): PackagePaths {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'core'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('avatar-service: package root not found');
    dir = parent;
  }
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  return {
    root: dir,
    version,
    avatarAssets: join(dir, 'assets', 'avatars'),
    demo: join(dir, 'demo'),
    widgetBundle: join(dir, 'dist', 'widget'),
  };
}
