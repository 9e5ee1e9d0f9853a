#!/usr/bin/env node
// Runs every suite — node tests (compiled to dist/test) and browser tests (web-test-runner in
// Chromium) — and ends with one line `N passed, N failed` summing them all.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const only = process.argv.slice(2);
let passed = 0;
let failed = 0;

function findTests(dir, suffix) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith(suffix))
    .map((f) => join(dir, f))
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
    .sort();
}

// 1. Node suites.
const nodeTests = findTests(join(root, 'dist/test'), '.test.js');
if (nodeTests.length) {
  const work = mkdtempSync(join(tmpdir(), 'avatar-tests-'));
  const tap = join(work, 'node.tap');
  const result = spawnSync(
    process.execPath,
    ['--test', '--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=tap', `--test-reporter-destination=${tap}`, ...nodeTests.map((f) => relative(root, f))],
    { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
  );
  const summary = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
  const count = (name) => Number(summary.match(new RegExp(`^# ${name} (\\d+)$`, 'm'))?.[1] ?? 0);
  const nodePassed = count('pass');
  const nodeFailed = count('fail') + count('cancelled');
  passed += nodePassed;
  failed += nodeFailed;
  if (result.status !== 0 && nodeFailed === 0) failed += 1; // the runner itself failed
  console.log(`node: ${nodePassed} passed, ${nodeFailed} failed`);
  rmSync(work, { recursive: true, force: true });
}

// 2. Browser suites (real Chromium).
const browserTests = findTests(join(root, 'test/widget'), '.test.ts');
if (browserTests.length && existsSync(join(root, 'web-test-runner.config.mjs'))) {
  const work = mkdtempSync(join(tmpdir(), 'avatar-wtr-'));
  const report = join(work, 'summary.json');
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules/@web/test-runner/dist/bin.js'), '--config', 'web-test-runner.config.mjs', ...(only.length ? ['--files', ...browserTests.map((f) => relative(root, f))] : [])],
    { cwd: root, stdio: 'inherit', env: { ...process.env, WTR_SUMMARY_FILE: report } },
  );
  let browserPassed = 0;
  let browserFailed = 0;
  if (existsSync(report)) ({ passed: browserPassed, failed: browserFailed } = JSON.parse(readFileSync(report, 'utf8')));
  if (result.status !== 0 && browserFailed === 0) browserFailed = 1;
  passed += browserPassed;
  failed += browserFailed;
  console.log(`browser: ${browserPassed} passed, ${browserFailed} failed`);
  rmSync(work, { recursive: true, force: true });
}

console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
