import type { Kysely } from 'kysely';
import type { AvatarPatch, AvatarRepository } from '../../ports/store.js';
import type { AvatarsTable, Database } from './database.js';
import { toAvatar } from './row-mappers.js';

function avatarRow(patch: AvatarPatch): Partial<AvatarsTable> {
  return {
    ...(patch.name !== undefined && { name: patch.name }),
    ...(patch.description !== undefined && { description: patch.description }),
    ...(patch.tags !== undefined && { tags: JSON.stringify(patch.tags) }),
    ...(patch.defaultVoice !== undefined && { default_voice: patch.defaultVoice }),
    ...(patch.animations !== undefined && { animations: JSON.stringify(patch.animations) }),
    ...(patch.personality !== undefined && { personality: patch.personality }),
    ...(patch.speakingStyle !== undefined && { speaking_style: patch.speakingStyle }),
    ...(patch.modelKey !== undefined && { model_key: patch.modelKey }),
    ...(patch.modelBytes !== undefined && { model_bytes: patch.modelBytes }),
    ...(patch.vrmVersion !== undefined && { vrm_version: patch.vrmVersion }),
    ...(patch.previewKey !== undefined && { preview_key: patch.previewKey }),
    ...(patch.safety !== undefined && { safety: patch.safety === null ? null : JSON.stringify(patch.safety) }),
    ...(patch.updatedAt !== undefined && { updated_at: patch.updatedAt }),
  };
}

export function avatarRepository(db: Kysely<Database>): AvatarRepository {
  return {
    async create(a) {
      const result = await db
        .insertInto('avatars')
        .values({
          id: a.id,
          account_id: a.accountId,
          mode: a.mode,
          name: a.name,
          description: a.description,
          tags: JSON.stringify(a.tags),
          default_voice: a.defaultVoice,
          animations: JSON.stringify(a.animations),
          personality: a.personality,
          speaking_style: a.speakingStyle,
          model_key: a.modelKey,
          model_bytes: a.modelBytes,
          vrm_version: a.vrmVersion,
          preview_key: a.previewKey,
          safety: a.safety === null ? null : JSON.stringify(a.safety),
          created_at: a.createdAt,
          updated_at: a.updatedAt,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    async find(owner, id) {
      const row = await db
        .selectFrom('avatars')
        .selectAll()
        .where('id', '=', id)
        .where('account_id', '=', owner.accountId)
        .where('mode', '=', owner.mode)
        .executeTakeFirst();
      return row && toAvatar(row);
    },
    async listByOwner(owner) {
      const rows = await db
        .selectFrom('avatars')
        .selectAll()
        .where('account_id', '=', owner.accountId)
        .where('mode', '=', owner.mode)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toAvatar);
    },
    async takenIds(ids) {
      if (ids.length === 0) return [];
      const rows = await db.selectFrom('avatars').select('id').where('id', 'in', ids).execute();
      return rows.map((row) => row.id);
    },
    async update(id, patch) {
      const row = avatarRow(patch);
      if (Object.keys(row).length > 0) await db.updateTable('avatars').set(row).where('id', '=', id).execute();
    },
    async delete(id) {
      await db.deleteFrom('avatars').where('id', '=', id).execute();
    },
  };
}
