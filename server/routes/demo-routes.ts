import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NotFoundError } from '../../core/index.js';
import { defineRoute } from '../http/route.js';
import type { Route } from '../http/route.js';
import type { PackagePaths } from '../package-paths.js';

/** The demo page at `/`. It holds no key: it lists avatars through the public API. */
export function demoRoutes(paths: PackagePaths): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/',
      summary: 'Demo page',
      tag: 'demo',
      auth: 'none',
      async handle({ ctx }) {
        const html = await readFile(join(paths.demo, 'index.html'), 'utf8').catch(() => undefined);
        if (html === undefined) throw new NotFoundError('page', '/');
        ctx.type = 'text/html; charset=utf-8';
        ctx.set('Cache-Control', 'no-cache');
        ctx.set('Content-Security-Policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline'");
        ctx.body = html;
        return undefined;
      },
    }),
  ];
}
