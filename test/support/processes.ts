import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { repoRoot } from './repo-root.js';

/** A loopback port that was free a moment ago (nothing listens on it now). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Waits until `check` holds, looking every 10 ms; fails the test after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The real CLI (`dist/server/cli.js serve`) as a child process. */
export interface Cli {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
}

/** Starts the CLI with only `env` (and PATH) and waits until it listens. */
export async function startCli(env: Record<string, string>): Promise<Cli> {
  const child = spawn(process.execPath, [join(repoRoot, 'dist/server/cli.js'), 'serve'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  let exited = false;
  child.once('exit', () => (exited = true));
  await until(() => exited || /listening on/.test(out), 'the CLI to listen', 15_000);
  assert.ok(!exited, `the CLI exited: ${out}`);
  return { child, output: () => out };
}

/** SIGKILLs the CLI (no chance to clean up, like a crash) and waits for it to be gone. */
export async function killCli(cli: Cli | undefined): Promise<void> {
  if (!cli || cli.child.exitCode !== null || cli.child.signalCode !== null) return;
  const exited = new Promise((resolve) => cli.child.once('exit', resolve));
  cli.child.kill('SIGKILL');
  await exited;
}
