// A throwaway PostgreSQL cluster for tests, started the same way locally and in CI: `initdb` into a
// temp folder, `pg_ctl start` on a free private port with its unix socket in that folder, stopped
// by the postmaster's PID. When the binaries are missing the caller's test fails with a message
// saying how to install them — suites that need PostgreSQL are never skipped.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chown, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, until } from './processes.js';

const run = promisify(execFile);

/** A running cluster: `url` reaches its `postgres` database as the `postgres` superuser. */
export interface PostgresEngine {
  url: string;
  /** Creates an empty database `t_<random>` and returns its URL. */
  createDatabase(): Promise<string>;
  /** Stops the cluster by PID (fast shutdown) and removes its folder. */
  stop(): Promise<void>;
}

/** util-linux's runuser (in /usr/sbin, which a test's PATH may lack). */
const RUNUSER = ['/usr/sbin/runuser', '/sbin/runuser'].find((path) => existsSync(path)) ?? 'runuser';

const INSTALL_HINT =
  'PostgreSQL binaries (initdb, pg_ctl) were not found: install them (Debian: `apt-get install postgresql`) ' +
  'or set PG_BIN to the folder holding them. Tests that need PostgreSQL are never skipped.';

/** The folder holding initdb and pg_ctl: PG_BIN, the newest /usr/lib/postgresql/<n>/bin, or PATH. */
export async function postgresBinDir(): Promise<string> {
  if (process.env.PG_BIN) {
    if (existsSync(join(process.env.PG_BIN, 'initdb'))) return process.env.PG_BIN;
    throw new Error(`PG_BIN=${process.env.PG_BIN} holds no initdb. ${INSTALL_HINT}`);
  }
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = (await readdir(base)).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) if (existsSync(join(base, v, 'bin', 'initdb'))) return join(base, v, 'bin');
  }
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, 'initdb'))) return dir;
  throw new Error(INSTALL_HINT);
}

/**
 * Starts a cluster. As root, PostgreSQL refuses to run, so the server runs as the `postgres` user
 * (through `runuser`) in a temp folder handed to that user; as any other user it runs as itself.
 */
export async function startPostgres(): Promise<PostgresEngine> {
  const bin = await postgresBinDir();
  const dir = await mkdtemp(join(tmpdir(), 'avatar-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']).catch(() => {
      throw new Error(`running as root needs a "postgres" system user to own the cluster. ${INSTALL_HINT}`);
    });
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const owner = asRoot ? 'postgres' : userInfo().username;
  const as = (cmd: string, args: string[]) =>
    asRoot ? run(RUNUSER, ['-u', 'postgres', '--', join(bin, cmd), ...args]) : run(join(bin, cmd), args);

  const data = join(dir, 'data');
  await as('initdb', ['-D', data, '-U', owner, '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']).catch((err: Error & { stderr?: string }) => {
    throw new Error(`initdb failed: ${err.stderr ?? err.message}`);
  });
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
    '-c shared_buffers=32MB',
  ].join(' ');
  await as('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', options, '-w', '-t', '30', 'start']).catch(async (err: Error & { stderr?: string }) => {
    const log = await readFile(join(dir, 'log'), 'utf8').catch(() => '');
    await rm(dir, { recursive: true, force: true });
    throw new Error(`pg_ctl start failed: ${err.stderr ?? err.message}\n${log}`);
  });
  const pid = Number((await readFile(join(data, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const url = `postgres://${owner}@127.0.0.1:${port}/postgres`;

  let stopped = false;
  // A test process that ends without calling stop() (an uncaught error) still takes its cluster
  // along: "immediate" shutdown, which needs no event loop.
  const leftBehind = () => {
    try {
      process.kill(pid, 'SIGQUIT');
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', leftBehind);
  return {
    url,
    async createDatabase() {
      const name = `t_${randomBytes(6).toString('hex')}`;
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://${owner}@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      process.off('exit', leftBehind);
      const alive = () => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      if (alive()) process.kill(pid, 'SIGINT'); // "fast" shutdown: disconnect clients, no checkpoint wait
      await until(() => !alive(), `PostgreSQL (pid ${pid}) to stop`, 30_000);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
