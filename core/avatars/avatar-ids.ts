/**
 * Ids of custom avatars: `<slug>-<three digits>`, the shape of the presets' (`luna-001`), so an
 * id says whose face it is and fits every place that takes an avatar id.
 */

/** Longest slug kept, so an id stays well inside the 64 characters ids may have. */
const MAX_SLUG_LETTERS = 32;

/**
 * The name lower-cased with accents removed, keeping the letters a–z only (`Dr. Émile` →
 * `dremile`), at most 32 of them; `avatar` when no letter is left (`李雷`, `R2-D2` → `rd`).
 */
export function avatarSlug(name: string): string {
  const letters = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z]/g, '')
    .slice(0, MAX_SLUG_LETTERS);
  return letters === '' ? 'avatar' : letters;
}

/** The 1000 ids a slug can have, `<slug>-000` to `<slug>-999`. */
export function avatarIdsOf(slug: string): string[] {
  return Array.from({ length: 1000 }, (_, n) => `${slug}-${String(n).padStart(3, '0')}`);
}
