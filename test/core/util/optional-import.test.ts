import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { ConfigurationError, MissingOptionalPackageError, importOptional } from '../../../core/index.js';

describe('importOptional', () => {
  it('returns the module of an installed package', async () => {
    const kysely = await importOptional<typeof import('kysely')>('kysely', 'DATABASE_URL');
    assert.equal(typeof kysely.Kysely, 'function');
  });

  it('names the setting and the install command in one line when the package is missing', async () => {
    const error = await importOptional('pg-not-installed-anywhere', 'DATABASE_URL').then(
      () => assert.fail('resolved'),
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof MissingOptionalPackageError);
    assert.ok(error instanceof ConfigurationError, 'a configuration error, as the other start-up checks throw');
    assert.equal(error.message, 'DATABASE_URL: needs the optional package pg-not-installed-anywhere, which is not installed: npm install pg-not-installed-anywhere');
    assert.equal(error.option, 'DATABASE_URL');
    assert.equal(error.packageName, 'pg-not-installed-anywhere');
    assert.doesNotMatch(error.message, /\n/);
  });

  it('passes on the failure of a module that is there but cannot load one of its own imports', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'optional-import-'));
    try {
      const module = join(dir, 'broken.mjs');
      await writeFile(module, "import 'a-dependency-that-is-missing';\n");
      const url = pathToFileURL(module).href;
      await assert.rejects(importOptional(url, 'REDIS_URL'), (error: Error & { code?: string }) => {
        assert.ok(!(error instanceof MissingOptionalPackageError));
        assert.equal(error.code, 'ERR_MODULE_NOT_FOUND');
        assert.match(error.message, /a-dependency-that-is-missing/);
        return true;
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
