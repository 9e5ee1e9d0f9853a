import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { assertCleanLog } from '../support/processes.js';

const run = promisify(execFile);

/** What Node itself prints to stderr when `script` runs (warnings go there). */
async function stderrOf(script: string): Promise<string> {
  const { stderr } = await run(process.execPath, ['--input-type=module', '-e', script], { env: { PATH: process.env.PATH } }).catch((error: { stderr: string }) => error);
  return stderr;
}

/** The check every server child process of the tests goes through when it is stopped (test/support/processes.ts). */
describe('assertCleanLog', () => {
  it('passes an ordinary server log', () => {
    assertCleanLog('avatar-service: data folder /tmp/x\navatar-service: listening on http://127.0.0.1:8080\n', 'a server');
  });

  it("fails on the warnings and unhandled rejections Node prints, as Node prints them", async () => {
    const samples = {
      'a listener leak': "import { EventEmitter } from 'node:events'; const e = new EventEmitter(); for (let i = 0; i < 11; i++) e.on('close', () => {});",
      'a deprecation': "process.emitWarning('old API', 'DeprecationWarning', 'DEP0999');",
      'a plain warning': "process.emitWarning('something odd');",
      'an unhandled rejection of an Error': "Promise.reject(new Error('nobody awaited this'));",
      'an unhandled rejection of a string': "Promise.reject('nobody awaited this');",
      'an uncaught exception': "setTimeout(() => { throw new Error('thrown in a callback'); });",
    };
    for (const [what, script] of Object.entries(samples)) {
      const log = `avatar-service: listening on http://127.0.0.1:8080\n${await stderrOf(script)}`;
      assert.throws(() => assertCleanLog(log, 'a server'), /printed warnings or unhandled rejections/, `${what}: ${log}`);
    }
  });
});
