import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatReport, runSoak } from '../../bench/soak.js';

/**
 * The soak of bench/soak.ts, test-sized: 60 s of mixed traffic (REST, SSE, socket.io, WebSocket,
 * slow readers, abrupt disconnects) at 20 operations/s against a real server in its own process,
 * which is sampled every 5 s. Fails when the server's heap, active handles or open fds grow without
 * bound after the warm-up (bounds: `Bounds` in bench/soak.ts; method: bench/README.md).
 */
describe('Soak (60 s)', () => {
  it('keeps the server heap, handles and fds bounded under steady mixed traffic', { timeout: 300_000 }, async () => {
    const result = await runSoak({ durationS: 60, rate: 20, sampleEveryS: 5, slowMs: 10_000 });
    console.log(formatReport(result));

    assert.equal(result.serverExit, undefined, 'the server process died during the soak');
    // The growth figures mean something only if the traffic ran and mostly succeeded.
    const expected = result.options.durationS * result.options.rate;
    assert.ok(result.totalOps >= expected * 0.5, `only ${result.totalOps} operations of about ${expected}`);
    assert.ok(result.totalErrors <= result.totalOps * 0.1, `${result.totalErrors} errors in ${result.totalOps} operations: ${JSON.stringify(result.errorDetails)}`);

    assert.deepEqual(result.verdict.failures, [], `growth check failed:\n${result.verdict.failures.join('\n')}`);
  });
});
