import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Avatar, AvatarUpdate } from '../../core/index.js';
import { AvatarAnimations, AvatarLimits, NotFoundError, PREVIEW_MAX_BYTES, PREVIEW_MAX_SIDE, isCustomAvatar } from '../../core/index.js';
import { s } from '../schema/schema.js';
import type { Infer } from '../schema/schema.js';
import { defineRoute } from '../http/route.js';
import type { Route, UploadSpec } from '../http/route.js';
import { optionalOwnerOf, ownerOf } from '../http/owner.js';
import { avatarFileUrls, presentAvatar, presentAvatarDetail } from '../edge/present.js';
import { avatarParams } from './id-schemas.js';
import { avatarDetailSchema, avatarListSchema, avatarModelSchema, deletedSchema, safetyInputSchema } from '../http/resource-schemas.js';
import type { UrlBuilder } from '../edge/urls.js';

const name = s.string({ min: 1, max: AvatarLimits.nameMaxChars, description: 'Display name; its letters a–z make the id (Robin → robin-042)' });
const description = s.string({ max: AvatarLimits.descriptionMaxChars });
const defaultVoice = s.string({
  pattern: /^[a-z]{2,3}-[A-Z]{2}-Neural2-[A-Z]$/,
  patternHint: 'be an avatar voice such as en-US-Neural2-F (GET /v1/tts/voices)',
  description: 'An avatar voice (GET /v1/tts/voices); default en-US-Neural2-F',
});
const tags = s.array(s.string({ min: 1, max: AvatarLimits.tagMaxChars }), { max: AvatarLimits.tags });
const trait = s.string({ min: 1, max: AvatarLimits.traitMaxChars });
const traits = s.object({ personality: trait, speaking_style: trait }, 'What the AI is told about the character (both together)');
const animations = s.object(
  {
    idle: s.optional(s.enum(AvatarAnimations.idle)),
    talking: s.optional(s.enum(AvatarAnimations.talking)),
    thinking: s.optional(s.enum(AvatarAnimations.thinking)),
  },
  'The animation the widget plays in each state; states left out keep theirs (at first the first of each list)',
);

/** The text fields of an upload: JSON values travel as JSON text, since form fields are text. */
const uploadFields = s.object({
  name,
  description: s.optional(description),
  default_voice: s.optional(defaultVoice),
  tags: s.optional(s.json(tags, { description: `Up to ${AvatarLimits.tags} tags as a JSON array`, example: '["support","english"]' })),
  traits: s.optional(s.json(traits, { description: 'JSON {personality, speaking_style}', example: '{"personality":"Calm and patient.","speaking_style":"Short, clear sentences."}' })),
  animations: s.optional(s.json(animations, { description: 'JSON {idle?, talking?, thinking?}', example: '{"idle":"idle_sway"}' })),
  safety: s.optional(
    s.json(safetyInputSchema, {
      description: "JSON safety settings the avatar's conversations start from (docs/safety.md)",
      example: '{"blocked_topics":[{"name":"competitors","keywords":["acme corp"]}]}',
    }),
  ),
});

const changes = s.object({
  name: s.optional(name),
  description: s.optional(description),
  default_voice: s.optional(defaultVoice),
  tags: s.optional(tags),
  traits: s.optional(traits),
  animations: s.optional(animations),
  safety: s.optional(s.nullable(safetyInputSchema)),
});

type AvatarFieldsBody = Infer<typeof changes>;

/** Request fields (snake_case) as the core's avatar fields. */
function toAvatarFields(body: AvatarFieldsBody): AvatarUpdate {
  return {
    ...(body.name !== undefined && { name: body.name }),
    ...(body.description !== undefined && { description: body.description }),
    ...(body.default_voice !== undefined && { defaultVoice: body.default_voice }),
    ...(body.tags !== undefined && { tags: body.tags }),
    ...(body.traits !== undefined && { traits: { personality: body.traits.personality, speakingStyle: body.traits.speaking_style } }),
    ...(body.animations !== undefined && { animations: body.animations }),
    ...(body.safety !== undefined && { safety: body.safety }),
  };
}

/** `GET /avatars/:id/model`: the file behind `model_url`, and what it is. */
async function describeModel(avatar: Avatar, assetsDir: string, urls: UrlBuilder) {
  const model_url = avatarFileUrls(avatar, urls).model;
  if (isCustomAvatar(avatar)) {
    return { id: avatar.id, model_url, format: 'vrm' as const, spec_version: avatar.model.vrmVersion, size_bytes: avatar.model.bytes };
  }
  const file = await stat(join(assetsDir, `${avatar.id}.vrm`)).catch(() => undefined);
  if (!file) throw new NotFoundError('avatar model', avatar.id);
  return { id: avatar.id, model_url, format: 'vrm' as const, spec_version: '1.0' as const, size_bytes: file.size };
}

/**
 * Avatars: the presets for everyone, and each owner's custom avatars (docs/api.md, Custom
 * avatars), listed and read with the owner's API key or session token and changed with its key.
 */
export function avatarRoutes(assetsDir: string, urls: UrlBuilder, avatarMaxBytes: number): Route[] {
  const model: UploadSpec = {
    name: 'file',
    required: true,
    maxBytes: avatarMaxBytes,
    mediaType: 'model/gltf-binary',
    description: 'the .vrm model: a glTF binary declaring VRMC_vrm 1.0 or VRM 0.x',
  };
  const preview: UploadSpec = {
    name: 'preview',
    required: false,
    maxBytes: PREVIEW_MAX_BYTES,
    mediaType: 'image/png',
    description: `a PNG preview of at most ${PREVIEW_MAX_SIDE} pixels a side, shown without WebGL`,
  };
  return [
    defineRoute({
      method: 'get',
      path: '/avatars',
      summary: 'List avatars: the presets, then your custom avatars',
      tag: 'avatars',
      auth: 'public',
      response: avatarListSchema.json,
      async handle({ principal, service }) {
        const avatars = await service.avatars.list(optionalOwnerOf(principal));
        return { avatars: avatars.map((a) => presentAvatar(a, urls)) };
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
      async handle({ params, principal, service }) {
        return presentAvatarDetail(await service.avatars.get(optionalOwnerOf(principal), params.id), urls);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/avatars/:id/model',
      summary: "Get an avatar's 3D model (VRM) URL",
      tag: 'avatars',
      auth: 'public',
      params: avatarParams,
      response: avatarModelSchema.json,
      async handle({ params, principal, service }) {
        return describeModel(await service.avatars.get(optionalOwnerOf(principal), params.id), assetsDir, urls);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/avatars',
      summary: 'Upload a custom avatar (multipart: a .vrm file, its fields and an optional PNG preview)',
      errors: [409],
      tag: 'avatars',
      auth: 'api_key',
      status: 201,
      multipart: { fields: uploadFields, files: [model, preview] },
      response: avatarDetailSchema.json,
      async handle({ body, files, principal, service }) {
        const avatar = await service.avatars.create(ownerOf(principal), {
          ...toAvatarFields(body),
          name: body.name,
          model: files.file!,
          ...(files.preview && { preview: files.preview }),
        });
        return presentAvatarDetail(avatar, urls);
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/avatars/:id',
      summary: "Change a custom avatar's fields (its id stays)",
      errors: [403],
      tag: 'avatars',
      auth: 'api_key',
      params: avatarParams,
      body: changes,
      response: avatarDetailSchema.json,
      async handle({ params, body, principal, service }) {
        return presentAvatarDetail(await service.avatars.update(ownerOf(principal), params.id, toAvatarFields(body)), urls);
      },
    }),
    defineRoute({
      method: 'put',
      path: '/avatars/:id/model',
      summary: "Replace a custom avatar's model (multipart: a .vrm file and an optional new PNG preview)",
      errors: [403],
      tag: 'avatars',
      auth: 'api_key',
      params: avatarParams,
      multipart: { fields: s.object({}), files: [model, preview] },
      response: avatarDetailSchema.json,
      async handle({ params, files, principal, service }) {
        const avatar = await service.avatars.replaceModel(ownerOf(principal), params.id, {
          model: files.file!,
          ...(files.preview && { preview: files.preview }),
        });
        return presentAvatarDetail(avatar, urls);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/avatars/:id',
      summary: 'Delete a custom avatar, its files, and end its active conversations',
      errors: [403],
      tag: 'avatars',
      auth: 'api_key',
      params: avatarParams,
      response: deletedSchema.json,
      async handle({ params, principal, service }) {
        await service.avatars.delete(ownerOf(principal), params.id);
        return { deleted: true };
      },
    }),
  ];
}
