// REDIS_URL and CONNECTION_LEASE_TTL: checked at start, and a Redis that does not answer stops
// `serve` with one line naming the variable (the process exits; no connection keeps it alive).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { loadConfig } from '../../server/index.js';
import { freePort } from '../support/processes.js';
import { repoRoot } from '../support/repo-root.js';

const run = promisify(execFile);

describe('scale-out configuration', () => {
  it('accepts redis:// and rediss:// URLs, refuses others naming REDIS_URL, and reads CONNECTION_LEASE_TTL', async (t) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'avatar-scale-config-'));
    t.after(() => rm(dataDir, { recursive: true, force: true }));
    const base = { DATA_DIR: dataDir };
    assert.equal(loadConfig(base).redisUrl, undefined);
    assert.equal(loadConfig(base).connectionLeaseTtlMs, 30_000);
    assert.equal(loadConfig({ ...base, REDIS_URL: 'redis://cache.internal:6379/2' }).redisUrl, 'redis://cache.internal:6379/2');
    assert.equal(loadConfig({ ...base, REDIS_URL: 'rediss://user:pw@cache.internal:6380' }).redisUrl, 'rediss://user:pw@cache.internal:6380');
    assert.throws(() => loadConfig({ ...base, REDIS_URL: 'http://cache.internal:6379' }), /REDIS_URL: must start with redis:\/\/ or rediss:\/\//);
    assert.throws(() => loadConfig({ ...base, REDIS_URL: 'cache.internal:6379' }), /REDIS_URL/);
    assert.equal(loadConfig({ ...base, CONNECTION_LEASE_TTL: '2s' }).connectionLeaseTtlMs, 2_000);
    assert.throws(() => loadConfig({ ...base, CONNECTION_LEASE_TTL: 'soon' }), /CONNECTION_LEASE_TTL/);
  });

  it('serve stops with one line naming REDIS_URL when Redis does not answer, and exits', async (t) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'avatar-scale-serve-'));
    t.after(() => rm(dataDir, { recursive: true, force: true }));
    const nobody = await freePort();
    const failed = await run(process.execPath, [join(repoRoot, 'dist/server/cli.js'), 'serve'], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: String(await freePort()), DEV_BOOTSTRAP: 'false', REDIS_URL: `redis://127.0.0.1:${nobody}` },
      timeout: 30_000,
    }).then(
      () => assert.fail('serve started without Redis'),
      (error: { code?: number; killed?: boolean; stderr?: string }) => error,
    );
    assert.equal(failed.killed, false, 'the process exited by itself');
    assert.equal(failed.code, 1);
    const lines = failed.stderr!.trim().split('\n');
    assert.equal(lines.length, 1, failed.stderr);
    assert.match(lines[0]!, new RegExp(`^avatar-service: REDIS_URL: Redis at redis://127\\.0\\.0\\.1:${nobody}/? did not answer`));
  });
});
