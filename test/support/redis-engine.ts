// A throwaway redis-server for tests, started the same way locally and in CI: a child process on a
// free private port, no persistence, its working folder in a temp dir, stopped by PID. When the
// binary is missing the caller's test fails with a message saying how to install it — suites that
// need Redis are never skipped.
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, until } from './processes.js';

/** A running server: `url` is `redis://127.0.0.1:<port>`. */
export interface RedisEngine {
  url: string;
  pid: number;
  /** Stops the server by PID (SIGTERM, then SIGKILL after 10 s) and removes its folder. */
  stop(): Promise<void>;
}

const INSTALL_HINT =
  'redis-server was not found: install it (Debian: `apt-get install redis-server`) or set REDIS_SERVER to its path. ' +
  'Tests that need Redis are never skipped.';

/** The redis-server binary: REDIS_SERVER, else the first on PATH. */
export function redisServerBinary(): string {
  if (process.env.REDIS_SERVER) {
    if (existsSync(process.env.REDIS_SERVER)) return process.env.REDIS_SERVER;
    throw new Error(`REDIS_SERVER=${process.env.REDIS_SERVER} does not exist. ${INSTALL_HINT}`);
  }
  for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/bin', '/usr/local/bin']) {
    if (dir && existsSync(join(dir, 'redis-server'))) return join(dir, 'redis-server');
  }
  throw new Error(INSTALL_HINT);
}

export async function startRedis(): Promise<RedisEngine> {
  const binary = redisServerBinary();
  const dir = await mkdtemp(join(tmpdir(), 'avatar-redis-'));
  const port = await freePort();
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  let exited = false;
  const gone = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  child.once('error', (err) => (out += String(err)));
  await until(() => exited || /Ready to accept connections/.test(out), 'redis-server to accept connections', 15_000);
  if (exited) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`redis-server exited at start: ${out}`);
  }
  let stopped = false;
  // A test process that ends without calling stop() still takes its server along.
  const leftBehind = () => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', leftBehind);
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      if (stopped) return;
      stopped = true;
      process.off('exit', leftBehind);
      if (!exited) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await gone;
        clearTimeout(timer);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
