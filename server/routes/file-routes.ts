import type { BlobStore } from '../../core/index.js';
import { NotFoundError } from '../../core/index.js';
import { defineRoute } from '../http/route.js';
import type { Route } from '../http/route.js';
import { sendBlob } from '../http/send-blob.js';

const AUDIO_FILE = /^aud_[0-9a-z]{26}(-\d{1,4})?\.mp3$/;
const AVATAR_FILE = /^[a-z]+-\d{3}\.(vrm|png)$/;
const CUSTOM_AVATAR_FILE = /^avf_[0-9a-z]{26}\.(vrm|png)$/;

/**
 * `GET /v1/audio/<file>.mp3`: synthesized speech. Names are unguessable (80 random bits) and never
 * change content, so they are cached for a year.
 */
export function audioRoute(): Route {
  return defineRoute({
    method: 'get',
    path: '/audio/:file',
    summary: 'Download synthesized speech (MP3, byte ranges supported)',
    errors: [416],
    tag: 'audio',
    auth: 'none',
    produces: ['audio/mpeg'],
    async handle({ ctx, service }) {
      const file = String(ctx.params.file);
      if (!AUDIO_FILE.test(file)) throw new NotFoundError('audio file', file);
      await sendBlob(ctx, service.blobs, file, {
        contentType: 'audio/mpeg',
        cacheControl: 'public, max-age=31536000, immutable',
      });
      return undefined;
    },
  });
}

/**
 * `GET /v1/avatar-files/<key>.vrm|png`: custom avatars' models and previews, from the blob store.
 * Like audio, a name is unguessable (80 random bits) and never changes content — replacing a
 * model stores it under a new name — so they are cached for a year.
 */
export function avatarFileRoute(): Route {
  return defineRoute({
    method: 'get',
    path: '/avatar-files/:file',
    summary: 'Download a custom avatar model (VRM) or preview (PNG)',
    tag: 'avatars',
    auth: 'none',
    produces: ['model/gltf-binary', 'image/png'],
    async handle({ ctx, service }) {
      const file = String(ctx.params.file);
      if (!CUSTOM_AVATAR_FILE.test(file)) throw new NotFoundError('avatar file', file);
      await sendBlob(ctx, service.blobs, file, {
        contentType: file.endsWith('.vrm') ? 'model/gltf-binary' : 'image/png',
        cacheControl: 'public, max-age=31536000, immutable',
      });
      return undefined;
    },
  });
}

/**
 * `GET /assets/avatars/<id>.vrm|png`: preset models and previews (outside /v1, like any static
 * asset); the models are sent precompressed (`npm run build` makes the variants).
 */
export function avatarAssetRoute(assets: BlobStore): Route {
  return defineRoute({
    method: 'get',
    path: '/assets/avatars/:file',
    summary: 'Download an avatar model (VRM) or preview (PNG)',
    tag: 'avatars',
    auth: 'none',
    produces: ['model/gltf-binary', 'image/png'],
    async handle({ ctx }) {
      const file = String(ctx.params.file);
      if (!AVATAR_FILE.test(file)) throw new NotFoundError('avatar asset', file);
      await sendBlob(ctx, assets, file, {
        contentType: file.endsWith('.vrm') ? 'model/gltf-binary' : 'image/png',
        cacheControl: 'public, max-age=86400, stale-while-revalidate=604800',
        precompressed: true,
      });
      return undefined;
    },
  });
}
