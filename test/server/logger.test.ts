import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogger, prettyDestination } from '../../server/observability/logger.js';

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
});
