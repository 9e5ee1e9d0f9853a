import { NotFoundError } from '../../core/index.js';
import { FsBlobStore } from '../../core/index.js';
import { defineRoute } from '../http/route.js';
import type { Route } from '../http/route.js';
import { sendBlob } from '../http/send-blob.js';
import type { PackagePaths } from '../package-paths.js';

/**
 * The page shell of `/dashboard`: no data and no secret, one module script from this server. The
 * app (widget/dashboard/) signs in with `POST /v1/auth/login` and keeps the account token in
 * memory only (docs/dashboard.md).
 */
const SHELL = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>Dashboard · avatar-service</title>
<style>html{color-scheme:light dark}body{margin:0;font:16px/1.5 system-ui,sans-serif;background:Canvas;color:CanvasText}</style>
<script type="module" src="/dashboard/dashboard.js"></script>
</head>
<body>
<avatar-dashboard api="/v1"></avatar-dashboard>
<noscript><p>The dashboard needs JavaScript.</p></noscript>
</body>
</html>
`;

/** The dashboard's entry and the chunks it imports on demand (`dashboard-<name>-<hash>.js`). */
const FILE = /^dashboard(-[a-z0-9-]+-[\w-]{8})?\.js(\.map)?$/;

/** `/dashboard`: the account holders' page (keys, webhooks, usage, conversations, avatars, playground). */
export function dashboardRoutes(paths: PackagePaths): Route[] {
  const bundle = new FsBlobStore(paths.widgetBundle);
  return [
    defineRoute({
      method: 'get',
      path: '/dashboard',
      summary: 'Dashboard page',
      tag: 'demo',
      auth: 'none',
      async handle({ ctx }) {
        ctx.set('Content-Security-Policy', CSP);
        ctx.set('Cache-Control', 'no-cache');
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = SHELL;
        return undefined;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/dashboard/:file',
      summary: 'Dashboard scripts',
      tag: 'demo',
      auth: 'none',
      async handle({ ctx }) {
        const file = String(ctx.params.file);
        const match = FILE.exec(file);
        if (!match) throw new NotFoundError('file', file);
        // The entry is revalidated on each load; chunks carry their content hash in their names.
        const cacheControl = match[1] ? 'public, max-age=31536000, immutable' : 'no-cache';
        const contentType = file.endsWith('.map') ? 'application/json; charset=utf-8' : 'text/javascript; charset=utf-8';
        await sendBlob(ctx, bundle, file, { contentType, cacheControl, precompressed: true });
        return undefined;
      },
    }),
  ];
}

/**
 * Scripts from this server only, none inline; the API, audio and avatar files of this server;
 * the framed-page ban keeps the sign-in form from being overlaid by another site.
 */
const CSP = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob: data:",
  "connect-src 'self' ws: wss: blob: data:",
  "style-src 'self' 'unsafe-inline'",
  "script-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
