import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../server/config.js';

const dataDir = await mkdtemp(join(tmpdir(), 'avatar-db-config-'));
after(() => rm(dataDir, { recursive: true, force: true }));
const config = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'a-secret-long-enough-for-the-config-check', ...env });

describe('Database and blob configuration', () => {
  it('defaults: SQLite in the data folder, a pool of 10, 30 s statements, 10 s to connect, blobs in DATA_DIR/audio', () => {
    const c = config({});
    assert.equal(c.databaseUrl, `sqlite://${join(dataDir, 'avatar.db')}`);
    assert.deepEqual(c.database, { poolMax: 10, statementTimeoutMs: 30_000, connectTimeoutMs: 10_000 });
    assert.equal(c.blobDir, join(dataDir, 'audio'));
  });

  it('reads DATABASE_URL=postgres://, the pool and timeouts, and BLOB_DIR (made absolute)', () => {
    const c = config({
      DATABASE_URL: 'postgres://svc:pw@db:5432/avatars',
      DATABASE_POOL_MAX: '25',
      DATABASE_STATEMENT_TIMEOUT: '5s',
      DATABASE_CONNECT_TIMEOUT: '2s',
      BLOB_DIR: 'shared/blobs',
    });
    assert.equal(c.databaseUrl, 'postgres://svc:pw@db:5432/avatars');
    assert.deepEqual(c.database, { poolMax: 25, statementTimeoutMs: 5_000, connectTimeoutMs: 2_000 });
    assert.equal(c.blobDir, join(process.cwd(), 'shared/blobs'));
    assert.equal(config({ DATABASE_STATEMENT_TIMEOUT: '0' }).database.statementTimeoutMs, 0, '0 turns the timeout off');
  });

  it('bad values stop start-up naming the variable', () => {
    for (const [env, variable] of [
      [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
      [{ DATABASE_POOL_MAX: '0' }, 'DATABASE_POOL_MAX'],
      [{ DATABASE_POOL_MAX: 'many' }, 'DATABASE_POOL_MAX'],
      [{ DATABASE_STATEMENT_TIMEOUT: 'soon' }, 'DATABASE_STATEMENT_TIMEOUT'],
      [{ DATABASE_CONNECT_TIMEOUT: '-1s' }, 'DATABASE_CONNECT_TIMEOUT'],
    ] as const) {
      assert.throws(() => config(env), (error: unknown) => error instanceof ConfigError && error.variable === variable, JSON.stringify(env));
    }
  });
});
