import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { NotFoundError } from '../../core/index.js';
import { defineRoute } from '../http/route.js';
import type { Route } from '../http/route.js';
import { presentAvatar, presentAvatarDetail } from '../edge/present.js';
import { avatarParams } from './id-schemas.js';
import { avatarDetailSchema, avatarListSchema, avatarModelSchema } from '../http/resource-schemas.js';
import type { UrlBuilder } from '../edge/urls.js';

/** Avatar presets: list, detail and the 3D model record. */
export function avatarRoutes(assetsDir: string, urls: UrlBuilder): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/avatars',
      summary: 'List avatars',
      tag: 'avatars',
      auth: 'public',
      response: avatarListSchema.json,
      async handle({ service }) {
        return { avatars: service.avatars.list().map((a) => presentAvatar(a, urls)) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/avatars/:id',
      summary: 'Get an avatar',
      tag: 'avatars',
      auth: 'public',
      params: avatarParams,
      response: avatarDetailSchema.json,
      async handle({ params, service }) {
        return presentAvatarDetail(service.avatars.get(params.id), urls);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/avatars/:id/model',
      summary: "Get an avatar's 3D model (VRM 1.0) URL",
      tag: 'avatars',
      auth: 'public',
      params: avatarParams,
      response: avatarModelSchema.json,
      async handle({ params, service }) {
        const avatar = service.avatars.get(params.id);
        const file = await stat(join(assetsDir, `${avatar.id}.vrm`)).catch(() => undefined);
        if (!file) throw new NotFoundError('avatar model', avatar.id);
        return {
          id: avatar.id,
          model_url: urls.avatarModel(avatar.id),
          format: 'vrm',
          spec_version: '1.0',
          size_bytes: file.size,
        };
      },
    }),
  ];
}
