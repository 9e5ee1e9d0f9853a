// The support scripts that start PostgreSQL and Redis for tests: each starts, answers, and stops.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import pg from 'pg';
import { Redis } from 'ioredis';
import { startPostgres } from './support/postgres-engine.js';
import { startRedis } from './support/redis-engine.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it('startPostgres runs a throwaway cluster, makes one database per call, and stops by PID', async () => {
  const engine = await startPostgres();
  try {
    const a = await engine.createDatabase();
    const b = await engine.createDatabase();
    assert.notEqual(a, b);
    const client = new pg.Client({ connectionString: a });
    await client.connect();
    const { rows } = await client.query<{ db: string; pid: number }>('select current_database() as db, pg_backend_pid() as pid');
    assert.equal(`/${rows[0]!.db}`, new URL(a).pathname);
    await client.end();
  } finally {
    await engine.stop();
  }
  const client = new pg.Client({ connectionString: engine.url, connectionTimeoutMillis: 2000 });
  await assert.rejects(client.connect());
});

it('startRedis runs a throwaway redis-server without persistence and stops by PID', async () => {
  const engine = await startRedis();
  const redis = new Redis(engine.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await redis.connect();
    assert.equal(await redis.ping(), 'PONG');
    assert.deepEqual(await redis.config('GET', 'save'), ['save', '']);
    assert.deepEqual(await redis.config('GET', 'appendonly'), ['appendonly', 'no']);
  } finally {
    redis.disconnect();
    await engine.stop();
  }
  assert.equal(alive(engine.pid), false);
});
