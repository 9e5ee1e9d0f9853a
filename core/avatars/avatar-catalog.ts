import type { Avatar } from './avatar.js';
import { avatarPresets } from './avatar-presets.js';
import { NotFoundError } from '../errors.js';

/** The six read-only presets, shared by every caller; `AvatarLibrary` adds each owner's custom avatars. */
export class AvatarCatalog {
  readonly #byId: ReadonlyMap<string, Avatar>;

  constructor(avatars: readonly Avatar[] = avatarPresets) {
    this.#byId = new Map(avatars.map((a) => [a.id, a]));
  }

  list(): Avatar[] {
    return [...this.#byId.values()];
  }

  find(id: string): Avatar | undefined {
    return this.#byId.get(id);
  }

  get(id: string): Avatar {
    const avatar = this.#byId.get(id);
    if (!avatar) throw new NotFoundError('avatar', id);
    return avatar;
  }
}
