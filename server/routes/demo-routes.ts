import { NotFoundError } from '../../core/index.js';
import { FsBlobStore } from '../../core/index.js';
import { defineRoute } from '../http/route.js';
import type { Route } from '../http/route.js';
import { sendBlob } from '../http/send-blob.js';
import type { PackagePaths } from '../package-paths.js';

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  map: 'application/json; charset=utf-8',
  png: 'image/png',
  svg: 'image/svg+xml',
  json: 'application/json; charset=utf-8',
};

const typeOf = (file: string) => TYPES[file.slice(file.lastIndexOf('.') + 1)] ?? 'application/octet-stream';

/**
 * The demo page at `/` and its files under `/demo/`, and the widget bundle at
 * `/widget/avatar-chat.js`. None of them holds a key: the demo gets a session token from
 * `POST /demo/session`.
 */
export function demoRoutes(paths: PackagePaths): Route[] {
  const demo = new FsBlobStore(paths.demo);
  const widget = new FsBlobStore(paths.widgetBundle);
  return [
    defineRoute({
      method: 'get',
      path: '/',
      summary: 'Demo page',
      tag: 'demo',
      auth: 'none',
      async handle({ ctx }) {
        ctx.set('Content-Security-Policy', CSP);
        await sendBlob(ctx, demo, 'index.html', { contentType: TYPES.html!, cacheControl: 'no-cache', precompressed: true });
        return undefined;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/demo/:file',
      summary: 'Demo page files',
      tag: 'demo',
      auth: 'none',
      async handle({ ctx }) {
        const file = String(ctx.params.file);
        // The build's compressed copies are sent in place of their originals, never by their own names.
        if (/\.(br|gz)$/.test(file)) throw new NotFoundError('file', file);
        await sendBlob(ctx, demo, file, { contentType: typeOf(file), cacheControl: 'no-cache', precompressed: true });
        return undefined;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/widget/:file',
      summary: 'The <avatar-chat> bundle (ES module) and the chunks it loads on demand',
      tag: 'demo',
      auth: 'none',
      async handle({ ctx }) {
        const file = String(ctx.params.file);
        const chunk = /^avatar-chat-[a-z-]+-[\w-]{8}\.js(\.map)?$/.test(file);
        if (!chunk && !/^avatar-chat\.js(\.map)?$/.test(file)) throw new NotFoundError('file', file);
        ctx.set('Access-Control-Allow-Origin', '*');
        // The entry is revalidated on every load (ETag), so a redeploy reaches sites at once; the
        // chunks it imports carry a content hash in their names, so they never change.
        const cacheControl = chunk ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate';
        await sendBlob(ctx, widget, file, { contentType: typeOf(file), cacheControl, precompressed: true });
        return undefined;
      },
    }),
  ];
}

/** The demo loads only its own scripts; it talks to this server (REST, socket.io) and nothing else. */
const CSP = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob: data:",
  // GLTFLoader fetches embedded textures through blob: URLs.
  "connect-src 'self' ws: wss: blob: data:",
  "style-src 'self' 'unsafe-inline'",
  "script-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'self'",
].join('; ');
