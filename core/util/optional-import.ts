import { ConfigurationError } from '../errors.js';

/**
 * What a feature reports when a package it needs is an optional one that is not installed: a
 * {@link ConfigurationError} (named so) for the setting that asked for the package.
 */
export class MissingOptionalPackageError extends ConfigurationError {
  readonly packageName: string;
  constructor(packageName: string, purpose: string) {
    super(purpose, `needs the optional package ${packageName}, which is not installed: npm install ${packageName}`);
    this.packageName = packageName;
  }
}

/**
 * Imports a package that only some configurations need (the scale-out engines: `pg` for
 * `DATABASE_URL=postgres://…`, `ioredis` and `@socket.io/redis-adapter` for `REDIS_URL`), on first
 * use. Such packages are optional peer dependencies of avatar-service (README, "Optional
 * packages"): an app installs them when it uses the feature. When `packageName` itself is not
 * installed this throws a {@link MissingOptionalPackageError} whose one-line message names the
 * setting and the command, e.g. `DATABASE_URL: needs the optional package pg, which is not
 * installed: npm install pg`. Any other failure (the package is there but one of its own imports
 * is missing, or it throws while loading) is rethrown as it is.
 *
 * The package resolves from avatar-service's own location, as a static import would.
 *
 * @example
 * const { Pool } = await importOptional<PgModule>('pg', 'DATABASE_URL');
 */
export async function importOptional<Module = unknown>(packageName: string, purpose: string): Promise<Module> {
  try {
    return (await import(packageName)) as Module;
  } catch (error) {
    if (isNotFound(error, packageName)) throw new MissingOptionalPackageError(packageName, purpose);
    throw error;
  }
}

/** Node's "Cannot find package 'x'" (ESM) or "Cannot find module 'x'" for `packageName` itself. */
function isNotFound(error: unknown, packageName: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  const message = String((error as Error).message);
  return message.includes(`'${packageName}'`) || message.includes(`'${packageName}/`);
}
