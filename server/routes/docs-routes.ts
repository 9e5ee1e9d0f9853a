import { NotFoundError } from '../../core/index.js';
import { FsBlobStore } from '../../core/index.js';
import { defineRoute } from '../http/route.js';
import type { Route } from '../http/route.js';
import { sendBlob } from '../http/send-blob.js';

/** The renderer the build copies into `dist/docs/` (rollup.config.mjs): Redoc's standalone bundle (MIT), no CDN. */
const RENDERER = 'redoc-standalone.js';

/**
 * The page loads the renderer from this server and nothing else; Redoc styles itself with inline
 * styles and runs its search in a blob: worker.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'self'",
].join('; ');

/** Redoc reads `spec-url` from its element and renders it; no inline script is needed. */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>avatar-service API reference</title>
<style>body { margin: 0; font-family: system-ui, sans-serif; } .realtime { padding: 0.6rem 1rem; background: #f4f4f8; font-size: 0.9rem; }</style>
</head>
<body>
<p class="realtime">REST and SSE below, from <a href="/v1/openapi.json">/v1/openapi.json</a>.
The realtime transports (socket.io, WebSocket) are described in <a href="/v1/asyncapi.json">/v1/asyncapi.json</a> (AsyncAPI 3).</p>
<redoc spec-url="/v1/openapi.json"></redoc>
<script src="/docs/${RENDERER}"></script>
</body>
</html>
`;

/**
 * A readable reference of the API at `/docs`, served offline: the page and the renderer come from
 * this server (the renderer from `rendererFolder`, i.e. `dist/docs`).
 */
export function docsRoutes(rendererFolder: string): Route[] {
  const files = new FsBlobStore(rendererFolder);
  return [
    defineRoute({
      method: 'get',
      path: '/docs',
      summary: 'API reference page (renders the OpenAPI document)',
      tag: 'meta',
      auth: 'none',
      produces: ['text/html'],
      async handle({ ctx }) {
        ctx.set('Content-Security-Policy', CSP);
        ctx.set('Cache-Control', 'no-cache');
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = PAGE;
        return undefined;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/docs/:file',
      summary: 'The reference page renderer',
      tag: 'meta',
      auth: 'none',
      produces: ['text/javascript'],
      async handle({ ctx }) {
        const file = String(ctx.params.file);
        if (file !== RENDERER) throw new NotFoundError('file', file);
        await sendBlob(ctx, files, file, { contentType: 'text/javascript; charset=utf-8', cacheControl: 'public, max-age=3600', precompressed: true });
        return undefined;
      },
    }),
  ];
}
