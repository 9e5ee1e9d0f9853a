import { randomInt } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { AvatarPatch, AvatarRecord, Owner, Store } from '../ports/store.js';
import type { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import type { Avatar, CustomAvatar, IdleAnimation, TalkingAnimation, ThinkingAnimation } from './avatar.js';
import { AvatarAnimations, isCustomAvatar } from './avatar.js';
import { AvatarCatalog } from './avatar-catalog.js';
import { avatarIdsOf, avatarSlug } from './avatar-ids.js';
import { avatarDeleted, avatarUpdated } from './avatar-webhook-data.js';
import type { AvatarChange } from './avatar-webhook-data.js';
import { inspectPng } from './png-preview.js';
import { inspectVrm } from './vrm-file.js';
import { ForbiddenError, NotFoundError, ServiceError, ValidationError } from '../errors.js';
import { checkText } from '../text-limits.js';
import { parseSafetySettings } from '../safety/safety-settings.js';

/** Limits of a custom avatar's fields (docs/api.md, Custom avatars); hosts document the same numbers. */
export const AvatarLimits = {
  nameMaxChars: 64,
  descriptionMaxChars: 500,
  tags: 10,
  tagMaxChars: 32,
  traitMaxChars: 500,
} as const;

/** `AVATAR_MAX_BYTES`' default: 30 MiB, several times the size of a detailed VRM. */
export const DEFAULT_AVATAR_MAX_BYTES = 30 * 1024 * 1024;

/** What an upload leaves out: a neutral voice and character, and the first animation of each state. */
const DEFAULTS = {
  description: '',
  defaultVoice: 'en-US-Neural2-F',
  tags: [] as string[],
  traits: { personality: 'Friendly, attentive and helpful.', speakingStyle: 'Clear, conversational sentences of medium length.' },
  animations: { idle: AvatarAnimations.idle[0], talking: AvatarAnimations.talking[0], thinking: AvatarAnimations.thinking[0] },
} as const;

/** Upload attempts when another upload takes the id picked between the check and the insert. */
const ID_ATTEMPTS = 5;

export interface AvatarFields {
  name: string;
  description: string;
  defaultVoice: string;
  tags: readonly string[];
  traits: { personality: string; speakingStyle: string };
  /** Any state left out keeps its animation (on creation: the first of its list). */
  animations: Partial<Avatar['animations']>;
}

export interface CreateAvatarInput extends Partial<AvatarFields> {
  name: string;
  /** Safety settings in the REST API's wire shape (docs/safety.md): the defaults of this avatar's conversations. */
  safety?: unknown;
  /** The VRM file (glTF binary with VRMC_vrm 1.0 or VRM 0.x). */
  model: Uint8Array;
  /** A PNG shown where the model cannot be (no WebGL) and in lists. */
  preview?: Uint8Array;
}

export type AvatarUpdate = Partial<AvatarFields> & {
  /** New safety settings (wire shape), replacing the avatar's; null removes them. */
  safety?: unknown;
};

export interface ReplaceModelInput {
  model: Uint8Array;
  /** A new preview; without one the current preview stays. */
  preview?: Uint8Array;
}

export interface AvatarLibraryDeps {
  store: Store;
  /** Where the model and preview files go (and are served from). */
  blobs: BlobStore;
  clock: Clock;
  ids: IdGenerator;
  /** `avatar.updated` / `avatar.deleted` are written with the changes that cause them. */
  outbox: WebhookOutbox;
  /** Largest VRM file accepted, in bytes. */
  maxModelBytes: number;
  /**
   * Whether `id` is an avatar voice (core/speech/avatar-voices.ts). Injected because speech sits a
   * layer above avatars.
   */
  isVoice(id: string): boolean;
  /**
   * Runs after a custom avatar and its files are gone, to end what still uses it (the service
   * ends the owner's active conversations with it, reason `avatar_deleted`).
   */
  afterDelete?(owner: Owner, avatarId: string): Promise<void>;
  presets?: AvatarCatalog;
  /** A uniform integer in [0, max): picks among free ids. */
  randomInt?(max: number): number;
}

/**
 * Every avatar a caller can use: the read-only presets, shared by all, and the custom avatars
 * each owner (an account in one key mode) uploads, which no one else can see. Custom avatars are
 * validated before anything is stored, their files kept in the blob store under unguessable keys
 * (a new key for every upload, so a file's URL never changes content), and each change writes its
 * webhook event in the same transaction.
 *
 * @example
 * const avatar = await service.avatars.create(owner, { name: 'Robin', model: await readFile('robin.vrm') });
 * await service.conversations.create(owner, { avatarId: avatar.id }); // robin-…
 */
export class AvatarLibrary {
  /** The presets alone, synchronously: for code that needs no owner. */
  readonly presets: AvatarCatalog;
  readonly #deps: AvatarLibraryDeps;

  constructor(deps: AvatarLibraryDeps) {
    this.#deps = deps;
    this.presets = deps.presets ?? new AvatarCatalog();
  }

  /** The presets, then the owner's custom avatars oldest first; without an owner, the presets. */
  async list(owner?: Owner): Promise<Avatar[]> {
    const custom = owner ? await this.#deps.store.avatars.listByOwner(owner) : [];
    return [...this.presets.list(), ...custom.map(toCustomAvatar)];
  }

  /** A preset, or one of the owner's custom avatars; undefined for anything else. */
  async find(owner: Owner | undefined, id: string): Promise<Avatar | undefined> {
    const preset = this.presets.find(id);
    if (preset || !owner) return preset;
    const record = await this.#deps.store.avatars.find(owner, id);
    return record && toCustomAvatar(record);
  }

  /** Like {@link find}, but 404 `not_found` instead of undefined. */
  async get(owner: Owner | undefined, id: string): Promise<Avatar> {
    const avatar = await this.find(owner, id);
    if (!avatar) throw new NotFoundError('avatar', id);
    return avatar;
  }

  /**
   * Validates and stores a new custom avatar with the id `<slug of the name>-<three random
   * digits>` (409 `conflict` when all 1000 of the slug are taken); emits `avatar.updated` with
   * `change: 'created'`. Nothing is stored when anything is refused.
   */
  async create(owner: Owner, input: CreateAvatarInput): Promise<CustomAvatar> {
    const { store, clock } = this.#deps;
    const given = definedOnly(input);
    const fields = this.#checkFields({ ...DEFAULTS, ...given, animations: { ...DEFAULTS.animations, ...given.animations } });
    const safety = input.safety === undefined || input.safety === null ? null : parseSafetySettings(input.safety);
    const files = this.#checkFiles(input.model, input.preview);
    const stored = await this.#putFiles(files);
    try {
      const now = clock.now();
      for (let attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
        const record: AvatarRecord = {
          id: await this.#freeId(fields.name),
          accountId: owner.accountId,
          mode: owner.mode,
          ...toRecordFields(fields),
          modelKey: stored.modelKey,
          modelBytes: files.model.byteLength,
          vrmVersion: files.vrmVersion,
          previewKey: stored.previewKey,
          safety,
          createdAt: now,
          updatedAt: now,
        };
        const avatar = toCustomAvatar(record);
        const created = await store.transaction(async (tx) => {
          if (!(await tx.avatars.create(record))) return false;
          await this.#deps.outbox.enqueue(tx, owner, 'avatar.updated', avatarUpdated(avatar, 'created'));
          return true;
        });
        if (created) return avatar;
      }
      throw new ServiceError('conflict', `Other uploads keep taking the ids of '${fields.name}'; try again`, { isRetryable: true });
    } catch (error) {
      await this.#deleteFiles(stored.modelKey, stored.previewKey);
      throw error;
    }
  }

  /** Changes the given fields of a custom avatar (its id stays); emits `avatar.updated` with `change: 'updated'` and the `fields` set. */
  async update(owner: Owner, id: string, update: AvatarUpdate): Promise<CustomAvatar> {
    const current = await this.#getCustom(owner, id, 'edited');
    const { safety: safetyInput, ...changes } = definedOnly(update);
    const given = Object.keys(definedOnly(update));
    if (given.length === 0) {
      throw new ValidationError('body', 'Give at least one field to change: name, description, default_voice, tags, traits, animations or safety');
    }
    const safety = safetyInput === undefined ? undefined : safetyInput === null ? null : parseSafetySettings(safetyInput);
    const fields = this.#checkFields({
      name: current.name,
      description: current.description,
      defaultVoice: current.defaultVoice,
      tags: current.tags,
      traits: current.traits,
      ...changes,
      animations: { ...current.animations, ...changes.animations },
    });
    const patch: AvatarPatch = { ...toRecordFields(fields), ...(safety !== undefined && { safety }), updatedAt: this.#deps.clock.now() };
    return this.#apply(owner, current, patch, 'updated', given);
  }

  /**
   * Replaces the model file (and the preview, when one is given) with new files under new keys,
   * then deletes the old ones; emits `avatar.updated` with `change: 'model_replaced'`.
   */
  async replaceModel(owner: Owner, id: string, input: ReplaceModelInput): Promise<CustomAvatar> {
    const current = await this.#getCustom(owner, id, 'given a new model');
    const files = this.#checkFiles(input.model, input.preview);
    const stored = await this.#putFiles(files);
    let replaced: CustomAvatar;
    try {
      replaced = await this.#apply(owner, current, {
        modelKey: stored.modelKey,
        modelBytes: files.model.byteLength,
        vrmVersion: files.vrmVersion,
        ...(stored.previewKey !== null && { previewKey: stored.previewKey }),
        updatedAt: this.#deps.clock.now(),
      }, 'model_replaced');
    } catch (error) {
      await this.#deleteFiles(stored.modelKey, stored.previewKey);
      throw error;
    }
    await this.#deleteFiles(current.model.key, stored.previewKey !== null ? current.previewKey : null);
    return replaced;
  }

  /**
   * Deletes a custom avatar: the row (with `avatar.deleted`, in one transaction), then its files,
   * then whatever `afterDelete` ends. Presets are 403.
   */
  async delete(owner: Owner, id: string): Promise<void> {
    const avatar = await this.#getCustom(owner, id, 'deleted');
    await this.#deps.store.transaction(async (tx) => {
      await tx.avatars.delete(id);
      await this.#deps.outbox.enqueue(tx, owner, 'avatar.deleted', avatarDeleted(avatar));
    });
    await this.#deleteFiles(avatar.model.key, avatar.previewKey);
    await this.#deps.afterDelete?.(owner, id);
  }

  /** The owner's custom avatar `id`; 403 for a preset (whoever asks), 404 when the owner has none by that id. */
  async #getCustom(owner: Owner, id: string, change: string): Promise<CustomAvatar> {
    const avatar = await this.get(owner, id);
    if (!isCustomAvatar(avatar)) throw new ForbiddenError(`${id} is a preset; presets are read-only and cannot be ${change}`);
    return avatar;
  }

  async #apply(owner: Owner, current: CustomAvatar, patch: AvatarPatch, change: AvatarChange, fields?: readonly string[]): Promise<CustomAvatar> {
    const updated = toCustomAvatar({ ...toRecord(current), ...patch });
    await this.#deps.store.transaction(async (tx) => {
      await tx.avatars.update(current.id, patch);
      await this.#deps.outbox.enqueue(tx, owner, 'avatar.updated', avatarUpdated(updated, change, fields));
    });
    return updated;
  }

  /** A random id of the name's slug that neither a preset nor any stored avatar has. */
  async #freeId(name: string): Promise<string> {
    const slug = avatarSlug(name);
    const candidates = avatarIdsOf(slug).filter((id) => !this.presets.find(id));
    const taken = new Set(await this.#deps.store.avatars.takenIds(candidates));
    const free = candidates.filter((id) => !taken.has(id));
    if (free.length === 0) {
      throw new ServiceError('conflict', `Every id for the name '${name}' (${slug}-000 to ${slug}-999) is taken; choose another name`);
    }
    return free[(this.#deps.randomInt ?? randomInt)(free.length)]!;
  }

  #checkFields(fields: AvatarFields): AvatarFields {
    checkText('name', fields.name, AvatarLimits.nameMaxChars);
    checkText('description', fields.description, AvatarLimits.descriptionMaxChars, true);
    if (!this.#deps.isVoice(fields.defaultVoice)) {
      throw new ValidationError('default_voice', `default_voice ${fields.defaultVoice} is not an avatar voice; pick one of GET /v1/tts/voices, e.g. en-US-Neural2-F`);
    }
    if (fields.tags.length > AvatarLimits.tags) throw new ValidationError('tags', `tags must have at most ${AvatarLimits.tags} items`);
    fields.tags.forEach((tag, i) => checkText(`tags[${i}]`, tag, AvatarLimits.tagMaxChars));
    checkText('traits.personality', fields.traits.personality, AvatarLimits.traitMaxChars);
    checkText('traits.speaking_style', fields.traits.speakingStyle, AvatarLimits.traitMaxChars);
    for (const state of ['idle', 'talking', 'thinking'] as const) {
      const name = fields.animations[state];
      if (name !== undefined && !(AvatarAnimations[state] as readonly string[]).includes(name)) {
        throw new ValidationError(`animations.${state}`, `animations.${state} must be one of: ${AvatarAnimations[state].join(', ')}`);
      }
    }
    return fields;
  }

  #checkFiles(model: Uint8Array, preview: Uint8Array | undefined) {
    const vrm = inspectVrm(model, { maxBytes: this.#deps.maxModelBytes, field: 'file' });
    if (preview) inspectPng(preview, { field: 'preview' });
    return { model, preview, vrmVersion: vrm.version };
  }

  /** Stores the files under new keys; if the second fails, the first is removed. */
  async #putFiles(files: { model: Uint8Array; preview: Uint8Array | undefined }): Promise<{ modelKey: string; previewKey: string | null }> {
    const { blobs, ids } = this.#deps;
    const modelKey = `${ids.next('avf')}.vrm`;
    const previewKey = files.preview ? `${ids.next('avf')}.png` : null;
    await blobs.put(modelKey, files.model);
    if (previewKey !== null) {
      try {
        await blobs.put(previewKey, files.preview!);
      } catch (error) {
        await this.#deleteFiles(modelKey, null);
        throw error;
      }
    }
    return { modelKey, previewKey };
  }

  async #deleteFiles(modelKey: string, previewKey: string | null): Promise<void> {
    await this.#deps.blobs.delete(modelKey);
    if (previewKey !== null) await this.#deps.blobs.delete(previewKey);
  }
}

/** `value` without its undefined fields, so spreading it over defaults keeps them. */
function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function toRecordFields(fields: AvatarFields): Pick<AvatarRecord, 'name' | 'description' | 'tags' | 'defaultVoice' | 'animations' | 'personality' | 'speakingStyle'> {
  return {
    name: fields.name,
    description: fields.description,
    tags: [...fields.tags],
    defaultVoice: fields.defaultVoice,
    animations: { ...DEFAULTS.animations, ...fields.animations },
    personality: fields.traits.personality,
    speakingStyle: fields.traits.speakingStyle,
  };
}

function toCustomAvatar(record: AvatarRecord): CustomAvatar {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    tags: [...record.tags],
    defaultVoice: record.defaultVoice,
    alternativeVoices: [],
    // Stored names were checked against AvatarAnimations when written.
    animations: record.animations as { idle: IdleAnimation; talking: TalkingAnimation; thinking: ThinkingAnimation },
    traits: { personality: record.personality, speakingStyle: record.speakingStyle },
    preset: false,
    owner: { accountId: record.accountId, mode: record.mode },
    model: { key: record.modelKey, bytes: record.modelBytes, vrmVersion: record.vrmVersion },
    previewKey: record.previewKey,
    ...(record.safety !== null && { safety: record.safety }),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

function toRecord(avatar: CustomAvatar): AvatarRecord {
  return {
    id: avatar.id,
    accountId: avatar.owner.accountId,
    mode: avatar.owner.mode,
    ...toRecordFields(avatar),
    modelKey: avatar.model.key,
    modelBytes: avatar.model.bytes,
    vrmVersion: avatar.model.vrmVersion,
    previewKey: avatar.previewKey,
    safety: avatar.safety ?? null,
    createdAt: avatar.createdAt,
    updatedAt: avatar.updatedAt,
  };
}
