/** One series: a method, route template and status, and what was observed of it. */
interface Series {
  readonly labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** Observations per bucket, not cumulative: `[i]` counts values in (bounds[i-1], bounds[i]]; the last, those above every bound. */
  readonly buckets: Float64Array;
}

/** A sample line of a scrape: its labels and value, and its name when not the metric's. */
interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/** A metric as a prom-client registry reads it when scraped (`registry.registerMetric`). */
export interface ScrapedMetric {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: string; aggregator: 'sum'; values: Sample[] }>;
}

/**
 * The request counter and the request-duration histogram, kept in one map keyed by a string of
 * the labels: an observation is a lookup and three additions. prom-client's own Counter and
 * Histogram validate and hash the label object on every observation, twice per request, which
 * cost a cached read ≈ 2.6 µs of its ≈ 75 (bench/README.md, api-throughput). The exposition is
 * prom-client's, unchanged: both metrics are handed to its registry, which formats them as it
 * formats its own (test/server/request-series.test.ts compares the text byte for byte).
 */
export class RequestSeries {
  readonly #bounds: readonly number[];
  readonly #series = new Map<string, Series>();

  constructor(bounds: readonly number[]) {
    this.#bounds = bounds;
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    // Unambiguous: a method is a token (no space) and a status is digits.
    const key = `${method} ${status} ${route}`;
    let series = this.#series.get(key);
    if (series === undefined) {
      series = { labels: { method, route, status: String(status) }, count: 0, sum: 0, buckets: new Float64Array(this.#bounds.length + 1) };
      this.#series.set(key, series);
    }
    series.count++;
    series.sum += seconds;
    let bucket = 0;
    while (bucket < this.#bounds.length && seconds > this.#bounds[bucket]!) bucket++;
    series.buckets[bucket]!++;
  }

  /** The number of observations per series, as a counter. */
  counter(name: string, help: string): ScrapedMetric {
    const values = () => [...this.#series.values()].map(({ labels, count }) => ({ labels, value: count }));
    return scraped(name, help, 'counter', values);
  }

  /** The observations as a histogram: cumulative `_bucket` lines (`le`, then the series' labels), `_sum`, `_count`. */
  histogram(name: string, help: string): ScrapedMetric {
    const values = () =>
      [...this.#series.values()].flatMap(({ labels, count, sum, buckets }) => {
        let cumulative = 0;
        const lines: Sample[] = this.#bounds.map((le, i) => ({ labels: { le, ...labels }, value: (cumulative += buckets[i]!), metricName: `${name}_bucket` }));
        lines.push({ labels: { le: '+Inf', ...labels }, value: count, metricName: `${name}_bucket` });
        return [...lines, { labels, value: sum, metricName: `${name}_sum` }, { labels, value: count, metricName: `${name}_count` }];
      });
    return scraped(name, help, 'histogram', values);
  }
}

function scraped(name: string, help: string, type: ScrapedMetric['type'], values: () => Sample[]): ScrapedMetric {
  return {
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
  };
}
