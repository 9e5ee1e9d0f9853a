import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Metric } from 'prom-client';
import { Counter, Histogram, Registry } from 'prom-client';
import { RequestSeries } from '../../server/observability/request-series.js';

const BOUNDS = [0.001, 0.01, 0.1, 1];
const COUNTER = ['http_requests_total', 'HTTP requests answered'] as const;
const HISTOGRAM = ['http_request_duration_seconds', 'Time to answer'] as const;

/** Observations on the edges of buckets, past the last bound, and of several series. */
const OBSERVATIONS: [string, string, number, number][] = [
  ['GET', '/v1/conversations/:id', 200, 0.0004],
  ['GET', '/v1/conversations/:id', 200, 0.001],
  ['GET', '/v1/conversations/:id', 200, 0.0010001],
  ['GET', '/v1/conversations/:id', 304, 0.002],
  ['POST', '/v1/conversations/:id/messages', 200, 0.1],
  ['POST', '/v1/conversations/:id/messages', 200, 3.5],
  ['GET', 'unmatched', 404, 0],
  ['GET', '/v1/conversations/:id', 200, 0.25],
  ['DELETE', '/v1/webhooks/:id', 204, 1],
];

describe('RequestSeries', () => {
  it('exposes the same text as prom-client Counter and Histogram fed the same observations', async () => {
    const theirs = new Registry();
    const labelNames = ['method', 'route', 'status'];
    const counter = new Counter({ name: COUNTER[0], help: COUNTER[1], labelNames, registers: [theirs] });
    const histogram = new Histogram({ name: HISTOGRAM[0], help: HISTOGRAM[1], labelNames, buckets: BOUNDS, registers: [theirs] });
    const ours = new Registry();
    const series = new RequestSeries(BOUNDS);
    ours.registerMetric(series.counter(...COUNTER) as unknown as Metric);
    ours.registerMetric(series.histogram(...HISTOGRAM) as unknown as Metric);

    assert.equal(await ours.metrics(), await theirs.metrics(), 'nothing observed yet');
    for (const [method, route, status, seconds] of OBSERVATIONS) {
      counter.inc({ method, route, status: String(status) });
      histogram.observe({ method, route, status: String(status) }, seconds);
      series.observe(method, route, status, seconds);
    }
    const text = await ours.metrics();
    assert.equal(text, await theirs.metrics());
    // Spot checks, so the comparison cannot pass on two empty texts.
    assert.match(text, /^http_requests_total\{method="GET",route="\/v1\/conversations\/:id",status="200"\} 4$/m);
    assert.match(text, /^http_request_duration_seconds_bucket\{le="0\.001",method="GET",route="\/v1\/conversations\/:id",status="200"\} 2$/m);
    assert.match(text, /^http_request_duration_seconds_bucket\{le="1",method="POST",route="\/v1\/conversations\/:id\/messages",status="200"\} 1$/m);
    assert.match(text, /^http_request_duration_seconds_bucket\{le="\+Inf",method="POST",route="\/v1\/conversations\/:id\/messages",status="200"\} 2$/m);
    assert.match(text, /^http_request_duration_seconds_sum\{method="POST",route="\/v1\/conversations\/:id\/messages",status="200"\} 3\.6$/m);
  });
});
