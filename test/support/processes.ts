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

/**
 * What a server's log must never hold, each a bug to fix rather than noise: a listener leak
 * (`MaxListenersExceededWarning`), a promise nobody awaited (`UnhandledPromiseRejection…` for a
 * reason that is not an Error, an `unhandledRejection` report), any other warning Node prints
 * (`(node:1234) …Warning: …`), or the `Node.js v20.…` line Node ends its report with when an
 * uncaught exception or an unhandled rejection of an Error stops the process.
 */
const LOG_PROBLEM = /MaxListenersExceededWarning|UnhandledPromiseRejection|unhandledRejection|\(node:\d+\) (?:\[\w+\] )?\w*Warning|^Node\.js v\d+\.\d+\.\d+$/;

/** Fails the test when `log` (what a server child process printed) holds a warning or an unhandled rejection. */
export function assertCleanLog(log: string, who: string): void {
  const problems = log.split('\n').filter((line) => LOG_PROBLEM.test(line));
  assert.deepEqual(problems, [], `${who} printed warnings or unhandled rejections; its whole output:\n${log}`);
}

/** One finished run of the CLI. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `dist/server/cli.js <args>` to its end with only `env` (and PATH), from `cwd` when given,
 * and fails the test if it printed a warning or an unhandled rejection.
 */
export async function runCli(args: readonly string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<CliRun> {
  const run = await new Promise<CliRun>((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'dist/server/cli.js'), ...args], {
      env: { PATH: process.env.PATH ?? '', ...options.env },
      ...(options.cwd !== undefined && { cwd: options.cwd }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
  assertCleanLog(run.stderr, `avatar-service ${args.join(' ')}`);
  return run;
}

/** The real CLI (`dist/server/cli.js serve`) as a child process. */
export interface Cli {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
}

/**
 * Starts the CLI with only `env` (and PATH) and waits until it listens. Stop it with
 * {@link killCli} or {@link stopCli}, which check its log.
 */
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

/**
 * SIGKILLs the CLI (no chance to clean up, like a crash) and waits for it to be gone, then fails
 * the test if its log holds a warning or an unhandled rejection.
 */
export async function killCli(cli: Cli | undefined): Promise<void> {
  if (!cli) return;
  if (cli.child.exitCode === null && cli.child.signalCode === null) {
    const exited = new Promise((resolve) => cli.child.once('exit', resolve));
    cli.child.kill('SIGKILL');
    await exited;
  }
  assertCleanLog(cli.output(), 'the server (avatar-service serve)');
}

/**
 * Stops the CLI as an operator does (SIGTERM), waits for it to exit and returns its exit code;
 * fails the test if its log holds a warning or an unhandled rejection.
 */
export async function stopCli(cli: Cli): Promise<number | null> {
  let code = cli.child.exitCode;
  if (code === null && cli.child.signalCode === null) {
    const exited = new Promise<number | null>((resolve) => cli.child.once('exit', (exitCode) => resolve(exitCode)));
    cli.child.kill('SIGTERM');
    code = await exited;
  }
  assertCleanLog(cli.output(), 'the server (avatar-service serve)');
  return code;
}
