/** One page of a list read with a cursor: the items, and whether more follow. */
export interface Page<T> {
  items: T[];
  hasMore: boolean;
}

/** A page from rows read with `limit + 1`: the first `limit`, and whether the extra row came. */
export function pageOf<T>(rows: readonly T[], limit: number): Page<T> {
  return { items: rows.slice(0, limit), hasMore: rows.length > limit };
}
