import { CompiledQuery } from 'kysely';
import type { Compilable, Kysely, QueryResult } from 'kysely';

/**
 * A query compiled once and run many times with new parameter values. Kysely builds and compiles
 * a query on every call, which costs more than a SQLite point read; hot reads (key lookup,
 * conversation, messages) use this instead.
 *
 * The query is built with sentinel values; compiling records where each sentinel landed among the
 * positional parameters, and `execute` substitutes the real values there.
 *
 * @example
 * const byHash = precompile(db.selectFrom('api_keys').selectAll().where('hash', '=', HASH), [HASH]);
 * const { rows } = await byHash.execute(db, [hash]);
 */
export interface PrecompiledQuery<R> {
  execute(db: Kysely<never>, values: readonly unknown[]): Promise<QueryResult<R>>;
}

export function precompile<R>(query: Compilable<R>, sentinels: readonly string[]): PrecompiledQuery<R> {
  const compiled = query.compile();
  const positions = sentinels.map((sentinel) => {
    const indexes = compiled.parameters.flatMap((p, i) => (p === sentinel ? [i] : []));
    if (indexes.length !== 1) throw new Error(`sentinel ${sentinel} appears ${indexes.length} times in: ${compiled.sql}`);
    return indexes[0]!;
  });
  return {
    execute(db, values) {
      const parameters = [...compiled.parameters];
      positions.forEach((position, i) => (parameters[position] = values[i]));
      return db.executeQuery(CompiledQuery.raw(compiled.sql, parameters) as CompiledQuery<R>);
    },
  };
}
