/**
 * The candidate a misspelt field name most likely meant, or `undefined` when none is close. Names
 * are compared without case, `_` or `-`, so `avatarId` finds `avatar_id`; otherwise by edit
 * distance (at most 2, and at most a third of the name, so short names do not match anything).
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const plain = (text: string) => text.toLowerCase().replace(/[_-]/g, '');
  const wanted = plain(name);
  let best: string | undefined;
  let bestDistance = Math.min(2, Math.floor(wanted.length / 3));
  for (const candidate of candidates) {
    const distance = editDistance(wanted, plain(candidate));
    if (distance === 0) return candidate;
    if (distance <= bestDistance) [best, bestDistance] = [candidate, distance - 1];
  }
  return best;
}

/** Levenshtein distance with adjacent transpositions counted as one edit (`contnet` → `content`). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = value;
    }
  }
  return rows[a.length]![b.length]!;
}
