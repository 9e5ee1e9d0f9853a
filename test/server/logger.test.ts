import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createLogger, jsonDestination, prettyDestination } from '../../server/observability/logger.js';

describe('server log', () => {
  it('writes JSON lines: ISO time, level by name, msg, fields, and an error with its stack', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    logger.debug('not at info');
    logger.info({ req_id: 'req_1', status: 200 }, 'request');
    logger.error({ err: new Error('boom') }, 'failed');
    assert.equal(lines.length, 2);
    const [request, failure] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.match(String(request!.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual({ ...request, time: undefined }, { time: undefined, level: 'info', req_id: 'req_1', status: 200, msg: 'request' });
    assert.equal(failure!.level, 'error');
    assert.match(String((failure!.err as { stack: string }).stack), /^Error: boom\n/);
  });

  it('pretty: one text line per entry, fields as key=value, the stack indented below', () => {
    let text = '';
    const logger = createLogger('info', prettyDestination({ write: (chunk: string) => (text += chunk) }));
    logger.info({ req_id: 'req_1', method: 'GET', status: 200, ms: 1.5 }, 'request');
    logger.warn({ err: new Error('disk full') }, 'GET /v1/x unavailable');
    const [first, second, third] = text.split('\n');
    assert.match(first!, /^\d\d:\d\d:\d\d\.\d{3} INFO  request req_id=req_1 method=GET status=200 ms=1\.5$/);
    assert.match(second!, /^\d\d:\d\d:\d\d\.\d{3} WARN  GET \/v1\/x unavailable$/);
    assert.equal(third, '  Error: disk full');
  });

  it('writes the lines of one turn of the event loop together, when the turn ends', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'avatar-log-'));
    try {
      const file = join(dir, 'server.log');
      const logger = createLogger('info', jsonDestination(file));
      for (let i = 0; i < 3; i++) logger.info({ i }, 'request');
      assert.equal(readFileSync(file, 'utf8'), '', 'nothing written during the turn');
      await new Promise(setImmediate);
      const lines = (await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { i: number });
      assert.deepEqual(lines.map((line) => line.i), [0, 1, 2]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('writes the lines still pending when the process exits, on stdout, an uncaught exception included', async () => {
    const logger = fileURLToPath(new URL('../../server/observability/logger.js', import.meta.url));
    const script = (exit: string) =>
      `const { createLogger } = await import(${JSON.stringify(logger)}); const log = createLogger('info'); log.info('one'); log.error('two'); ${exit}`;
    for (const exit of ['process.exit(3)', 'throw new Error("crash")']) {
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script(exit)]).catch((error: { stdout: string }) => error);
      assert.deepEqual(
        stdout.trim().split('\n').map((line) => (JSON.parse(line) as { msg: string }).msg),
        ['one', 'two'],
        exit,
      );
    }
  });
});
